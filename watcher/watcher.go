package watcher

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Defaults of Config.
const (
	DefaultDebounce   = 200 * time.Millisecond
	DefaultMaxDelay   = 2 * time.Second
	DefaultRetryDelay = 5 * time.Second
)

// inboxKey stands for the inbox in the debouncer; no path is empty.
const inboxKey = ""

// Config says what a Watcher watches and whom it tells.
type Config struct {
	// Globs name the transcripts to follow: absolute patterns in the
	// syntax of filepath.Match, matched element by element ("*" never
	// crosses a "/"; there is no "**"). A leading "~/" is the user's home.
	// Folders that do not exist yet are watched for as they appear.
	Globs []string
	// Cursors holds how far each transcript was processed. Required with
	// Globs.
	Cursors *Cursors
	// OnDelta is told, from the watcher's goroutine, of each range of
	// complete lines a transcript grew by. It should hand the range on
	// (enqueue a job) and return: the watcher waits for it. When it
	// returns an error, the same range (or a longer one) comes again
	// after RetryDelay. Required with Globs.
	OnDelta func(ctx context.Context, d Delta) error

	// Inbox is a folder (the queue's pending folder) whose new files are
	// announced to OnInbox, debounced. Hidden files are not announced.
	Inbox string
	// OnInbox is called, from the watcher's goroutine, when files appeared
	// or changed in Inbox, and after each rescan. It should wake a worker
	// and return.
	OnInbox func(ctx context.Context)

	// Ignore lists folders whose contents are never watched or reported:
	// the state folder, the queue's own folders. The cursor folder is
	// always ignored.
	Ignore []string

	// Debounce is how long a file must be quiet before it is read; zero
	// means DefaultDebounce.
	Debounce time.Duration
	// MaxDelay bounds how long a file written to without pause waits;
	// zero means DefaultMaxDelay.
	MaxDelay time.Duration
	// RetryDelay is how long after a failed OnDelta the file is read
	// again; zero means DefaultRetryDelay.
	RetryDelay time.Duration
	// Rescan, when positive, adds a full rescan at this interval. Rescans
	// happen anyway at start and when events were lost.
	Rescan time.Duration

	// Log receives what goes wrong on the way (unreadable files, failed
	// watches, OnDelta errors); nil discards it.
	Log *slog.Logger
}

// Delta is a range of complete lines a transcript grew by: [From, To) where
// To is the end of the last complete line. Ranges of one file follow each
// other without gap or overlap, except that after a restart (Change is NewFile,
// Truncated or Replaced) a range starts again at 0, and that after the
// watcher itself restarts, ranges resume at the last committed cursor.
type Delta struct {
	Range
	Change Change // Grown, or what made the file start over
	Size   int64  // the file's size when read; a half line may lie past To
}

// Job returns the queue job for the delta.
func (d Delta) Job() Job {
	r := d.Range
	return Job{Kind: KindTranscriptDelta, Pointer: &r}
}

// Watcher follows transcript files and an inbox folder with fsnotify.
// See Serve.
type Watcher struct {
	cfg      Config
	patterns []pattern
	ignore   []string
	inbox    string
	log      *slog.Logger
	rescanc  chan struct{}
	served   atomic.Bool

	mu  sync.Mutex // guards fsw for Watching
	fsw *fsnotify.Watcher

	// Owned by Serve's goroutine.
	deb     *debouncer
	files   map[string]*tracked
	watched map[string]bool // transcript folders under watch
	links   map[string]bool // symbolic links met where a transcript was, said once each

	rescans atomic.Int64 // for tests
}

// tracked is what the watcher knows of a transcript while it runs.
type tracked struct {
	cur     Cursor // Offset is the end of what was handed out
	known   bool   // cur describes a file (from a cursor or a read)
	restart Change // a restart not yet reported with a delta
	failing bool   // handing out its last delta failed, and was logged
}

// pattern is one of Config.Globs.
type pattern struct {
	glob string
	dirs []string // the elements of its folder
}

