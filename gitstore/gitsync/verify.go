package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

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

// Verify reads every object of s reachable from the branches and tags,
// checks that its content hashes to its name, and reports those that are
// missing or corrupt, as git fsck does for connectivity and hashes.
func Verify(ctx context.Context, s *gitstore.Store) (*VerifyResult, error) {
	var res *VerifyResult
	err := s.WithRepo(func(r *git.Repository) (err error) {
		res, err = verify(ctx, r)
		return err
	})
	return res, err
}

func verify(ctx context.Context, repo *git.Repository) (*VerifyResult, error) {
	refs, err := repo.Storer.IterReferences()
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
	v := &verifier{repo: repo, seen: map[plumbing.Hash]bool{}, res: &VerifyResult{}}
	for _, h := range starts {
		if err := v.commit(ctx, h); err != nil {
			return nil, err
		}
	}
	return v.res, nil
}

type verifier struct {
	repo *git.Repository
	seen map[plumbing.Hash]bool
	res  *VerifyResult
}

// read returns an object's content when its hash checks out; ok is false
// (and the problem recorded) otherwise.
func (v *verifier) read(h plumbing.Hash, t plumbing.ObjectType, where string) ([]byte, bool) {
	v.res.Objects++
	o, err := v.repo.Storer.EncodedObject(plumbing.AnyObject, h)
	kind := "corrupt"
	var data []byte
	if err == nil {
		var r io.ReadCloser
		if r, err = o.Reader(); err == nil {
			data, err = io.ReadAll(r)
			r.Close()
		}
		if err == nil && (o.Type() != t || plumbing.ComputeHash(t, data) != h) {
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
func Repair(ctx context.Context, s *gitstore.Store, remote string, problems []Problem, getenv func(string) string) (int, error) {
	r, err := LookupRemote(s, remote)
	if err != nil {
		return 0, err
	}
	auth, err := auth(s, r.URL, getenv)
	if err != nil {
		return 0, scrub(err, r.URL)
	}
	tmp, err := os.MkdirTemp(s.StatePath(""), "repair-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	src, err := git.PlainCloneContext(ctx, tmp, true, &git.CloneOptions{URL: r.URL, Auth: auth, Tags: git.AllTags})
	if err != nil {
		return 0, fmt.Errorf("repair from %s (%s): %w", remote, Redact(r.URL), scrub(netError(err), r.URL))
	}
	w := s.NewObjectWriter(true)
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
		if err != nil || plumbing.ComputeHash(o.Type(), data) != h {
			continue
		}
		loose := filepath.Join(s.Dir(), ".git", "objects", p.Object[:2], p.Object[2:])
		if _, err := os.Stat(loose); err == nil {
			aside := s.StatePath(filepath.Join("corrupt", p.Object))
			os.MkdirAll(filepath.Dir(aside), 0o700)
			if err := os.Rename(loose, aside); err != nil {
				return fixed, fmt.Errorf("repair: move corrupt %s aside: %w", p.Object, err)
			}
		}
		if _, err := w.Write(o.Type(), data); err != nil {
			return fixed, fmt.Errorf("repair: %w", err)
		}
		p.Fixed = true
		fixed++
	}
	if err := w.Flush(); err != nil {
		return fixed, fmt.Errorf("repair: %w", err)
	}
	// A fresh go-git repository forgets what it read of the damaged
	// objects. The repair stands whether or not that works: the next Open
	// sees it.
	_ = s.Reopen()
	return fixed, nil
}
