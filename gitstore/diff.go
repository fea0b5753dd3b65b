package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/merkletrie"
)

// DiffOptions choose what Diff compares.
type DiffOptions struct {
	// From is the old side; empty means HEAD.
	From string
	// To is the new side; empty means the work tree.
	To string
	// Paths limits the diff to these repository paths (files or folders).
	Paths []string
}

// FileDiff is one changed file with both of its contents.
type FileDiff struct {
	Path     string
	Action   Action
	Old, New []byte
	oldHash  plumbing.Hash
	newHash  plumbing.Hash
	oldMode  filemode.FileMode
	newMode  filemode.FileMode
}

// Binary reports whether either side looks like binary data.
func (d *FileDiff) Binary() bool {
	return bytes.IndexByte(d.Old, 0) >= 0 || bytes.IndexByte(d.New, 0) >= 0
}

// OldBlob returns the old side's blob id and mode, which a patch's index
// line shows; a zero id means the file was not there.
func (d *FileDiff) OldBlob() (plumbing.Hash, filemode.FileMode) { return d.oldHash, d.oldMode }

// NewBlob returns the new side's blob id and mode; a zero id means the
// file is not there.
func (d *FileDiff) NewBlob() (plumbing.Hash, filemode.FileMode) { return d.newHash, d.newMode }

// Diff compares two checkpoints, or a checkpoint and the work tree.
func (s *Store) Diff(ctx context.Context, opts DiffOptions) ([]FileDiff, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	roots, err := cleanPaths(opts.Paths)
	if err != nil {
		return nil, err
	}
	from, err := s.resolveOrZero(opts.From)
	if err != nil {
		return nil, err
	}
	var out []FileDiff
	if opts.To == "" {
		_, head, err := s.head()
		if err != nil {
			return nil, err
		}
		c, err := s.loadCache(ctx, head)
		if err != nil {
			return nil, err
		}
		// The work tree's changes are against HEAD; against another commit
		// they are HEAD's diff from it plus the work tree's own.
		if from != head {
			fcs, err := s.diffTrees(ctx, from, head, roots)
			if err != nil {
				return nil, err
			}
			for _, fc := range fcs {
				out = append(out, FileDiff{Path: fc.Path, Action: fc.Action})
			}
		}
		changes, err := s.worktreeChanges(ctx, c, roots)
		if err != nil {
			return nil, err
		}
		for _, ch := range changes {
			out = append(out, FileDiff{Path: ch.Path, Action: ch.Action})
		}
		out = dedupeDiffs(out)
		for i := range out {
			d := &out[i]
			if d.oldHash, d.oldMode, err = s.blobAt(from, d.Path); err != nil {
				return nil, err
			}
			if d.Old, err = s.readBlob(d.oldHash); err != nil {
				return nil, err
			}
			var e *entry
			if i, ok := c.find(d.Path); ok {
				e = &c.entries[i]
			}
			if d.New, d.newMode = s.worktreeSide(d.Path, e); d.New != nil {
				d.newHash = hashObject(plumbing.BlobObject, d.New)
			}
			d.Action = actionOf(d.oldHash, d.newHash)
		}
		return dropUnchanged(out), nil
	}
	to, err := s.resolve(opts.To)
	if err != nil {
		return nil, err
	}
	fcs, err := s.diffTrees(ctx, from, to, roots)
	if err != nil {
		return nil, err
	}
	for _, fc := range fcs {
		d := FileDiff{Path: fc.Path, Action: fc.Action}
		if d.oldHash, d.oldMode, err = s.blobAt(from, d.Path); err != nil {
			return nil, err
		}
		if d.newHash, d.newMode, err = s.blobAt(to, d.Path); err != nil {
			return nil, err
		}
		if d.Old, err = s.readBlob(d.oldHash); err != nil {
			return nil, err
		}
		if d.New, err = s.readBlob(d.newHash); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// worktreeSide reads a file for a diff; nil means it is not there.
func (s *Store) worktreeSide(p string, e *entry) ([]byte, filemode.FileMode) {
	mode := uint32(0o100644)
	if e != nil {
		mode = e.mode
	}
	data, err := s.readWorktree(p, mode)
	if err != nil {
		return nil, 0
	}
	return data, filemode.FileMode(mode)
}

func actionOf(old, new plumbing.Hash) Action {
	switch {
	case old.IsZero():
		return Added
	case new.IsZero():
		return Deleted
	}
	return Modified
}

func dedupeDiffs(ds []FileDiff) []FileDiff {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].Path < ds[j].Path })
	out := ds[:0]
	for _, d := range ds {
		if len(out) > 0 && out[len(out)-1].Path == d.Path {
			continue
		}
		out = append(out, d)
	}
	return out
}

func dropUnchanged(ds []FileDiff) []FileDiff {
	out := ds[:0]
	for _, d := range ds {
		if d.oldHash != d.newHash || d.oldMode != d.newMode && !d.newHash.IsZero() {
			out = append(out, d)
		}
	}
	return out
}

func (s *Store) resolveOrZero(rev string) (plumbing.Hash, error) {
	if rev == "" {
		_, h, err := s.head()
		return h, err
	}
	return s.resolve(rev)
}

// blobAt finds path in commit; a zero hash means it is not there.
func (s *Store) blobAt(commit plumbing.Hash, p string) (plumbing.Hash, filemode.FileMode, error) {
	if commit.IsZero() {
		return plumbing.ZeroHash, 0, nil
	}
	t, err := s.treeOf(commit)
	if err != nil {
		return plumbing.ZeroHash, 0, err
	}
	e, err := t.FindEntry(p)
	if err != nil || e.Mode == filemode.Dir {
		return plumbing.ZeroHash, 0, nil
	}
	return e.Hash, e.Mode, nil
}

func (s *Store) readBlob(h plumbing.Hash) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	b, err := s.repo.BlobObject(h)
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

// diffTrees lists the files that differ between two commits, limited to
// roots.
func (s *Store) diffTrees(ctx context.Context, from, to plumbing.Hash, roots []string) ([]FileChange, error) {
	a, err := s.treeOf(from)
	if err != nil {
		return nil, err
	}
	b, err := s.treeOf(to)
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
			if underPrefix(p, r) {
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
