package gitstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/gitstore/gitpath"
	"github.com/cairn-mem/cairn/gitstore/internal/commitenc"
	"github.com/cairn-mem/cairn/gitstore/internal/loose"
	"github.com/cairn-mem/cairn/gitstore/internal/refs"
	"github.com/cairn-mem/cairn/gitstore/internal/statcache"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Trailer is a "Key: value" line at the end of a commit message.
type Trailer = commitenc.Trailer

// CheckpointOptions say what a checkpoint commits and how it is described.
type CheckpointOptions struct {
	// Subject is the commit's first line; empty means one is made from the
	// changes.
	Subject string
	Body    string
	// Trailers end the message, in order.
	Trailers []Trailer
	// Paths limits the checkpoint to these repository paths (files or
	// folders); nil means the whole work tree, hand edits included.
	Paths []string
	// Tag names the new checkpoint (a git tag).
	Tag string
	// AllowEmpty commits even when nothing changed.
	AllowEmpty bool
	// Rehash reads every file under Paths again whatever its stat data
	// says: the Filter changed, so their blobs may have.
	Rehash bool
}

// Checkpoint is a commit made by Store.Checkpoint.
type Checkpoint struct {
	Hash    string
	Subject string
	Changes []FileChange
}

// Checkpoint commits what changed in the work tree as one commit on the
// current branch, and returns ErrNothingToDo when nothing did. The caller
// holds the lock.
func (s *Store) Checkpoint(ctx context.Context, opts CheckpointOptions) (*Checkpoint, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock == nil {
		return nil, errors.New("checkpoint: the write lock is not held")
	}
	// The stat data the scan records is as of now: entries are racy
	// against this time, not the end of the checkpoint, which may come
	// seconds later for a large one.
	start := s.now()
	branch, parent, err := s.objs.head()
	if err != nil {
		return nil, err
	}
	c, err := s.index.load(ctx, parent)
	if err != nil {
		return nil, err
	}
	roots, err := gitpath.CleanAll(opts.Paths)
	if err != nil {
		return nil, err
	}
	if opts.Paths != nil && len(roots) == 0 && !opts.AllowEmpty {
		return nil, ErrNothingToDo
	}
	if opts.Paths != nil && len(roots) == 0 {
		roots = nil
	}
	if opts.Rehash && opts.Paths != nil {
		for i := range c.Entries {
			if slices.ContainsFunc(roots, func(r string) bool { return gitpath.UnderPrefix(c.Entries[i].Path, r) }) {
				c.Entries[i].Stat = statcache.Stat{}
			}
		}
	}
	token := ""
	if opts.Paths == nil {
		var all bool
		token, roots, all = s.wt.monitorRoots(c)
		if !all && len(roots) == 0 {
			roots = nil
			opts.Paths = []string{} // nothing can have changed
		}
	}
	var changes []change
	var refreshed bool
	if opts.Paths == nil || len(roots) > 0 {
		changes, refreshed, err = s.wt.scan(ctx, c, roots, keepBlobs)
		if err != nil {
			return nil, fmt.Errorf("checkpoint %s: %w", s.dir, err)
		}
	}
	if token != c.Monitor {
		c.Monitor = token
		s.index.dirty = true
	}
	if len(changes) == 0 && !opts.AllowEmpty {
		if refreshed {
			smudgeUnseen(c, opts.Paths)
			c.Written = start.UnixNano()
			s.index.dirty = true
		}
		return nil, ErrNothingToDo
	}

	w := loose.NewWriter(s.gitDir, s.objs.has)
	for i := range changes {
		ch := &changes[i]
		if ch.Action == Deleted {
			continue
		}
		// The blob is what scan hashed, when it kept the bytes: the entry's
		// hash is theirs, and a later edit changes the stat data (or is
		// racy, and hashed again). Otherwise the file is read again.
		data := ch.data
		if data == nil {
			var err error
			if data, err = s.wt.read(ch.Path, ch.e.Mode); err != nil {
				return nil, fmt.Errorf("checkpoint: read %s: %w", ch.Path, err)
			}
			// The file may have changed since it was hashed; commit what
			// is read now and keep stat data that says "look again".
			if h := loose.Hash(plumbing.BlobObject, data); h != ch.e.Hash {
				ch.e.Hash = h
				ch.e.Stat = statcache.Stat{}
			}
		}
		if _, err := w.Write(plumbing.BlobObject, data); err != nil {
			return nil, fmt.Errorf("checkpoint: %w", err)
		}
	}
	var baseTree plumbing.Hash
	if !parent.IsZero() {
		pc, err := object.GetCommit(s.objs.repo.Storer, parent)
		if err != nil {
			return nil, fmt.Errorf("checkpoint: read commit %s: %w", parent, err)
		}
		baseTree = pc.TreeHash
	}
	tb := &treeBuilder{s: s, w: w}
	tree, _, err := tb.build(baseTree, "", changes)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	if tree == baseTree && !opts.AllowEmpty {
		return nil, ErrNothingToDo
	}
	fcs := make([]FileChange, len(changes))
	for i := range changes {
		fcs[i] = changes[i].FileChange
	}
	subject := opts.Subject
	if subject == "" {
		subject = DefaultSubject(fcs)
	}
	msg := commitenc.Message(subject, opts.Body, opts.Trailers)
	now := s.now()
	var parents []plumbing.Hash
	if !parent.IsZero() {
		parents = []plumbing.Hash{parent}
	}
	commit, err := w.Write(plumbing.CommitObject, commitenc.Commit(tree, parents, s.ident.Name, s.ident.Email, now, msg))
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	if err := w.Flush(); err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	if err := s.updateRef(branch, parent, commit, "commit: "+subject, now); err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	if opts.Tag != "" {
		if err := s.setTag(opts.Tag, commit, now); err != nil {
			return &Checkpoint{Hash: commit.String(), Subject: subject, Changes: fcs}, err
		}
	}
	smudgeUnseen(c, opts.Paths)
	applyChanges(c, changes)
	c.Head = commit
	c.Written = start.UnixNano()
	s.index.dirty = true
	return &Checkpoint{Hash: commit.String(), Subject: subject, Changes: fcs}, nil
}