// New checks a configuration and returns a Watcher for it. Nothing is
// watched before Serve.
func New(cfg Config) (*Watcher, error) {
	w := &Watcher{cfg: cfg, log: cfg.Log, rescanc: make(chan struct{}, 1)}
	if w.log == nil {
		w.log = slog.New(slog.DiscardHandler)
	}
	if w.cfg.Debounce <= 0 {
		w.cfg.Debounce = DefaultDebounce
	}
	if w.cfg.MaxDelay <= 0 {
		w.cfg.MaxDelay = DefaultMaxDelay
	}
	if w.cfg.RetryDelay <= 0 {
		w.cfg.RetryDelay = DefaultRetryDelay
	}
	if len(cfg.Globs) > 0 && (cfg.Cursors == nil || cfg.OnDelta == nil) {
		return nil, errors.New("watcher: globs need Cursors and OnDelta")
	}
	for _, g := range cfg.Globs {
		p, err := newPattern(g)
		if err != nil {
			return nil, err
		}
		w.patterns = append(w.patterns, p)
	}
	if cfg.Inbox != "" {
		in, err := filepath.Abs(cfg.Inbox)
		if err != nil {
			return nil, fmt.Errorf("watcher: inbox: %w", err)
		}
		w.inbox = in
	}
	for _, ig := range cfg.Ignore {
		ig, err := filepath.Abs(ig)
		if err != nil {
			return nil, fmt.Errorf("watcher: ignore: %w", err)
		}
		w.ignore = append(w.ignore, ig)
	}
	if cfg.Cursors != nil {
		w.ignore = append(w.ignore, cfg.Cursors.Dir())
	}
	return w, nil
}

func newPattern(g string) (pattern, error) {
	if rest, ok := strings.CutPrefix(g, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return pattern{}, fmt.Errorf("watcher: glob %q: %w", g, err)
		}
		g = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(g) {
		return pattern{}, fmt.Errorf("watcher: glob %q is not absolute", g)
	}
	g = filepath.Clean(g)
	els := splitPath(g)
	for _, el := range els {
		if _, err := filepath.Match(el, ""); err != nil {
			return pattern{}, fmt.Errorf("watcher: glob %q: %w", g, err)
		}
	}
	if len(els) == 0 {
		return pattern{}, fmt.Errorf("watcher: glob %q names no file", g)
	}
	return pattern{glob: g, dirs: els[:len(els)-1]}, nil
}

// splitPath returns the elements of a clean absolute path.
func splitPath(p string) []string {
	p = strings.TrimPrefix(p, string(filepath.Separator))
	if p == "" {
		return nil
	}
	return strings.Split(p, string(filepath.Separator))
}

// matchDir reports whether files matching p may lie in or under dir.
func (p pattern) matchDir(dir string) bool {
	els := splitPath(dir)
	if len(els) > len(p.dirs) {
		return false
	}
	for i, el := range els {
		if ok, _ := filepath.Match(p.dirs[i], el); !ok {
			return false
		}
	}
	return true
}

