package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/cairn-mem/cairn/gitstore/internal/commitenc"
	"github.com/cairn-mem/cairn/gitstore/internal/loose"
	"github.com/cairn-mem/cairn/gitstore/internal/statcache"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"golang.org/x/sys/unix"
)

// ErrDirty means a file that UpdateBranch would write has changes that
// are not checkpointed: the caller checkpoints first.
var ErrDirty = errors.New("uncommitted change in the way")

// A TreeChange is a FileChange with what the file becomes: the blob and
// mode it takes, none for a deletion.
type TreeChange struct {
	FileChange
	Blob plumbing.Hash
	Mode filemode.FileMode // filemode.Regular or filemode.Executable
}

// changesOf turns TreeChanges into the changes the tree builder, the work
// tree writer and the stat cache take, sorted by path.
func changesOf(tcs []TreeChange) []change {
	out := make([]change, len(tcs))
	for i, tc := range tcs {
		out[i] = change{FileChange: tc.FileChange}
		if tc.Action != Deleted {
			out[i].e = statcache.Entry{Path: tc.Path, Hash: tc.Blob, Mode: uint32(tc.Mode)}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// BuildTree writes, through w, the tree made of the tree base (zero for
// none) with changes applied, and returns its id. Only the trees on the
// paths to the changes are read and written; every other subtree is reused
// by its id. The blobs of changes must be in the repository or written
// through w.
func (s *Store) BuildTree(w *ObjectWriter, base plumbing.Hash, changes []TreeChange) (plumbing.Hash, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buildTree(w.w, base, changesOf(changes))
}

// BranchUpdate is a merge's result, for UpdateBranch to write.
type BranchUpdate struct {
	// Ours is the commit the changes were made against; the branch must
	// still point at it.
	Ours plumbing.Hash
	// Changes turn Ours' tree into the new commit's, and are written to
	// the work tree.
	Changes []TreeChange
	// Head, when not zero, is an existing commit the branch moves to (a
	// fast-forward). Otherwise a commit of Tree with Parents is written,
	// described by Subject, Body and Trailers.
	Head     plumbing.Hash
	Tree     plumbing.Hash
	Parents  []plumbing.Hash
	Subject  string
	Body     string
	Trailers []Trailer
	// Reflog is the reflog's message for the move.
	Reflog string
}

// UpdateBranch moves the current branch as u says, and makes the work
// tree, the stat cache and .git/index follow. A file with changes not yet
// checkpointed that u would overwrite stops it before anything is written
// (ErrDirty). It writes in the order that keeps a crash harmless: the
// commit, then one flush of w (which wrote the new blobs and trees), then
// the work tree, then the branch, so that a process killed in between
// leaves changes the next checkpoint commits, never a branch whose files
// that checkpoint would take back. It returns the branch's new commit.
// The caller holds the lock.
func (s *Store) UpdateBranch(ctx context.Context, w *ObjectWriter, u BranchUpdate) (plumbing.Hash, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lock == nil {
		return plumbing.ZeroHash, errors.New("update branch: the write lock is not held")
	}
	branch, ours, err := s.objs.head()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if ours != u.Ours {
		return plumbing.ZeroHash, fmt.Errorf("update %s: it moved to %s; expected %s", branch, short(ours), u.Ours)
	}
	c, err := s.index.load(ctx, ours)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	changes := changesOf(u.Changes)
	if err := s.wt.check(c, changes); err != nil {
		return plumbing.ZeroHash, err
	}
	head := u.Head
	if head.IsZero() {
		msg := commitenc.Message(u.Subject, u.Body, u.Trailers)
		// w.w, not w.Write: s.mu is held here.
		if head, err = w.w.Write(plumbing.CommitObject, commitenc.Commit(u.Tree, u.Parents, s.ident.Name, s.ident.Email, s.now(), msg)); err != nil {
			return plumbing.ZeroHash, err
		}
	}
	if err := w.Flush(); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := s.wt.write(changes, s.objs.blob); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := s.updateRef(branch, ours, head, u.Reflog, s.now()); err != nil {
		return plumbing.ZeroHash, err
	}
	applyChanges(c, changes)
	c.Head = head
	c.Written = s.now().UnixNano()
	s.index.dirty = true
	return head, nil
}

// check makes sure the files a merge changes hold what the cache
// says ours holds, so that no change that was not checkpointed is
// overwritten. It costs what the merge changes.
func (wt *worktree) check(c *statcache.Cache, changes []change) error {
	for _, ch := range changes {
		name := filepath.Join(wt.dir, filepath.FromSlash(ch.Path))
		i, found := c.Find(ch.Path)
		fi, err := os.Lstat(name)
		if errors.Is(err, os.ErrNotExist) {
			if !found {
				continue
			}
			return fmt.Errorf("%w: %s was deleted but not checkpointed", ErrDirty, ch.Path)
		}
		if err != nil {
			return err
		}
		if fi.IsDir() {
			return fmt.Errorf("%w: %s is a folder in the work tree", ErrDirty, ch.Path)
		}
		if !found {
			// A file git does not track yet, or an ignored one.
			h, err := wt.hash(ch.Path, 0o100644)
			if err == nil && ch.Action != Deleted && h == ch.e.Hash {
				continue
			}
			return fmt.Errorf("%w: %s exists but is not checkpointed", ErrDirty, ch.Path)
		}
		e := &c.Entries[i]
		var st unix.Stat_t
		if unix.Lstat(name, &st) == nil {
			if cur := statcache.StatOf(&st); e.Stat.Matches(&cur) && !e.Racy(c.Written) {
				continue
			}
		}
		h, err := wt.hash(ch.Path, e.Mode)
		if err != nil {
			return err
		}
		if h != e.Hash {
			return fmt.Errorf("%w: %s has changes that are not checkpointed", ErrDirty, ch.Path)
		}
	}
	return nil
}

// write makes the work tree hold what changes say, reading the new
// contents with blob: deletions first, so that a file can take the place
// of a folder and the reverse.
func (wt *worktree) write(changes []change, blob func(plumbing.Hash) ([]byte, error)) error {
	for _, ch := range changes {
		if ch.Action != Deleted {
			continue
		}
		name := filepath.Join(wt.dir, filepath.FromSlash(ch.Path))
		if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("remove %s: %w", ch.Path, err)
		}
		for d := filepath.Dir(name); len(d) > len(wt.dir); d = filepath.Dir(d) {
			if os.Remove(d) != nil {
				break
			}
		}
	}
	batch, last := true, ""
	for _, ch := range changes {
		if ch.Action == Deleted {
			continue
		}
		name := filepath.Join(wt.dir, filepath.FromSlash(ch.Path))
		data, err := blob(ch.e.Hash)
		if err != nil {
			return err
		}
		data = wt.smudgeWarn(ch.Path, data)
		perm := os.FileMode(FilePerm)
		if ch.e.Mode == 0o100755 {
			perm = ExecPerm
		}
		if err := writeStarted(name, data, perm, &batch); err != nil {
			return err
		}
		last = name
	}
	if len(changes) == 0 {
		return nil
	}
	// The files' data is on its way to the disk; as for objects (see
	// ObjectWriter), one fsync waits for it and commits every rename
	// before it. Without sync_file_range, one syncfs does.
	if batch && last != "" {
		f, err := os.Open(last)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Sync()
	}
	return loose.SyncFS(wt.dir)
}

// writeStarted writes name through a temporary file and rename, starting
// the data's writeback without waiting for it; batch becomes false when
// that cannot be done. It is not safefile.Write because its durability is
// batched: one fsync or syncfs after the last file commits them all. Its
// temporary files are named as safefile's, so that safefile.IsTemp
// recognises them.
func writeStarted(name string, data []byte, perm os.FileMode, batch *bool) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, DirPerm); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil && *batch && loose.StartWriteback(f) != nil {
		*batch = false
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}