// Status reports what a checkpoint of the whole work tree would commit.
func (s *Store) Status(ctx context.Context) ([]FileChange, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, parent, err := s.objs.head()
	if err != nil {
		return nil, err
	}
	c, err := s.index.load(ctx, parent)
	if err != nil {
		return nil, err
	}
	changes, err := s.wt.changes(ctx, c, nil)
	if err != nil {
		return nil, fmt.Errorf("status %s: %w", s.dir, err)
	}
	out := make([]FileChange, len(changes))
	for i := range changes {
		out[i] = changes[i].FileChange
	}
	return out, nil
}

// DefaultSubject describes a set of changes in one line.
func DefaultSubject(fcs []FileChange) string {
	if len(fcs) == 0 {
		return "checkpoint: no changes"
	}
	n := map[Action]int{}
	for _, f := range fcs {
		n[f.Action]++
	}
	var parts []string
	for _, a := range []Action{Added, Modified, Deleted} {
		if n[a] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[a], a))
		}
	}
	subj := "checkpoint: " + strings.Join(parts, ", ")
	if len(fcs) == 1 {
		subj += " (" + fcs[0].Path + ")"
	}
	return subj
}

// Head returns the branch HEAD points at and the commit it names (zero
// before the first commit).
func (s *Store) Head() (plumbing.ReferenceName, plumbing.Hash, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.objs.head()
}

// treeBuilder writes the trees of a new commit: the base commit's trees
// with the changed paths replaced. Unchanged subtrees are reused by hash
// and never read.
type treeBuilder struct {
	s *Store
	w *loose.Writer
}

type treeEntry struct {
	name string
	mode filemode.FileMode
	hash plumbing.Hash
}

