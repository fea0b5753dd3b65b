package statcache

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/go-git/go-git/v5/plumbing"
)

// Files are a stat cache's files: the cache, its base next to it
// (BaseName), and the base's link in the git directory, where git reads
// it for the split .git/index written with the cache.
type Files struct {
	Cache  string // .state/statcache
	GitDir string
}

// Read reads the cache and, when it is split, its base.
func (f Files) Read() (*Cache, error) {
	b, err := os.ReadFile(f.Cache)
	if err != nil {
		return nil, err
	}
	return Decode(b, func(sum plumbing.Hash) (*Base, error) {
		b, err := os.ReadFile(f.base(sum))
		if err != nil {
			return nil, err
		}
		return DecodeBase(b)
	})
}

func (f Files) base(sum plumbing.Hash) string {
	return filepath.Join(filepath.Dir(f.Cache), BaseName(sum))
}

// RebaseAt is how many entries may differ from the base before a save
// writes a new one: saves write what changed since the base, so the
// bound keeps them small, and a new base (the whole cache) is written
// once per that many changed paths.
func RebaseAt(entries int) int { return max(256, entries/32) }

// Rebase readies c for a split save: it writes a new base when c has
// none, when more than RebaseAt entries differ from its base, or when
// its base is gone from either place. On error c has no base, and saves
// whole.
func (f Files) Rebase(c *Cache) error {
	if c.Base != nil && c.Delta() <= RebaseAt(len(c.Entries)) && f.keep(c.Base) {
		return nil
	}
	err := f.writeBase(c)
	if err != nil {
		c.Base = nil
	}
	return err
}

// keep reports whether base is still there for both readers, and marks
// it used. Another process may have replaced the state folder's copy
// (this one kept an older cache in memory), or git removed its own.
func (f Files) keep(base *Base) bool {
	state := f.base(base.Sum)
	if _, err := os.Stat(state); err != nil {
		return false
	}
	git := filepath.Join(f.GitDir, BaseName(base.Sum))
	// Its time says when it was last used, as git's do.
	now := time.Now()
	if err := os.Chtimes(git, now, now); err != nil {
		return os.Link(state, git) == nil
	}
	return true
}

// writeBase makes the cache's entries its new base and writes it next to
// the cache, hard-linked into the git directory: one file, written once,
// for both readers. The link also keeps the cache's base when git
// replaces its own.
func (f Files) writeBase(c *Cache) error {
	b := c.NewBase()
	state := f.base(c.Base.Sum)
	// No fsync: the base is derived, as the cache is.
	if err := safefile.WriteSync(state, b, 0o600, safefile.SyncNone); err != nil {
		return err
	}
	git := filepath.Join(f.GitDir, BaseName(c.Base.Sum))
	err := os.Link(state, git)
	if errors.Is(err, os.ErrExist) {
		return nil // the same bytes: the name is their checksum
	}
	if err != nil {
		// Another file system, or no hard links: a copy will do.
		return safefile.WriteSync(git, b, 0o600, safefile.SyncNone)
	}
	return nil
}

// oldBaseGrace is how long a replaced base stays in the git directory: a
// git command that read .git/index just before it was replaced may still
// open the base that index named (git itself keeps them two weeks).
const oldBaseGrace = time.Minute

// RemoveOldBases deletes the bases other than cur: at once next to the
// cache, where only the cache reads them, and in the git directory once
// unused for oldBaseGrace (git's own included: .git/index no longer
// names them).
func (f Files) RemoveOldBases(cur *Base) {
	keep := ""
	if cur != nil {
		keep = BaseName(cur.Sum)
	}
	for _, dir := range []string{filepath.Dir(f.Cache), f.GitDir} {
		names, _ := filepath.Glob(filepath.Join(dir, BasePattern))
		for _, n := range names {
			if filepath.Base(n) == keep {
				continue
			}
			if dir == f.GitDir {
				if fi, err := os.Stat(n); err != nil || time.Since(fi.ModTime()) < oldBaseGrace {
					continue
				}
			}
			os.Remove(n)
		}
	}
}