// anchor returns the folder to watch p from: its literal leading part, or
// the deepest of its ancestors that exists.
func (p pattern) anchor() string {
	dir := string(filepath.Separator)
	for _, el := range p.dirs {
		if strings.ContainsAny(el, `*?[\`) {
			break
		}
		dir = filepath.Join(dir, el)
	}
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

func (w *Watcher) ignored(path string) bool {
	for _, ig := range w.ignore {
		if path == ig || strings.HasPrefix(path, ig+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func (w *Watcher) wantDir(dir string) bool {
	if w.ignored(dir) {
		return false
	}
	for _, p := range w.patterns {
		if p.matchDir(dir) {
			return true
		}
	}
	return false
}

func (w *Watcher) wantFile(path string) bool {
	if w.ignored(path) {
		return false
	}
	for _, p := range w.patterns {
		if ok, _ := filepath.Match(p.glob, path); ok {
			return true
		}
	}
	return false
}

// Rescan asks a serving watcher for a full rescan, as after lost events.
// It does not wait.
func (w *Watcher) Rescan() {
	select {
	case w.rescanc <- struct{}{}:
	default:
	}
}

// Watching returns the folders watched now, for diagnostics.
func (w *Watcher) Watching() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fsw == nil {
		return nil
	}
	l := w.fsw.WatchList()
	slices.Sort(l)
	return l
}

// Serve watches until ctx is done, then returns nil, having removed its
// watches. It starts with a rescan that compares every matching file with
// its cursor, so that what changed while nobody watched is handed out
// first. Changes are debounced per file; an event overflow or a watch
// error triggers a full rescan. Serve may be called once.
func (w *Watcher) Serve(ctx context.Context) error {
	if !w.served.CompareAndSwap(false, true) {
		return errors.New("watcher: Serve called twice")
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watcher: %w", err)
	}
	w.mu.Lock()
	w.fsw = fsw
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.fsw = nil
		w.mu.Unlock()
		fsw.Close()
	}()
	w.deb = newDebouncer(w.cfg.Debounce, w.cfg.MaxDelay)
	defer w.deb.stop()
	w.files = map[string]*tracked{}
	w.links = map[string]bool{}
	if w.inbox != "" {
		if err := fsw.Add(w.inbox); err != nil {
			return fmt.Errorf("watcher: watch inbox: %w", err)
		}
	}
	var tick <-chan time.Time
	if w.cfg.Rescan > 0 {
		t := time.NewTicker(w.cfg.Rescan)
		defer t.Stop()
		tick = t.C
	}
	w.rescan(ctx)
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fsw.Events:
			if !ok {
				return errors.New("watcher: fsnotify stopped")
			}
			w.event(ev)
		case err, ok := <-fsw.Errors:
			if !ok {
				return errors.New("watcher: fsnotify stopped")
			}
			// Overflow or another error: events may be lost.
			w.log.Warn("watcher: rescanning after an fsnotify error", "err", err)
			w.rescan(ctx)
		case <-w.deb.C():
			// Not the time the timer fired: the loop may have been busy.
			for _, k := range w.deb.take(time.Now()) {
				if ctx.Err() != nil {
					return nil
				}
				if k == inboxKey {
					w.cfg.OnInbox(ctx)
				} else {
					w.process(ctx, k)
				}
			}
		case <-w.rescanc:
			w.rescan(ctx)
		case <-tick:
			w.rescan(ctx)
		}
	}
}

// event files an fsnotify event with the debouncer.
func (w *Watcher) event(ev fsnotify.Event) {
	name := ev.Name
	if w.ignored(name) {
		return
	}
	now := time.Now()
	if w.inbox != "" && filepath.Dir(name) == w.inbox {
		if w.cfg.OnInbox != nil && !isHidden(filepath.Base(name)) && ev.Has(fsnotify.Create|fsnotify.Write|fsnotify.Chmod) {
			w.deb.add(inboxKey, now)
		}
		return
	}
	if ev.Has(fsnotify.Remove|fsnotify.Rename) && w.watched[name] {
		// A watched folder went away (and its watch with it), perhaps one
		// a glob starts from: then watch from what is left, so that it is
		// seen when it comes back.
		delete(w.watched, name)
		for _, p := range w.patterns {
			// The anchor can go too between finding it and watching it
			// (a whole tree being removed): then look again, from what is
			// left, or no event would ever say the folder came back.
			for range 16 {
				a := p.anchor()
				if w.watched[a] || w.walk(a, func(path string) { w.deb.add(path, now) }) {
					break
				}
			}
		}
		return
	}
	if ev.Has(fsnotify.Create) && w.wantDir(name) {
		if fi, err := os.Lstat(name); err == nil && fi.IsDir() {
			// A new folder: watch it, then take what is in it already,
			// written before the watch began.
			w.walk(name, func(path string) { w.deb.add(path, now) })
			return
		}
	}
	if w.wantFile(name) {
		w.deb.add(name, now)
	}
}

// walk watches dir and the folders under it that may hold transcripts, and
// calls found for each transcript in them. The watch is added before the
// folder is read, so that a file is either in the listing or in an event.
// It reports false when dir could not be watched: it is gone.
func (w *Watcher) walk(dir string, found func(path string)) bool {
	if err := w.fsw.Add(dir); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.log.Warn("watcher: cannot watch a folder", "dir", dir, "err", err)
			return true // there, but unwatchable: looking again will not help
		}
		return false
	}
	w.watched[dir] = true
	es, err := os.ReadDir(dir)
	if err != nil {
		w.log.Warn("watcher: cannot list a folder", "dir", dir, "err", err)
		return true
	}
	for _, e := range es {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
			if w.wantDir(p) {
				w.walk(p, found)
			}
		case w.wantFile(p):
			found(p)
		}
	}
	return true
}

// rescan watches every folder that may hold transcripts and reads every
// transcript, catching up with whatever events did not say.
func (w *Watcher) rescan(ctx context.Context) {
	w.rescans.Add(1)
	w.watched = map[string]bool{} // walking adds back what is still there
	seen := map[string]bool{}
	for _, p := range w.patterns {
		w.walk(p.anchor(), func(path string) { seen[path] = true })
	}
	paths := make([]string, 0, len(seen))
	for p := range seen {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if ctx.Err() != nil {
			return
		}
		w.process(ctx, p)
	}
	for p := range w.files {
		if !seen[p] {
			delete(w.files, p)
		}
	}
	if w.inbox != "" && w.cfg.OnInbox != nil {
		w.deb.add(inboxKey, time.Now())
	}
}

// process reads what is new in the transcript at path and hands it out.
func (w *Watcher) process(ctx context.Context, path string) {
	// A link is never read, whatever it points at (another project's
	// transcript, a secret): the consumer would refuse it anyway.
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if !w.links[path] {
			w.links[path] = true
			w.log.Warn("watcher: a transcript that is a symbolic link is not read", "path", path)
		}
		delete(w.files, path)
		return
	}
	f, err := openNoFollow(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			delete(w.files, path)
		} else {
			w.log.Warn("watcher: cannot open a transcript", "path", path, "err", err)
		}
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	t := w.files[path]
	if t == nil {
		t = &tracked{}
		cur, err := w.cfg.Cursors.Load(path)
		if err != nil {
			// Starting over is safe: consumers dedupe.
			w.log.Warn("watcher: unreadable cursor; reading the file from the start", "path", path, "err", err)
		}
		if cur != nil {
			t.cur, t.known = *cur, true
		}
		w.files[path] = t
	}
	var cur *Cursor
	if t.known {
		cur = &t.cur
	}
	change, from, err := cur.Check(f)
	if err != nil {
		w.log.Warn("watcher: cannot read a transcript", "path", path, "err", err)
		return
	}
	dev, ino := fileID(fi)
	if change.Restart() {
		if t.restart == Unchanged {
			t.restart = change
		}
		t.cur = Cursor{Schema: Schema, Path: path, Device: dev, Inode: ino}
		t.known = true
	}
	size := fi.Size()
	end, tail, err := lastLineEnd(f, from, size)
	if err != nil {
		w.log.Warn("watcher: cannot read a transcript", "path", path, "err", err)
		return
	}
	if end <= from {
		return // nothing new, or half a line
	}
	d := Delta{Range: Range{Path: path, From: from, To: end, Device: dev, Inode: ino}, Change: Grown, Size: size}
	if t.restart != Unchanged {
		d.Change = t.restart
	}
	d.FirstUUID, d.LastUUID = lineUUIDs(f, from, end)
	if err := w.cfg.OnDelta(ctx, d); err != nil {
		// Said once per file until it works again: a full disk fails
		// every retry the same way.
		if !t.failing {
			w.log.Warn("watcher: handing out a delta failed; will retry until it works", "path", path, "from", from, "to", end, "err", err)
			t.failing = true
		}
		now := time.Now()
		w.deb.addAt(path, now.Add(w.cfg.RetryDelay), now)
		return
	}
	if t.failing {
		w.log.Info("watcher: handing out deltas works again", "path", path)
		t.failing = false
	}
	t.cur = Cursor{Schema: Schema, Path: path, Offset: end, Size: size, Device: dev, Inode: ino,
		ModTime: fi.ModTime(), LastUUID: d.LastUUID, Tail: tail}
	t.restart = Unchanged
}
