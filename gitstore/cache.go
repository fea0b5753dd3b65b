package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-mem/cairn/gitstore/internal/refs"
	"github.com/cairn-mem/cairn/gitstore/internal/statcache"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/utils/merkletrie"
)

const cacheFile = "statcache"

// Flush writes the stat cache and the git index now, if a checkpoint
// changed them. Stores opened with DeferIndex call it when they are idle;
// the others save when their lock is released.
func (s *Store) Flush(ctx context.Context) error {
	unlock, err := s.Lock(ctx, 10*time.Second)
	if err != nil {
		return err
	}
	defer unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.index.save()
	return nil
}

// index is the stat cache: the decoded cache of the commit the Store last
// worked on, kept in memory between checkpoints, and its two copies on
// disk, .state/statcache and .git/index. Its methods are called under
// Store.mu.
type index struct {
	file   string // .state/statcache
	gitDir string
	objs   *objects // for HEAD and the trees a cache is rebuilt from
	warn   func(string)

	cache *statcache.Cache
	dirty bool // cache differs from file and .git/index
}

// load returns the stat cache for commit head, repairing it when it is
// missing, corrupt or describes another commit (a pull, a git commit by
// hand, a crash between moving the ref and saving the cache).
func (x *index) load(ctx context.Context, head plumbing.Hash) (*statcache.Cache, error) {
	if x.cache != nil && x.cache.Head == head {
		return x.cache, nil
	}
	name := x.file
	c, err := x.files().Read()
	switch {
	case errors.Is(err, os.ErrNotExist):
		c = nil
	case err != nil:
		x.warn(fmt.Sprintf("stat cache %s is unreadable (%v); rebuilding it", name, err))
		c = nil
	}
	repaired := c == nil || c.Head != head
	if c != nil && c.Head != head {
		if rc, err := x.reconcile(ctx, c, head); err == nil {
			c = rc
		} else {
			x.warn(fmt.Sprintf("stat cache %s describes %s, not HEAD (%v); rebuilding it", name, short(c.Head), err))
			c = nil
		}
	}
	if c == nil {
		if c, err = x.fromTree(ctx, head); err != nil {
			return nil, fmt.Errorf("rebuild stat cache %s: %w", name, err)
		}
	}
	x.cache = c
	if repaired {
		// Written back when the lock is released, so that .git/index
		// agrees with HEAD again even if nothing else changes.
		x.dirty = true
	}
	return c, nil
}

// save writes the cache to .state/ and, so that git status agrees, to
// .git/index. Failing to save loses nothing: the next command rebuilds the
// cache from HEAD and rehashes. So failures are reported, not returned.
// The caller holds Store.mu and the lock.
func (x *index) save() {
	c := x.cache
	if c == nil || !x.dirty {
		return
	}
	x.dirty = false
	if _, head, err := x.objs.head(); err != nil || head != c.Head {
		// Another process committed since: its own save describes HEAD.
		x.cache = nil
		return
	}
	if err := x.files().Rebase(c); err != nil {
		x.warn(fmt.Sprintf("save stat cache base: %v (saving it whole)", err))
	}
	b, idx := c.Encode()
	// .git/index first: a cache that describes HEAD then says the index
	// was written for HEAD too, which is what RepairIndex looks at.
	if err := x.writeGitIndex(idx); err != nil {
		x.warn(fmt.Sprintf("update git index: %v (git status may show staged changes until the next checkpoint)", err))
		return
	}
	// No fsync: the cache is derived, its checksum catches a torn write,
	// and a lost one is rebuilt.
	if err := safefile.WriteSync(x.file, b, 0o600, safefile.SyncNone); err != nil {
		x.warn(fmt.Sprintf("save stat cache: %v", err))
	}
	x.files().RemoveOldBases(c.Base)
}

func (x *index) files() statcache.Files { return statcache.Files{Cache: x.file, GitDir: x.gitDir} }

// RepairIndex rewrites .git/index (and the stat cache) when they describe
// an older commit than HEAD: a process killed between moving the branch
// and writing them leaves git status showing the commit's files as a
// staged deletion and untracked copies, which a user's git commit would
// commit. Every command calls it when it opens the memory, read-only ones
// included. It is cheap when nothing lags (HEAD and the cache file's last
// bytes), and does nothing when another process holds the lock (that
// process writes both when it lets go).
func (s *Store) RepairIndex(ctx context.Context) error {
	s.mu.Lock()
	_, head, err := s.objs.head()
	s.mu.Unlock()
	if err != nil || head.IsZero() || statcache.HeadOfFile(s.index.file) == head {
		return err
	}
	unlock, err := s.Lock(ctx, 0)
	if errors.Is(err, ErrLocked) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, head, err = s.objs.head(); err != nil {
		return err
	}
	if _, err := s.index.load(ctx, head); err != nil {
		return err
	}
	s.index.dirty = true
	if s.deferIndex {
		s.index.save()
	}
	return nil
}

// writeGitIndex replaces .git/index the way git does, through index.lock,
// so that a git command running at the same moment is not overwritten.
func (x *index) writeGitIndex(parts [][]byte) error {
	return refs.WriteLocked(filepath.Join(x.gitDir, "index"), parts)
}

// reconcile moves a cache from the commit it describes to head: the paths
// that differ between the two trees get head's blob and no stat data, so
// the next scan hashes them.
func (x *index) reconcile(ctx context.Context, c *statcache.Cache, head plumbing.Hash) (*statcache.Cache, error) {
	from, err := x.objs.tree(c.Head)
	if err != nil {
		return nil, err
	}
	to, err := x.objs.tree(head)
	if err != nil {
		return nil, err
	}
	changes, err := object.DiffTreeWithOptions(ctx, from, to, nil)
	if err != nil {
		return nil, err
	}
	var cs []change
	for _, ch := range changes {
		action, err := ch.Action()
		if err != nil {
			return nil, err
		}
		if action == merkletrie.Delete {
			cs = append(cs, change{FileChange: FileChange{ch.From.Name, Deleted}})
			continue
		}
		if action == merkletrie.Modify && ch.From.Name != ch.To.Name {
			cs = append(cs, change{FileChange: FileChange{ch.From.Name, Deleted}})
		}
		cs = append(cs, change{FileChange: FileChange{ch.To.Name, Modified}, e: statcache.Entry{
			Path: ch.To.Name, Hash: ch.To.TreeEntry.Hash, Mode: uint32(ch.To.TreeEntry.Mode),
		}})
	}
	sortChanges(cs)
	applyChanges(c, cs)
	c.Head = head
	return c, nil
}

// fromTree makes a cache listing head's files with no stat data.
func (x *index) fromTree(ctx context.Context, head plumbing.Hash) (*statcache.Cache, error) {
	c := &statcache.Cache{Head: head}
	if head.IsZero() {
		return c, nil
	}
	t, err := x.objs.tree(head)
	if err != nil {
		return nil, err
	}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if e.Mode == filemode.Dir || e.Mode == filemode.Submodule {
			continue
		}
		c.Entries = append(c.Entries, statcache.Entry{Path: name, Hash: e.Hash, Mode: uint32(e.Mode)})
	}
	sortEntries(c.Entries)
	return c, nil
}
