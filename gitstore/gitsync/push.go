package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
)

// Pushed says what a push did.
type Pushed struct {
	Remote   string
	Branch   string
	Commit   string // what the remote branch is now
	UpToDate bool   // the remote had it already
}

// Push sends the current branch of s to the remote's branch of the same name.
// It never forces: when the remote's branch is not in our history (it
// moved since the last fetch) it returns ErrRemoteMoved, and the caller
// fetches and merges again; the server's own check catches a push that
// wins the race in between. What it sends costs what is new: the commits
// the remote lacks, and of each only the trees and files that differ from
// its parents' (go-git's push walks every tree of the remote's history).
// Push only reads the repository and moves the tracking ref, so it does
// not need the write lock.
func Push(ctx context.Context, s *gitstore.Store, remote string, getenv func(string) string) (*Pushed, error) {
	r, err := LookupRemote(s, remote)
	if err != nil {
		return nil, err
	}
	branch, head, err := s.Head()
	if err != nil {
		return nil, err
	}
	if head.IsZero() {
		return nil, fmt.Errorf("push %s: nothing to push yet", remote)
	}
	p := &Pushed{Remote: remote, Branch: branch.Short(), Commit: head.String()}
	fail := func(err error) (*Pushed, error) {
		return nil, fmt.Errorf("push %s (%s): %w", remote, Redact(r.URL), scrub(err, r.URL))
	}
	auth, err := auth(s, r.URL, getenv)
	if err != nil {
		return fail(err)
	}
	ep, err := transport.NewEndpoint(r.URL)
	if err != nil {
		return fail(err)
	}
	cli, err := client.NewClient(ep)
	if err != nil {
		return fail(err)
	}
	sess, err := cli.NewReceivePackSession(ep, auth)
	if err != nil {
		return fail(netError(err))
	}
	defer sess.Close()
	ar, err := sess.AdvertisedReferencesContext(ctx)
	if err != nil {
		return fail(netError(err))
	}
	refs, err := ar.AllReferences()
	if err != nil {
		return fail(err)
	}
	var old plumbing.Hash
	if ref, err := refs.Reference(branch); err == nil {
		old = ref.Hash()
	}
	tracking := plumbing.ReferenceName("refs/remotes/" + remote + "/" + branch.Short())
	if old == head {
		p.UpToDate = true
		setTracking(s, tracking, head)
		return p, nil
	}
	var hashes []plumbing.Hash
	err = s.WithRepo(func(repo *git.Repository) (err error) {
		hashes, err = toPush(ctx, repo, head, old)
		return err
	})
	if errors.Is(err, errNotAncestor) {
		return fail(ErrRemoteMoved)
	}
	if err != nil {
		return fail(err)
	}
	req := packp.NewReferenceUpdateRequestFromCapabilities(ar.Capabilities)
	req.Commands = []*packp.Command{{Name: branch, Old: old, New: head}}
	rd, wr := io.Pipe()
	req.Packfile = rd
	done := make(chan error, 1)
	go func() {
		err := s.WithRepo(func(repo *git.Repository) error {
			e := packfile.NewEncoder(wr, repo.Storer, !ar.Capabilities.Supports(capability.OFSDelta))
			_, err := e.Encode(hashes, 10)
			return err
		})
		done <- err
		wr.CloseWithError(err)
	}()
	rs, err := sess.ReceivePack(ctx, req)
	rd.Close()
	if eerr := <-done; err == nil && eerr != nil && !errors.Is(eerr, io.ErrClosedPipe) {
		err = eerr
	}
	if err == nil && rs != nil {
		err = rs.Error()
	}
	switch {
	case err == nil:
		setTracking(s, tracking, head)
		return p, nil
	case isMoved(err):
		return fail(ErrRemoteMoved)
	}
	return fail(netError(err))
}

func setTracking(s *gitstore.Store, ref plumbing.ReferenceName, h plumbing.Hash) {
	// A stale tracking ref only costs the next fetch a little more.
	_ = s.WithRepo(func(repo *git.Repository) error {
		return repo.Storer.SetReference(plumbing.NewHashReference(ref, h))
	})
}

// errNotAncestor means the remote's branch is not in our history.
var errNotAncestor = errors.New("non-fast-forward")

