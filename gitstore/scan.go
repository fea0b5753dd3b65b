package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/gitstore/gitpath"
	"github.com/cairn-mem/cairn/gitstore/internal/loose"
	"github.com/cairn-mem/cairn/gitstore/internal/statcache"
	"github.com/cairn-mem/cairn/gitstore/internal/walk"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// Action says how a checkpoint changes a path.
type Action string

// The actions of a FileChange.
const (
	Added    Action = "added"
	Modified Action = "modified"
	Deleted  Action = "deleted"
)

// FileChange is one path a checkpoint adds, modifies or deletes.
type FileChange struct {
	Path   string `json:"path"`
	Action Action `json:"action"`
}

// change is a FileChange with the new cache entry it brings.
type change struct {
	FileChange
	e    statcache.Entry // new entry, unless deleted
	data []byte          // the content scan hashed, when it kept it; nil otherwise
}

// skipDirs are work-tree folders that are never memory, whatever the
// ignore rules say.
var skipDirs = map[string]bool{".git": true, StateDir: true, "inbox": true}

// worktree is the work tree as a checkpoint sees it: scanned against the
// stat cache to find what changed (asking a running Monitor where to
// look), read for the blobs, and written when a merge moves the branch.
type worktree struct {
	dir     string // its root
	state   string // the state folder, where the Monitor's socket is
	warn    func(string)
	scanned int // files the last scan looked at

	owned    []string          // paths .gitignore never applies to
	ownedIgn gitignore.Matcher // what applies to them instead
	filter   Filter            // nil: files are stored as they are
}

// keepBlobs bounds the bytes of changed files a checkpoint's scan keeps
// for writing their blobs, so that each is read once. Past it they are
// read again, as a checkpoint of a large import would otherwise hold the
// whole import in memory.
const keepBlobs = 32 << 20

