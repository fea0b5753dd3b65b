package gitstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/gitstore/gitpath"
	"github.com/cairn-mem/cairn/gitstore/internal/commitenc"
	"github.com/cairn-mem/cairn/gitstore/internal/loose"
	"github.com/cairn-mem/cairn/gitstore/internal/refs"
	"github.com/cairn-mem/cairn/gitstore/internal/statcache"
	"github.com/cairn-mem/cairn/gitstore/internal/treebuild"
	"github.com/go-git/go-git/v5/plumbing"
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
	// Scrub, when not nil, sees the work-tree content of each file the
	// checkpoint finds changed, before the Filter does, and returns what
	// to commit in its place, or nil to commit it as it is. What it
	// returns is written back to the file first, so that the work tree
	// and the commit agree.
	Scrub func(p string, data []byte) []byte
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
		changes, refreshed, err = s.wt.scan(ctx, c, roots, keepBlobs, opts.Scrub)
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
	tree, err := s.buildTree(w, baseTree, changes)
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

// buildTree writes, through w, the tree made of base with changes
// (sorted by path) applied.
func (s *Store) buildTree(w *loose.Writer, base plumbing.Hash, changes []change) (plumbing.Hash, error) {
	tcs := make([]treebuild.Change, len(changes))
	for i, ch := range changes {
		tcs[i] = treebuild.Change{Path: ch.Path, Delete: ch.Action == Deleted, Mode: ch.e.Mode, Hash: ch.e.Hash}
	}
	tb := &treebuild.Builder{Storer: s.objs.repo.Storer, W: w}
	h, _, err := tb.Build(base, "", tcs)
	return h, err
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
