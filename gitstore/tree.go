package gitstore

import (
	"context"
	"fmt"
	"io/fs"

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
	cm, err := s.objs.commit(rev)
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
	t, err := object.GetTree(s.objs.repo.Storer, h)
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
	if n, ok := s.objs.looseSize(id); ok {
		return n, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sz, ok := s.objs.repo.Storer.(interface {
		EncodedObjectSize(plumbing.Hash) (int64, error)
	}); ok {
		n, err := sz.EncodedObjectSize(h)
		if err != nil {
			return 0, fmt.Errorf("size of blob %s: %w", short(h), err)
		}
		return n, nil
	}
	o, err := s.objs.repo.Storer.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return 0, fmt.Errorf("size of blob %s: %w", short(h), err)
	}
	return o.Size(), nil
}

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
	return s.objs.blob(h)
}

// FileSizeAt returns the size of the file at path p in the commit rev
// names, from its object's header, without reading the file. The error
// wraps ErrNotFound when the commit has no such file.
func (s *Store) FileSizeAt(ctx context.Context, rev, p string) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	h, err := s.objs.resolve(rev)
	var b plumbing.Hash
	if err == nil {
		b, _, err = s.objs.blobAt(h, p)
	}
	s.mu.Unlock()
	if err != nil {
		return 0, err
	}
	if b.IsZero() {
		return 0, fmt.Errorf("%s at %s: %w", p, short(h), ErrNotFound)
	}
	return s.BlobSize(ctx, b.String())
}

// ReadFileAt returns the content of the file at path p in the commit rev
// names, decrypted where the Filter can. The error wraps ErrNotFound
// when the commit has no such file.
func (s *Store) ReadFileAt(ctx context.Context, rev, p string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	h, err := s.objs.resolve(rev)
	if err != nil {
		return nil, err
	}
	b, _, err := s.objs.blobAt(h, p)
	if err != nil {
		return nil, err
	}
	if b.IsZero() {
		return nil, fmt.Errorf("%s at %s: %w", p, short(h), ErrNotFound)
	}
	data, err := s.objs.blob(b)
	if err != nil {
		return nil, err
	}
	// What cannot be decrypted here reads as stored, as the work tree
	// holds it.
	if out, err := s.wt.smudge(p, data); err == nil {
		data = out
	}
	return data, nil
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
	if r, ok := s.objs.repo.Storer.(interface{ Reindex() }); ok {
		r.Reindex()
	}
}
