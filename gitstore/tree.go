package gitstore

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// TreeEntry is one name in a tree of the history.
type TreeEntry struct {
	Name string
	// Mode is fs.ModeDir for a tree, fs.ModeSymlink for a link, and a
	// regular file's permissions (0644 or 0755) otherwise.
	Mode fs.FileMode
	Hash string // the tree's or blob's object id
}

// TreeOf returns the id of the root tree of the commit rev names.
func (s *Store) TreeOf(ctx context.Context, rev string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cm, err := s.commitAt(rev)
	if err != nil {
		return "", err
	}
	return cm.TreeHash.String(), nil
}

// Tree lists the tree with the given object id, in git's order.
// Submodules are left out: they have no content here.
func (s *Store) Tree(ctx context.Context, id string) ([]TreeEntry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	h, err := objectID(id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, err := object.GetTree(s.repo.Storer, h)
	if err != nil {
		return nil, fmt.Errorf("read tree %s: %w", short(h), err)
	}
	out := make([]TreeEntry, 0, len(t.Entries))
	for _, e := range t.Entries {
		var m fs.FileMode
		switch e.Mode {
		case filemode.Dir:
			m = fs.ModeDir | 0o755
		case filemode.Symlink:
			m = fs.ModeSymlink | 0o777
		case filemode.Executable:
			m = 0o755
		case filemode.Regular, filemode.Deprecated:
			m = 0o644
		default:
			continue
		}
		out = append(out, TreeEntry{Name: e.Name, Mode: m, Hash: e.Hash.String()})
	}
	return out, nil
}

// BlobSize returns the size of the blob with the given object id without
// reading its content where the object store allows. It is safe to call
// concurrently with itself: a loose object's header is read straight from
// its file, without go-git (which costs several times more per object).
func (s *Store) BlobSize(ctx context.Context, id string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	h, err := objectID(id)
	if err != nil {
		return 0, err
	}
	if n, ok := s.looseSize(id); ok {
		return n, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sz, ok := s.repo.Storer.(interface {
		EncodedObjectSize(plumbing.Hash) (int64, error)
	}); ok {
		n, err := sz.EncodedObjectSize(h)
		if err != nil {
			return 0, fmt.Errorf("size of blob %s: %w", short(h), err)
		}
		return n, nil
	}
	o, err := s.repo.Storer.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return 0, fmt.Errorf("size of blob %s: %w", short(h), err)
	}
	return o.Size(), nil
}

// looseSize reads the size in a loose object's header.
func (s *Store) looseSize(id string) (int64, bool) {
	f, err := os.Open(filepath.Join(s.gitDir, "objects", id[:2], id[2:]))
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

var zlibPool sync.Pool

// ReadBlob returns the content of the blob with the given object id.
func (s *Store) ReadBlob(ctx context.Context, id string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	h, err := objectID(id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readBlob(h)
}

// ReadFileAt returns the content of the file at path p in the commit rev
// names. The error wraps ErrNotFound when the commit has no such file.
func (s *Store) ReadFileAt(ctx context.Context, rev, p string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h, err := s.resolve(rev)
	if err != nil {
		return nil, err
	}
	b, _, err := s.blobAt(h, p)
	if err != nil {
		return nil, err
	}
	if b.IsZero() {
		return nil, fmt.Errorf("%s at %s: %w", p, short(h), ErrNotFound)
	}
	return s.readBlob(b)
}

func objectID(id string) (plumbing.Hash, error) {
	if len(id) != 40 || !plumbing.IsHash(id) {
		return plumbing.ZeroHash, fmt.Errorf("object id %q: %w", id, ErrUnknownRev)
	}
	return plumbing.NewHash(id), nil
}

// Reload makes the store see objects that another program packed or
// pruned since it last looked (git gc, a sync that rewrote history):
// go-git lists the pack files once and keeps the list.
func (s *Store) Reload() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.repo.Storer.(interface{ Reindex() }); ok {
		r.Reindex()
	}
}
