package gitstore

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-mem/cairn/gitstore/gitpath"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/merkletrie"
)

// objects reads the repository: its objects, and the refs that name
// them. It owns the go-git repository, which is not safe for concurrent
// use, so its methods are called under Store.mu (looseSize, which reads
// files only, excepted). Reopen replaces repo.
type objects struct {
	repo   *git.Repository
	dir    string // the work tree, for messages
	gitDir string
}

// has reports whether the repository holds object h, loose or packed.
func (o *objects) has(h plumbing.Hash) bool {
	return o.repo.Storer.HasEncodedObject(h) == nil
}

// head returns the branch HEAD points at and the commit it names (zero
// before the first commit).
func (o *objects) head() (plumbing.ReferenceName, plumbing.Hash, error) {
	ref, err := o.repo.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", plumbing.ZeroHash, fmt.Errorf("read HEAD of %s: %w", o.dir, err)
	}
	if ref.Type() != plumbing.SymbolicReference {
		return "", plumbing.ZeroHash, fmt.Errorf("HEAD of %s is detached; run git checkout main there", o.dir)
	}
	branch := ref.Target()
	r, err := o.repo.Storer.Reference(branch)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return branch, plumbing.ZeroHash, nil
	}
	if err != nil {
		return "", plumbing.ZeroHash, fmt.Errorf("read %s of %s: %w", branch, o.dir, err)
	}
	return branch, r.Hash(), nil
}

// resolve turns a revision into the commit it names, peeling annotated
// tags.
func (o *objects) resolve(rev string) (plumbing.Hash, error) {
	if rev == "" {
		rev = "HEAD"
	}
	if strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, " \t\n:") {
		return plumbing.ZeroHash, fmt.Errorf("%q: %w", rev, ErrUnknownRev)
	}
	if h, err := o.repo.ResolveRevision(plumbing.Revision(rev)); err == nil {
		if _, err := object.GetCommit(o.repo.Storer, *h); err == nil {
			return *h, nil
		}
		// An annotated tag: peel it.
		if t, err := object.GetTag(o.repo.Storer, *h); err == nil {
			if c, err := t.Commit(); err == nil {
				return c.Hash, nil
			}
		}
	}
	if ref, err := o.repo.Storer.Reference(plumbing.NewTagReferenceName(rev)); err == nil {
		return o.peel(ref.Hash())
	}
	return plumbing.ZeroHash, fmt.Errorf("%q: %w", rev, ErrUnknownRev)
}

// resolveOrHead is resolve, with "" meaning HEAD (zero before the first
// commit) rather than an error.
func (o *objects) resolveOrHead(rev string) (plumbing.Hash, error) {
	if rev == "" {
		_, h, err := o.head()
		return h, err
	}
	return o.resolve(rev)
}

// peel returns the commit an annotated tag points at, or h itself.
func (o *objects) peel(h plumbing.Hash) (plumbing.Hash, error) {
	if t, err := object.GetTag(o.repo.Storer, h); err == nil {
		c, err := t.Commit()
		if err != nil {
			return plumbing.ZeroHash, err
		}
		return c.Hash, nil
	}
	return h, nil
}

// commit reads the commit a revision names.
func (o *objects) commit(rev string) (*object.Commit, error) {
	h, err := o.resolve(rev)
	if err != nil {
		return nil, err
	}
	cm, err := object.GetCommit(o.repo.Storer, h)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", short(h), err)
	}
	return cm, nil
}

// tree reads the root tree of commit; a zero commit has an empty tree.
func (o *objects) tree(commit plumbing.Hash) (*object.Tree, error) {
	if commit.IsZero() {
		return &object.Tree{}, nil
	}
	cm, err := object.GetCommit(o.repo.Storer, commit)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", short(commit), err)
	}
	t, err := cm.Tree()
	if err != nil {
		return nil, fmt.Errorf("read tree of %s: %w", short(commit), err)
	}
	return t, nil
}

