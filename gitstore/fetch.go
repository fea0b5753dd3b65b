package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	objcache "github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Errors of fetch and push that callers tell apart.
var (
	// ErrRewritten means the remote's branch no longer descends from what
	// was fetched from it before: someone rewrote its history.
	ErrRewritten = errors.New("remote history was rewritten")
	// ErrRemoteMoved means a push was refused because the remote moved
	// since the last fetch.
	ErrRemoteMoved = errors.New("remote moved since the last fetch")
	// ErrNoBranch means the remote has commits but not our branch.
	ErrNoBranch = errors.New("remote has no such branch")
	// ErrAuth means the remote refused our credentials, or wanted some.
	ErrAuth = errors.New("authentication failed")
)

// Fetched says what a fetch brought.
type Fetched struct {
	Remote   string
	URL      string
	Branch   string // the branch fetched: the one HEAD points at
	Tracking string // the ref that holds what was fetched (refs/remotes/NAME/BRANCH)
	Old, New string // the tracking ref before and after; empty when absent
	Empty    bool   // the remote has no commits yet
}

// Fetch downloads the remote's copy of the current branch into
// refs/remotes/REMOTE/BRANCH. It refuses, with ErrRewritten, a remote
// branch that does not descend from what was fetched before, and leaves
// the tracking ref where it was. Nothing but objects and the tracking ref
// is written, so Fetch does not need the write lock. getenv supplies
// credentials (see TokenEnv).
func (s *Store) Fetch(ctx context.Context, remote string, getenv func(string) string) (*Fetched, error) {
	r, err := s.Remote(remote)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	branch, _, err := s.head()
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	f := &Fetched{Remote: remote, URL: Redact(r.URL), Branch: branch.Short(),
		Tracking: "refs/remotes/" + remote + "/" + branch.Short()}
	auth, err := s.auth(r.URL, getenv)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", remote, scrub(err, r.URL))
	}
	// A repository of its own: the network may take long, and s.repo
	// must stay usable meanwhile.
	repo, err := git.PlainOpen(s.dir)
	if err != nil {
		return nil, fmt.Errorf("fetch %s: %w", remote, err)
	}
	tracking := plumbing.ReferenceName(f.Tracking)
	if ref, err := repo.Storer.Reference(tracking); err == nil {
		f.Old = ref.Hash().String()
	}
	// Into a ref of our own first: the tracking ref moves only when the
	// remote's branch descends from it. (go-git skips that check for a
	// refspec without "+" when tags are not fetched.)
	tmp := plumbing.ReferenceName("refs/cairn/fetch/" + remote)
	err = repo.FetchContext(ctx, &git.FetchOptions{
		RemoteName: remote,
		RefSpecs:   []config.RefSpec{config.RefSpec("+" + branch.String() + ":" + tmp.String())},
		Auth:       auth,
		Tags:       git.NoTags,
	})
	defer repo.Storer.RemoveReference(tmp)
	var noMatch git.NoMatchingRefSpecError
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		if f.Old != "" {
			return nil, fmt.Errorf("fetch %s (%s): the remote is empty now, but it had %s before: %w; refusing to sync",
				remote, f.URL, f.Old[:10], ErrRewritten)
		}
		f.Empty = true
		return f, nil
	case errors.As(err, &noMatch):
		return nil, fmt.Errorf("fetch %s (%s): %w %s (is it a cairn memory?)", remote, f.URL, ErrNoBranch, f.Branch)
	default:
		return nil, fmt.Errorf("fetch %s (%s): %w", remote, f.URL, scrub(netError(err), r.URL))
	}
	ref, err := repo.Storer.Reference(tmp)
	if err != nil {
		if f.Old == "" {
			return nil, fmt.Errorf("fetch %s (%s): %w %s (is it a cairn memory?)", remote, f.URL, ErrNoBranch, f.Branch)
		}
		ref = plumbing.NewHashReference(tmp, plumbing.NewHash(f.Old)) // nothing new
	}
	f.New = ref.Hash().String()
	if f.Old != "" && f.New != f.Old {
		oc, err1 := object.GetCommit(repo.Storer, plumbing.NewHash(f.Old))
		nc, err2 := object.GetCommit(repo.Storer, ref.Hash())
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("fetch %s: %w", remote, err)
		}
		ok, err := oc.IsAncestor(nc)
		if err != nil {
			return nil, fmt.Errorf("fetch %s: %w", remote, err)
		}
		if !ok {
			return nil, fmt.Errorf("fetch %s (%s): %w: %s no longer contains %s, which was fetched from it before; "+
				"refusing to merge or push (if that was meant, run git -C %s update-ref -d %s and sync again)",
				remote, f.URL, ErrRewritten, f.Branch, f.Old[:10], s.dir, f.Tracking)
		}
	}
	if f.New != f.Old {
		if err := repo.Storer.SetReference(plumbing.NewHashReference(tracking, ref.Hash())); err != nil {
			return nil, fmt.Errorf("fetch %s: update %s: %w", remote, tracking, err)
		}
	}
	if err := s.reopen(); err != nil {
		return nil, err
	}
	return f, nil
}

