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
	"sync"

	"github.com/cairn-mem/cairn/gitstore/gitpath"
	"github.com/cairn-mem/cairn/gitstore/internal/loose"
	"github.com/cairn-mem/cairn/gitstore/internal/statcache"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"golang.org/x/sys/unix"
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

// walked is a work-tree file found by the walker.
type walked struct {
	path string
	mode uint32 // git mode
	statcache.Stat
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
func (wt *worktree) scan(ctx context.Context, c *statcache.Cache, roots []string, keep int) ([]change, bool, error) {
	if len(roots) == 0 {
		roots = []string{""}
	}
	roots = dedupeRoots(roots)
	ign := wt.ignoreMatcher()
	var files []walked
	for _, r := range roots {
		w, err := wt.walk(ctx, r, ign)
		if err != nil {
			return nil, false, err
		}
		files = append(files, w...)
	}
	slices.SortFunc(files, func(a, b walked) int { return strings.Compare(a.path, b.path) })
	wt.scanned = len(files)

	var changes []change
	refreshed := false
	seen := make([]bool, len(c.Entries))
	at := 0 // files are sorted: each lookup starts where the last ended
	for i := range files {
		f := &files[i]
		if f.mode == 0o120000 {
			wt.skipLink(f.path, nil)
			continue // never committed; a tracked one stays as HEAD has it
		}
		idx, found := c.FindFrom(at, f.path)
		at = idx
		if err := gitpath.Valid(f.path); err != nil {
			// Never committed, and a tracked one is left as it is.
			wt.warn(fmt.Sprintf("not committing %v", err))
			if found {
				seen[idx] = true
			}
			continue
		}
		if !found && wt.ignored(ign, f.path) {
			continue // untracked and ignored; a tracked file stays tracked
		}
		if found {
			seen[idx] = true
			e := &c.Entries[idx]
			if e.Mode == f.mode && e.Stat.Matches(&f.Stat) && !e.Racy(c.Written) {
				continue
			}
		}
		data, err := wt.read(f.path, f.mode)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) { // vanished since the walk
				continue
			}
			if errors.Is(err, safefile.ErrLink) { // a folder on its way is a link
				wt.skipLink(f.path, err)
				continue
			}
			return nil, false, err
		}
		h := loose.Hash(plumbing.BlobObject, data)
		ne := statcache.Entry{Path: f.path, Hash: h, Mode: f.mode, Stat: f.Stat}
		if found {
			e := &c.Entries[idx]
			if e.Hash == h && e.Mode == f.mode {
				*e = ne
				refreshed = true
				continue
			}
		}
		ch := change{FileChange: FileChange{f.path, Added}, e: ne}
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
	changes, _, err := wt.scan(ctx, c, roots, 0)
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

// walk lists the files under root. At 100,000 files the directory reads
// and stat calls are most of a checkpoint's cost, so it makes them with
// raw system calls (os.File registers every folder with the poller) from
// a few workers sharing a stack of folders.
func (wt *worktree) walk(ctx context.Context, root string, ign gitignore.Matcher) ([]walked, error) {
	if root != "" {
		var st unix.Stat_t
		err := unix.Lstat(filepath.Join(wt.dir, filepath.FromSlash(root)), &st)
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("stat %s: %w", root, err)
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			mode, ok := gitMode(uint32(st.Mode))
			if !ok || Skipped(root) {
				return nil, nil
			}
			return []walked{{root, mode, statcache.StatOf(&st)}}, nil
		}
	}
	w := &walker{wt: wt, ign: ign, stack: []string{root}}
	w.cond = sync.NewCond(&w.mu)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.work(ctx)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(w.errs) > 0 {
		return nil, errors.Join(w.errs...)
	}
	return w.out, nil
}

type walker struct {
	wt  *worktree
	ign gitignore.Matcher

	mu     sync.Mutex
	cond   *sync.Cond
	stack  []string // folders to read
	busy   int      // workers reading a folder
	out    []walked
	errs   []error
	closed bool
}

func (w *walker) work(ctx context.Context) {
	buf := make([]byte, 32<<10)
	var out []walked
	defer func() {
		w.mu.Lock()
		w.out = append(w.out, out...)
		w.mu.Unlock()
	}()
	for {
		w.mu.Lock()
		for len(w.stack) == 0 && w.busy > 0 && !w.closed {
			w.cond.Wait()
		}
		if len(w.stack) == 0 || w.closed {
			w.closed = true
			w.cond.Broadcast()
			w.mu.Unlock()
			return
		}
		dir := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.busy++
		w.mu.Unlock()

		var subdirs []string
		var err error
		out, subdirs, err = w.wt.readDir(dir, w.ign, buf, out)

		w.mu.Lock()
		w.busy--
		if err != nil {
			w.errs = append(w.errs, err)
		}
		if ctx.Err() != nil {
			w.closed = true
		}
		w.stack = append(w.stack, subdirs...)
		w.cond.Broadcast()
		w.mu.Unlock()
	}
}

// readDir appends the files in dir to files and returns its subfolders.
func (wt *worktree) readDir(dir string, ign gitignore.Matcher, buf []byte, files []walked) (_ []walked, subdirs []string, err error) {
	name := filepath.Join(wt.dir, filepath.FromSlash(dir))
	// O_NOFOLLOW: a folder swapped for a link since it was listed is not
	// walked into (ELOOP, or ENOTDIR with O_DIRECTORY: skipped as gone).
	fd, err := unix.Open(name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) {
			return files, nil, nil
		}
		return files, nil, fmt.Errorf("read folder %s: %w", name, err)
	}
	defer unix.Close(fd)
	var names []string
	for {
		n, err := unix.ReadDirent(fd, buf)
		if err != nil {
			return files, nil, fmt.Errorf("read folder %s: %w", name, err)
		}
		if n <= 0 {
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	for _, base := range names {
		if safefile.IsTemp(base) {
			continue
		}
		var st unix.Stat_t
		if err := unix.Fstatat(fd, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			if errors.Is(err, unix.ENOENT) {
				continue
			}
			return files, nil, fmt.Errorf("stat %s: %w", filepath.Join(name, base), err)
		}
		p := base
		if dir != "" {
			p = dir + "/" + base
		}
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			// Ignored folders are walked all the same: a file committed
			// before its folder was ignored stays tracked, as in git.
			if dir == "" && skipDirs[base] {
				continue
			}
			subdirs = append(subdirs, p)
			continue
		}
		if mode, ok := gitMode(uint32(st.Mode)); ok {
			files = append(files, walked{p, mode, statcache.StatOf(&st)})
		}
	}
	return files, subdirs, nil
}

func ignored(m gitignore.Matcher, p string, dir bool) bool {
	return m != nil && m.Match(strings.Split(p, "/"), dir)
}

func gitMode(m uint32) (uint32, bool) {
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		if m&0o111 != 0 {
			return 0o100755, true
		}
		return 0o100644, true
	case unix.S_IFLNK:
		return 0o120000, true
	}
	return 0, false
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
	name := filepath.Join(wt.dir, filepath.FromSlash(p))
	if mode == 0o120000 {
		t, err := os.Readlink(name)
		return []byte(t), err
	}
	data, err := safefile.ReadInRoot(wt.dir, p)
	if err != nil {
		return nil, err
	}
	return wt.clean(p, data)
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