// blobAt finds path in commit; a zero hash means it is not there.
func (o *objects) blobAt(commit plumbing.Hash, p string) (plumbing.Hash, filemode.FileMode, error) {
	if commit.IsZero() {
		return plumbing.ZeroHash, 0, nil
	}
	t, err := o.tree(commit)
	if err != nil {
		return plumbing.ZeroHash, 0, err
	}
	e, err := t.FindEntry(p)
	if err != nil || e.Mode == filemode.Dir {
		return plumbing.ZeroHash, 0, nil
	}
	return e.Hash, e.Mode, nil
}

// hasPath reports whether commit has a file or folder at p.
func (o *objects) hasPath(commit [20]byte, p string) bool {
	if commit == [20]byte{} {
		return false
	}
	t, err := o.tree(commit)
	if err != nil {
		return false
	}
	_, err = t.FindEntry(p)
	return err == nil
}

// blob reads a blob; a zero id reads as nil.
func (o *objects) blob(h plumbing.Hash) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	b, err := o.repo.BlobObject(h)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", short(h), err)
	}
	r, err := b.Reader()
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", short(h), err)
	}
	defer r.Close()
	return io.ReadAll(r)
}

// zlibPool keeps looseSize's inflaters for reuse, since BlobSize may be
// called for every file of a listing.
var zlibPool sync.Pool

// looseSize reads the size in a loose object's header.
func (o *objects) looseSize(id string) (int64, bool) {
	f, err := os.Open(filepath.Join(o.gitDir, "objects", id[:2], id[2:]))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var in [64]byte
	n, _ := io.ReadFull(f, in[:])
	zr, _ := zlibPool.Get().(io.ReadCloser)
	if zr == nil {
		if zr, err = zlib.NewReader(bytes.NewReader(in[:n])); err != nil {
			return 0, false
		}
	} else if err := zr.(zlib.Resetter).Reset(bytes.NewReader(in[:n]), nil); err != nil {
		return 0, false
	}
	defer zlibPool.Put(zr)
	var hdr [32]byte
	m, _ := io.ReadFull(zr, hdr[:])
	typ, rest, ok := bytes.Cut(hdr[:m], []byte{' '})
	size, _, ok2 := bytes.Cut(rest, []byte{0})
	if !ok || !ok2 || string(typ) != "blob" {
		return 0, false
	}
	v, err := strconv.ParseInt(string(size), 10, 64)
	return v, err == nil
}

// diffTrees lists the files that differ between two commits, limited to
// roots.
func (o *objects) diffTrees(ctx context.Context, from, to plumbing.Hash, roots []string) ([]FileChange, error) {
	a, err := o.tree(from)
	if err != nil {
		return nil, err
	}
	b, err := o.tree(to)
	if err != nil {
		return nil, err
	}
	changes, err := object.DiffTreeWithOptions(ctx, a, b, nil)
	if err != nil {
		return nil, fmt.Errorf("diff %s %s: %w", short(from), short(to), err)
	}
	var out []FileChange
	add := func(p string, a Action) {
		if len(roots) == 0 {
			out = append(out, FileChange{p, a})
			return
		}
		for _, r := range roots {
			if gitpath.UnderPrefix(p, r) {
				out = append(out, FileChange{p, a})
				return
			}
		}
	}
	for _, ch := range changes {
		action, err := ch.Action()
		if err != nil {
			return nil, err
		}
		switch action {
		case merkletrie.Insert:
			add(ch.To.Name, Added)
		case merkletrie.Delete:
			add(ch.From.Name, Deleted)
		default:
			add(ch.To.Name, Modified)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// tags maps each tagged commit to its tags' names.
func (o *objects) tags() map[plumbing.Hash][]string {
	out := map[plumbing.Hash][]string{}
	iter, err := o.repo.Tags()
	if err != nil {
		return out
	}
	defer iter.Close()
	_ = iter.ForEach(func(r *plumbing.Reference) error {
		h, err := o.peel(r.Hash())
		if err == nil {
			out[h] = append(out[h], r.Name().Short())
		}
		return nil
	})
	return out
}

// short abbreviates an object id for messages, as git does.
func short(h plumbing.Hash) string { return h.String()[:10] }
