package gitstore

import (
	"bytes"
	"context"
	"sort"

	"github.com/cairn-mem/cairn/gitstore/gitpath"
	"github.com/cairn-mem/cairn/gitstore/internal/loose"
	"github.com/cairn-mem/cairn/gitstore/internal/statcache"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
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
	roots, err := gitpath.CleanAll(opts.Paths)
	if err != nil {
		return nil, err
	}
	from, err := s.objs.resolveOrHead(opts.From)
	if err != nil {
		return nil, err
	}
	var out []FileDiff
	if opts.To == "" {
		_, head, err := s.objs.head()
		if err != nil {
			return nil, err
		}
		c, err := s.index.load(ctx, head)
		if err != nil {
			return nil, err
		}
		// The work tree's changes are against HEAD; against another commit
		// they are HEAD's diff from it plus the work tree's own.
		if from != head {
			fcs, err := s.objs.diffTrees(ctx, from, head, roots)
			if err != nil {
				return nil, err
			}
			for _, fc := range fcs {
				out = append(out, FileDiff{Path: fc.Path, Action: fc.Action})
			}
		}
		changes, err := s.wt.changes(ctx, c, roots)
		if err != nil {
			return nil, err
		}
		for _, ch := range changes {
			out = append(out, FileDiff{Path: ch.Path, Action: ch.Action})
		}
		out = dedupeDiffs(out)
		for i := range out {
			d := &out[i]
			if d.oldHash, d.oldMode, err = s.objs.blobAt(from, d.Path); err != nil {
				return nil, err
			}
			if d.Old, err = s.objs.blob(d.oldHash); err != nil {
				return nil, err
			}
			var e *statcache.Entry
			if i, ok := c.Find(d.Path); ok {
				e = &c.Entries[i]
			}
			if d.New, d.newMode = s.wt.side(d.Path, e); d.New != nil {
				d.newHash = loose.Hash(plumbing.BlobObject, d.New)
			}
			d.Action = actionOf(d.oldHash, d.newHash)
		}
		return s.wt.plainDiffs(dropUnchanged(out)), nil
	}
	to, err := s.objs.resolve(opts.To)
	if err != nil {
		return nil, err
	}
	fcs, err := s.objs.diffTrees(ctx, from, to, roots)
	if err != nil {
		return nil, err
	}
	for _, fc := range fcs {
		d := FileDiff{Path: fc.Path, Action: fc.Action}
		if d.oldHash, d.oldMode, err = s.objs.blobAt(from, d.Path); err != nil {
			return nil, err
		}
		if d.newHash, d.newMode, err = s.objs.blobAt(to, d.Path); err != nil {
			return nil, err
		}
		if d.Old, err = s.objs.blob(d.oldHash); err != nil {
			return nil, err
		}
		if d.New, err = s.objs.blob(d.newHash); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return s.wt.plainDiffs(out), nil
}

// side reads a file for a diff; nil means it is not there.
func (wt *worktree) side(p string, e *statcache.Entry) ([]byte, filemode.FileMode) {
	mode := uint32(0o100644)
	if e != nil {
		mode = e.Mode
	}
	data, err := wt.read(p, mode)
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