// scan compares the work tree under roots (repository paths; nil or ""
// means everything) with the stat cache. It returns the changes, and
// whether any unchanged entry had its stat data refreshed. The changes
// keep the content that was hashed, up to keep bytes in all.
func (wt *worktree) scan(ctx context.Context, c *statcache.Cache, roots []string, keep int, scrub func(p string, data []byte) []byte) ([]change, bool, error) {
	if len(roots) == 0 {
		roots = []string{""}
	}
	roots = dedupeRoots(roots)
	ign := wt.ignoreMatcher()
	var files []walk.File
	for _, r := range roots {
		w, err := walk.Walk(ctx, wt.dir, r, skipDirs)
		if err != nil {
			return nil, false, err
		}
		files = append(files, w...)
	}
	slices.SortFunc(files, func(a, b walk.File) int { return strings.Compare(a.Path, b.Path) })
	wt.scanned = len(files)

	var changes []change
	refreshed := false
	seen := make([]bool, len(c.Entries))
	at := 0 // files are sorted: each lookup starts where the last ended
	for i := range files {
		f := &files[i]
		if f.Mode == 0o120000 {
			wt.skipLink(f.Path, nil)
			continue // never committed; a tracked one stays as HEAD has it
		}
		idx, found := c.FindFrom(at, f.Path)
		at = idx
		if err := gitpath.Valid(f.Path); err != nil {
			// Never committed, and a tracked one is left as it is.
			wt.warn(fmt.Sprintf("not committing %v", err))
			if found {
				seen[idx] = true
			}
			continue
		}
		if !found && wt.ignored(ign, f.Path) {
			continue // untracked and ignored; a tracked file stays tracked
		}
		if found {
			seen[idx] = true
			e := &c.Entries[idx]
			if e.Mode == f.Mode && e.Stat.Matches(&f.Stat) && !e.Racy(c.Written) {
				continue
			}
		}
		data, rewritten, err := wt.readScrubbed(f.Path, f.Mode, scrub)
		if rewritten {
			f.Stat = statcache.Stat{} // the next scan looks at it again
		}
		if err != nil {
			if errors.Is(err, os.ErrNotExist) { // vanished since the walk
				continue
			}
			if errors.Is(err, safefile.ErrLink) { // a folder on its way is a link
				wt.skipLink(f.Path, err)
				continue
			}
			return nil, false, err
		}
		h := loose.Hash(plumbing.BlobObject, data)
		ne := statcache.Entry{Path: f.Path, Hash: h, Mode: f.Mode, Stat: f.Stat}
		if found {
			e := &c.Entries[idx]
			if e.Hash == h && e.Mode == f.Mode {
				*e = ne
				refreshed = true
				continue
			}
		}
		ch := change{FileChange: FileChange{f.Path, Added}, e: ne}
		if found {
			ch.Action = Modified
		}
		if len(data) <= keep {
			ch.data, keep = data, keep-len(data)
		}
		changes = append(changes, ch)
	}
	for _, r := range roots {
		i, _ := c.Find(r)
		for ; i < len(c.Entries) && gitpath.UnderPrefix(c.Entries[i].Path, r); i++ {
			p := c.Entries[i].Path
			if seen[i] || Skipped(p) {
				continue
			}
			if fi, err := os.Lstat(filepath.Join(wt.dir, filepath.FromSlash(p))); err == nil && !fi.IsDir() {
				continue // appeared after the walk: the next scan sees it
			}
			changes = append(changes, change{FileChange: FileChange{p, Deleted}})
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes, refreshed, nil
}

// changes compares the work tree under roots with the cache,
// without committing. With no roots it looks only where a running
// Monitor says things changed, or everywhere when none answers.
func (wt *worktree) changes(ctx context.Context, c *statcache.Cache, roots []string) ([]change, error) {
	if len(roots) == 0 {
		var all bool
		if _, roots, all = wt.monitorRoots(c); !all && len(roots) == 0 {
			return nil, nil
		}
	}
	changes, _, err := wt.scan(ctx, c, roots, 0, nil)
	return changes, err
}

// monitorRoots returns the paths a whole-tree scan must look at: what a
// running Monitor reports as changed since the cache's token, plus entries
// without stat data. all is true, and roots nil, when everything must be
// scanned: no monitor, a new one, or one that lost events.
func (wt *worktree) monitorRoots(c *statcache.Cache) (token string, roots []string, all bool) {
	token, paths, full, ok := wt.askMonitor(c.Monitor)
	if !ok {
		return "", nil, true
	}
	if full || c.Monitor == "" {
		return token, nil, true
	}
	for _, p := range paths {
		if cp, err := gitpath.Clean(p); err == nil {
			roots = append(roots, cp)
		}
	}
	for i := range c.Entries {
		if c.Entries[i].Smudged() {
			roots = append(roots, c.Entries[i].Path)
		}
	}
	return token, roots, false
}

func dedupeRoots(roots []string) []string {
	sort.Strings(roots)
	out := roots[:0]
	for _, r := range roots {
		if len(out) > 0 && gitpath.UnderPrefix(r, out[len(out)-1]) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// Skipped reports whether the repository path p is in a folder that is
// never committed nor watched: .git, the state folder and inbox/.
func Skipped(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	return skipDirs[first]
}

func (wt *worktree) ignoreMatcher() gitignore.Matcher {
	b, err := safefile.ReadInRoot(wt.dir, ".gitignore")
	if err != nil {
		return nil
	}
	return parseIgnore(strings.Split(string(b), "\n"))
}

func parseIgnore(lines []string) gitignore.Matcher {
	var ps []gitignore.Pattern
	for _, line := range lines {
		line = strings.TrimRight(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, nil))
	}
	if ps == nil {
		return nil
	}
	return gitignore.NewMatcher(ps)
}

// ignored says whether the untracked file p stays out of a checkpoint:
// by the work tree's .gitignore (ign), or for an owned path by the
// owner's patterns alone.
func (wt *worktree) ignored(ign gitignore.Matcher, p string) bool {
	for _, o := range wt.owned {
		if gitpath.UnderPrefix(p, o) {
			return ignored(wt.ownedIgn, p, false)
		}
	}
	return ignored(ign, p, false)
}

func ignored(m gitignore.Matcher, p string, dir bool) bool {
	return m != nil && m.Match(strings.Split(p, "/"), dir)
}

func (wt *worktree) hash(p string, mode uint32) (plumbing.Hash, error) {
	data, err := wt.read(p, mode)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return loose.Hash(plumbing.BlobObject, data), nil
}

// read reads a work-tree file as git would store it, through the
// Filter for the paths it claims. A regular file is
// read without following a link on its way (safefile.ReadInRoot), so
// that no checkpoint or diff takes content from outside the memory.
func (wt *worktree) read(p string, mode uint32) ([]byte, error) {
	data, _, err := wt.readScrubbed(p, mode, nil)
	return data, err
}

// readScrubbed is read for a checkpoint's scan: a regular file's content
// goes through scrub first (see CheckpointOptions.Scrub), and what scrub
// changes is written back (rewritten: its stat data no longer holds).
func (wt *worktree) readScrubbed(p string, mode uint32, scrub func(p string, data []byte) []byte) (data []byte, rewritten bool, err error) {
	name := filepath.Join(wt.dir, filepath.FromSlash(p))
	if mode == 0o120000 {
		t, err := os.Readlink(name)
		return []byte(t), false, err
	}
	if data, err = safefile.ReadInRoot(wt.dir, p); err != nil {
		return nil, false, err
	}
	if scrub != nil {
		if out := scrub(p, data); out != nil {
			perm := os.FileMode(FilePerm)
			if mode == 0o100755 {
				perm = ExecPerm
			}
			if err := safefile.Write(name, out, perm); err != nil {
				return nil, false, fmt.Errorf("write %s back: %w", p, err)
			}
			data, rewritten = out, true
		}
	}
	data, err = wt.clean(p, data)
	return data, rewritten, err
}

// skipLink says, once per scan of it, that a symbolic link in the work
// tree is left out of checkpoints: committing one would push a link to
// a file outside the memory to every clone. err, when not nil, names the
// link a folder on the way to p is.
func (wt *worktree) skipLink(p string, err error) {
	msg := p + " is a symbolic link; cairn does not follow links in its memory (remove the link)"
	if err != nil {
		msg = err.Error()
	}
	wt.warn(msg + "; not checkpointed")
}