// build returns the tree made from base with changes (paths relative to
// this tree) applied, and whether it is empty.
func (b *treeBuilder) build(base plumbing.Hash, prefix string, changes []change) (plumbing.Hash, bool, error) {
	entries := map[string]treeEntry{}
	if !base.IsZero() {
		t, err := object.GetTree(b.s.objs.repo.Storer, base)
		if err != nil {
			return plumbing.ZeroHash, false, fmt.Errorf("read tree %s (%s): %w", base, prefix, err)
		}
		for _, e := range t.Entries {
			entries[e.Name] = treeEntry{e.Name, e.Mode, e.Hash}
		}
	}
	for i := 0; i < len(changes); {
		rel := strings.TrimPrefix(changes[i].Path, prefix)
		name, _, isDir := strings.Cut(rel, "/")
		if !isDir {
			ch := changes[i]
			if ch.Action == Deleted {
				if e, ok := entries[name]; ok && e.mode != filemode.Dir {
					delete(entries, name)
				}
			} else {
				entries[name] = treeEntry{name, filemode.FileMode(ch.e.Mode), ch.e.Hash}
			}
			i++
			continue
		}

		sub := prefix + name + "/"
		j := i
		for j < len(changes) && strings.HasPrefix(changes[j].Path, sub) {
			j++
		}
		var subBase plumbing.Hash
		if e, ok := entries[name]; ok && e.mode == filemode.Dir {
			subBase = e.hash
		}
		h, empty, err := b.build(subBase, sub, changes[i:j])
		if err != nil {
			return plumbing.ZeroHash, false, err
		}
		if empty {
			if e, ok := entries[name]; ok && e.mode == filemode.Dir {
				delete(entries, name)
			}
		} else {
			entries[name] = treeEntry{name, filemode.Dir, h}
		}
		i = j
	}
	if len(entries) == 0 {
		return plumbing.ZeroHash, true, nil
	}
	list := make([]treeEntry, 0, len(entries))
	for _, e := range entries {
		list = append(list, e)
	}
	sort.Slice(list, func(i, j int) bool { return treeKey(list[i]) < treeKey(list[j]) })
	size := 0
	for _, e := range list {
		size += len(e.name) + 28
	}
	buf := make([]byte, 0, size)
	for _, e := range list {
		buf = strconv.AppendUint(buf, uint64(e.mode), 8)
		buf = append(buf, ' ')
		buf = append(buf, e.name...)
		buf = append(buf, 0)
		buf = append(buf, e.hash[:]...)
	}
	h, err := b.w.Write(plumbing.TreeObject, buf)
	return h, false, err
}

// treeKey orders tree entries as git does: a folder sorts as if its name
// ended in a slash.
func treeKey(e treeEntry) string {
	if e.mode == filemode.Dir {
		return e.name + "/"
	}
	return e.name
}

// updateRef moves ref from old to new the way git does (refs.Update),
// with a reflog line naming the store's identity, t and msg.
func (s *Store) updateRef(ref plumbing.ReferenceName, old, new plumbing.Hash, msg string, t time.Time) error {
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, new, s.ident.Name, s.ident.Email, t.Unix(), t.Format("-0700"), msg)
	return refs.Update(s.gitDir, s.objs.repo.Storer, ref, old, new, line)
}

// smudgeUnseen readies c for its Written to move on after a checkpoint
// of paths. A whole-tree scan hashed every racy entry, and a Monitor
// reports any later change; a checkpoint of known paths looked at no
// other file, so an entry racy until now must stay so.
func smudgeUnseen(c *statcache.Cache, paths []string) {
	if paths != nil {
		c.SmudgeRacy()
	}
}

// applyChanges folds committed changes (sorted by path) into the cache.
// A few changes are applied in place, by binary search: copying 100,000
// entries per checkpoint would make its cost grow with the repository.
func applyChanges(c *statcache.Cache, changes []change) {
	if len(changes) <= 64 {
		for _, ch := range changes {
			i, found := c.Find(ch.Path)
			switch {
			case ch.Action == Deleted && found:
				c.Entries = slices.Delete(c.Entries, i, i+1)
			case ch.Action == Deleted:
			case found:
				c.Entries[i] = ch.e
			default:
				c.Entries = slices.Insert(c.Entries, i, ch.e)
			}
		}
		return
	}
	out := make([]statcache.Entry, 0, len(c.Entries)+len(changes))
	i := 0
	for _, ch := range changes {
		for i < len(c.Entries) && c.Entries[i].Path < ch.Path {
			out = append(out, c.Entries[i])
			i++
		}
		if i < len(c.Entries) && c.Entries[i].Path == ch.Path {
			i++
		}
		if ch.Action != Deleted {
			out = append(out, ch.e)
		}
	}
	c.Entries = append(out, c.Entries[i:]...)
}

func sortChanges(cs []change) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].Path < cs[j].Path })
}

func sortEntries(es []statcache.Entry) {
	sort.Slice(es, func(i, j int) bool { return es[i].Path < es[j].Path })
}