// reopen makes s.repo see objects that another go-git repository wrote
// into new packs: go-git reads the list of packs once.
func (s *Store) reopen() error {
	repo, err := openRepo(s.dir)
	if err != nil {
		return fmt.Errorf("reopen %s: %w", s.dir, err)
	}
	s.mu.Lock()
	old := s.repo
	s.repo = repo
	s.mu.Unlock()
	closeRepo(old)
	return nil
}

// closeRepo closes the packs a repository opened with openRepo keeps open.
func closeRepo(r *git.Repository) {
	if c, ok := r.Storer.(interface{ Close() error }); ok {
		c.Close()
	}
}

// netError makes transport errors say what the user can do.
func netError(err error) error {
	switch {
	case errors.Is(err, transport.ErrAuthenticationRequired):
		return fmt.Errorf("%w: the remote wants credentials (for https: set %s, or put a line \"HOST TOKEN\" in .state/%s with mode 600, "+
			"where a line without a host is ignored; tokens are never sent over http://; for ssh: load your key into ssh-agent): %w",
			ErrAuth, TokenEnv, CredentialsFile, err)
	case errors.Is(err, transport.ErrAuthorizationFailed):
		return fmt.Errorf("%w: the remote refused these credentials: %w", ErrAuth, err)
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return fmt.Errorf("no repository there: %w", err)
	case strings.Contains(err.Error(), "unable to authenticate"), strings.Contains(err.Error(), "handshake failed"):
		return fmt.Errorf("%w: %w", ErrAuth, err)
	}
	return err
}

// Problem is a damaged or missing object found by Verify.
type Problem struct {
	Object string `json:"object"`
	Type   string `json:"type"`            // commit, tree or blob
	Kind   string `json:"kind"`            // missing or corrupt
	Path   string `json:"path,omitempty"`  // where a tree or blob was first met
	Fixed  bool   `json:"fixed,omitempty"` // Repair brought it back
}

// VerifyResult is what Verify found.
type VerifyResult struct {
	Objects  int       `json:"objects"` // objects read and checked
	Problems []Problem `json:"problems"`
}

// Verify reads every object reachable from the branches and tags, checks
// that its content hashes to its name, and reports those that are missing
// or corrupt, as git fsck does for connectivity and hashes.
func (s *Store) Verify(ctx context.Context) (*VerifyResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	refs, err := s.repo.Storer.IterReferences()
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	var starts []plumbing.Hash
	refs.ForEach(func(r *plumbing.Reference) error {
		n := r.Name()
		if r.Type() == plumbing.HashReference && (n.IsBranch() || n.IsTag()) {
			starts = append(starts, r.Hash())
		}
		return nil
	})
	v := &verifier{s: s, seen: map[plumbing.Hash]bool{}, res: &VerifyResult{}}
	for _, h := range starts {
		if err := v.commit(ctx, h); err != nil {
			return nil, err
		}
	}
	return v.res, nil
}

type verifier struct {
	s    *Store
	seen map[plumbing.Hash]bool
	res  *VerifyResult
}

// read returns an object's content when its hash checks out; ok is false
// (and the problem recorded) otherwise.
func (v *verifier) read(h plumbing.Hash, t plumbing.ObjectType, where string) ([]byte, bool) {
	v.res.Objects++
	o, err := v.s.repo.Storer.EncodedObject(plumbing.AnyObject, h)
	kind := "corrupt"
	var data []byte
	if err == nil {
		var r io.ReadCloser
		if r, err = o.Reader(); err == nil {
			data, err = io.ReadAll(r)
			r.Close()
		}
		if err == nil && (o.Type() != t || hashObject(t, data) != h) {
			err = errors.New("hash mismatch")
		}
	} else if errors.Is(err, plumbing.ErrObjectNotFound) {
		kind = "missing"
	}
	if err != nil {
		v.res.Problems = append(v.res.Problems, Problem{Object: h.String(), Type: t.String(), Kind: kind, Path: where})
		return nil, false
	}
	return data, true
}

func (v *verifier) commit(ctx context.Context, h plumbing.Hash) error {
	stack := []plumbing.Hash{h}
	for len(stack) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v.seen[h] {
			continue
		}
		v.seen[h] = true
		data, ok := v.read(h, plumbing.CommitObject, "")
		if !ok {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if line == "" {
				break
			}
			k, val, _ := strings.Cut(line, " ")
			switch k {
			case "tree":
				v.tree(plumbing.NewHash(val), "")
			case "parent":
				stack = append(stack, plumbing.NewHash(val))
			}
		}
	}
	return nil
}