// toPush lists the objects the remote, whose branch is at old, lacks to
// have head: the commits between them, and of each the trees and blobs
// that differ from every parent's at the same path (the others are on the
// remote, or sent with that parent). It refuses an old that is not in
// head's history. It runs inside Store.WithRepo.
func toPush(ctx context.Context, repo *git.Repository, head, old plumbing.Hash) ([]plumbing.Hash, error) {
	have := map[plumbing.Hash]bool{}
	if !old.IsZero() {
		if repo.Storer.HasEncodedObject(old) != nil {
			return nil, errNotAncestor // a commit we never fetched
		}
		// The remote's history, commits only: cheap next to their trees.
		stack := []plumbing.Hash{old}
		for len(stack) > 0 {
			h := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if have[h] {
				continue
			}
			have[h] = true
			_, parents, err := readCommit(repo, h)
			if err != nil {
				return nil, err
			}
			stack = append(stack, parents...)
		}
	}
	sent := map[plumbing.Hash]bool{}
	var out []plumbing.Hash
	add := func(h plumbing.Hash) {
		if !sent[h] {
			sent[h] = true
			out = append(out, h)
		}
	}
	stack := []plumbing.Hash{head}
	reachedOld := old.IsZero()
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if h == old {
			reachedOld = true
		}
		if have[h] || sent[h] {
			continue
		}
		add(h)
		tree, parents, err := readCommit(repo, h)
		if err != nil {
			return nil, err
		}
		var ptrees []plumbing.Hash
		for _, p := range parents {
			pt, _, err := readCommit(repo, p)
			if err != nil {
				return nil, err
			}
			ptrees = append(ptrees, pt)
		}
		if err := newObjects(repo, tree, ptrees, add); err != nil {
			return nil, err
		}
		stack = append(stack, parents...)
	}
	if !reachedOld {
		return nil, errNotAncestor
	}
	return out, nil
}

// newObjects adds tree and what it holds that none of the parent trees
// holds at the same path.
func newObjects(repo *git.Repository, tree plumbing.Hash, parents []plumbing.Hash, add func(plumbing.Hash)) error {
	for _, p := range parents {
		if p == tree {
			return nil
		}
	}
	add(tree)
	entries, err := treeEntries(repo, tree)
	if err != nil {
		return err
	}
	pe := make([]map[string]treeEntry, len(parents))
	for i, p := range parents {
		if pe[i], err = treeEntries(repo, p); err != nil {
			return err
		}
	}
	for name, e := range entries {
		covered := false
		var sub []plumbing.Hash
		for i := range parents {
			if x, ok := pe[i][name]; ok {
				if x.hash == e.hash {
					covered = true
					break
				}
				if x.isDir() {
					sub = append(sub, x.hash)
				}
			}
		}
		switch {
		case covered, e.mode == 0o160000:
		case e.isDir():
			if err := newObjects(repo, e.hash, sub, add); err != nil {
				return err
			}
		default:
			add(e.hash)
		}
	}
	return nil
}

// readCommit returns a commit's tree and parents.
func readCommit(repo *git.Repository, h plumbing.Hash) (plumbing.Hash, []plumbing.Hash, error) {
	o, err := repo.Storer.EncodedObject(plumbing.CommitObject, h)
	if err != nil {
		return plumbing.ZeroHash, nil, fmt.Errorf("read commit %s: %w", short(h), err)
	}
	rd, err := o.Reader()
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	if err != nil {
		return plumbing.ZeroHash, nil, err
	}
	var tree plumbing.Hash
	var parents []plumbing.Hash
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		data = rest
		if len(line) == 0 {
			break
		}
		k, v, _ := strings.Cut(string(line), " ")
		switch k {
		case "tree":
			tree = plumbing.NewHash(v)
		case "parent":
			parents = append(parents, plumbing.NewHash(v))
		}
	}
	return tree, parents, nil
}

// treeEntries reads a tree's entries by name (none for the zero hash).
func treeEntries(repo *git.Repository, h plumbing.Hash) (map[string]treeEntry, error) {
	out := map[string]treeEntry{}
	if h.IsZero() {
		return out, nil
	}
	t, err := repo.TreeObject(h)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", short(h), err)
	}
	for _, e := range t.Entries {
		out[e.Name] = treeEntry{e.Name, e.Mode, e.Hash}
	}
	return out, nil
}

// isMoved recognises the refusal of an update whose old value no longer
// holds: ours (errNotAncestor) or the server's (another push won the
// race).
func isMoved(err error) bool {
	if errors.Is(err, errNotAncestor) || errors.Is(err, plumbing.ErrObjectNotFound) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"non-fast-forward", "fetch first", "failed to update ref", "failed to lock", "cannot lock ref", "stale info"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