func (v *verifier) tree(h plumbing.Hash, prefix string) {
	if v.seen[h] {
		return
	}
	v.seen[h] = true
	data, ok := v.read(h, plumbing.TreeObject, strings.TrimSuffix(prefix, "/"))
	if !ok {
		return
	}
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || nul+21 > len(data) {
			v.res.Problems = append(v.res.Problems, Problem{Object: h.String(), Type: "tree", Kind: "corrupt", Path: prefix})
			return
		}
		mode, name := string(data[:sp]), string(data[sp+1:nul])
		var eh plumbing.Hash
		copy(eh[:], data[nul+1:nul+21])
		data = data[nul+21:]
		switch mode {
		case "40000":
			v.tree(eh, prefix+name+"/")
		case "160000":
		default:
			if !v.seen[eh] {
				v.seen[eh] = true
				v.read(eh, plumbing.BlobObject, prefix+name)
			}
		}
	}
}

// Repair brings back the objects of problems from a remote: it clones
// the remote into a temporary bare repository under the state folder and
// copies each object it has, after moving a corrupt loose object aside
// (into .state/corrupt/). It marks the problems it fixed. The caller
// holds the lock.
func (s *Store) Repair(ctx context.Context, remote string, problems []Problem, getenv func(string) string) (int, error) {
	r, err := s.Remote(remote)
	if err != nil {
		return 0, err
	}
	auth, err := s.auth(r.URL, getenv)
	if err != nil {
		return 0, scrub(err, r.URL)
	}
	tmp, err := os.MkdirTemp(s.state, "repair-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	src, err := git.PlainCloneContext(ctx, tmp, true, &git.CloneOptions{URL: r.URL, Auth: auth, Tags: git.AllTags})
	if err != nil {
		return 0, fmt.Errorf("repair from %s (%s): %w", remote, Redact(r.URL), scrub(netError(err), r.URL))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := newObjectWriter(s.gitDir, nil)
	fixed := 0
	for i := range problems {
		p := &problems[i]
		h := plumbing.NewHash(p.Object)
		o, err := src.Storer.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			continue
		}
		rd, err := o.Reader()
		if err != nil {
			continue
		}
		data, err := io.ReadAll(rd)
		rd.Close()
		if err != nil || hashObject(o.Type(), data) != h {
			continue
		}
		loose := filepath.Join(s.gitDir, "objects", p.Object[:2], p.Object[2:])
		if _, err := os.Stat(loose); err == nil {
			aside := filepath.Join(s.state, "corrupt", p.Object)
			os.MkdirAll(filepath.Dir(aside), 0o700)
			if err := os.Rename(loose, aside); err != nil {
				return fixed, fmt.Errorf("repair: move corrupt %s aside: %w", p.Object, err)
			}
		}
		if _, err := w.write(o.Type(), data); err != nil {
			return fixed, fmt.Errorf("repair: %w", err)
		}
		p.Fixed = true
		fixed++
	}
	if err := w.flush(); err != nil {
		return fixed, fmt.Errorf("repair: %w", err)
	}
	repo, err := openRepo(s.dir)
	if err == nil {
		closeRepo(s.repo)
		s.repo = repo
	}
	return fixed, nil
}

// openRepo opens the repository in dir with go-git, through a storage that
// sees packs written after it was opened. go-git reads the list of packs
// once; another process (cairn sync, git pull, git gc) may add a pack
// holding objects that HEAD now needs, and a long-running Store (the
// daemon's) would not find them.
func openRepo(dir string) (*git.Repository, error) {
	gitDir := filepath.Join(dir, ".git")
	// Packs stay open: without that go-git opens the pack file again for
	// every object it reads from it (a merge reads thousands).
	st := filesystem.NewStorageWithOptions(osfs.New(gitDir), objcache.NewObjectLRUDefault(), filesystem.Options{KeepDescriptors: true})
	return git.Open(&packAware{Storage: st, packDir: filepath.Join(gitDir, "objects", "pack")}, osfs.New(dir))
}

// packAware looks again at the packs when an object is not found and the
// pack folder changed since it last looked.
type packAware struct {
	*filesystem.Storage
	packDir string
	mu      sync.Mutex
	seen    time.Time // the pack folder's mtime when the packs were listed
}

func (p *packAware) refresh() bool {
	fi, err := os.Stat(p.packDir)
	if err != nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if fi.ModTime().Equal(p.seen) {
		return false
	}
	p.seen = fi.ModTime()
	p.Storage.Reindex()
	return true
}

func (p *packAware) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, err := p.Storage.EncodedObject(t, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) && p.refresh() {
		o, err = p.Storage.EncodedObject(t, h)
	}
	return o, err
}

func (p *packAware) HasEncodedObject(h plumbing.Hash) error {
	err := p.Storage.HasEncodedObject(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) && p.refresh() {
		err = p.Storage.HasEncodedObject(h)
	}
	return err
}
