package watcher

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// harness runs a Watcher over real folders and collects what it says.
type harness struct {
	t       testing.TB
	w       *Watcher
	cursors *Cursors
	deltas  chan Delta
	inbox   chan struct{}
	cancel  context.CancelFunc
	done    chan error
}

// watch starts a watcher with cfg, whose OnDelta and OnInbox it fills in
// unless set, and a cursor folder of its own unless set.
func watch(t testing.TB, cfg Config) *harness {
	t.Helper()
	h := &harness{t: t, deltas: make(chan Delta, 10000), inbox: make(chan struct{}, 100), done: make(chan error, 1)}
	if cfg.Cursors == nil {
		cs, err := OpenCursors(filepath.Join(t.TempDir(), "cursors"))
		if err != nil {
			t.Fatal(err)
		}
		cfg.Cursors = cs
	}
	h.cursors = cfg.Cursors
	if cfg.OnDelta == nil {
		cfg.OnDelta = func(_ context.Context, d Delta) error {
			h.deltas <- d
			return nil
		}
	}
	if cfg.Inbox != "" && cfg.OnInbox == nil {
		cfg.OnInbox = func(context.Context) {
			select {
			case h.inbox <- struct{}{}:
			default:
			}
		}
	}
	if cfg.Debounce == 0 {
		cfg.Debounce = 20 * time.Millisecond
	}
	w, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.w = w
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	go func() { h.done <- w.Serve(ctx) }()
	t.Cleanup(h.stop)
	return h
}

// stop stops the watcher and waits for Serve to return.
func (h *harness) stop() {
	h.t.Helper()
	if h.cancel == nil {
		return
	}
	h.cancel()
	h.cancel = nil
	select {
	case err := <-h.done:
		if err != nil {
			h.t.Errorf("Serve: %v", err)
		}
	case <-time.After(patience):
		h.t.Fatal("Serve did not return after its context was cancelled")
	}
}

// patience is how long a test waits for what must come (a delta, a
// rescan, the end of Serve). It bounds a failing test, not the speed of a
// passing one: CI runs the packages' tests side by side on two cores, and
// a watcher starved for seconds there still works.
const patience = 30 * time.Second

// next returns the next delta.
func (h *harness) next() Delta {
	h.t.Helper()
	select {
	case d := <-h.deltas:
		return d
	case <-time.After(patience):
		h.t.Fatalf("no delta within %s", patience)
	}
	return Delta{}
}

// want takes the next delta and checks it.
func (h *harness) want(path string, from, to int64, c Change) Delta {
	h.t.Helper()
	d := h.next()
	if d.Path != path || d.From != from || d.To != to || d.Change != c {
		h.t.Fatalf("delta %s [%d, %d) %v; want %s [%d, %d) %v", d.Path, d.From, d.To, d.Change, path, from, to, c)
	}
	return d
}

// quiet checks that no delta comes for a while.
func (h *harness) quiet(wait time.Duration) {
	h.t.Helper()
	select {
	case d := <-h.deltas:
		h.t.Fatalf("unexpected delta %s [%d, %d) %v", d.Path, d.From, d.To, d.Change)
	case <-time.After(wait):
	}
}

func size(t testing.TB, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func line(uuid string) string { return `{"type":"user","uuid":"` + uuid + `"}` + "\n" }

func TestWatchAppendTruncateReplace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s1.jsonl")
	writeFile(t, p, line("a")+line("b"))
	writeFile(t, filepath.Join(dir, "notes.txt"), "not a transcript\n")
	h := watch(t, Config{Globs: []string{filepath.Join(dir, "*.jsonl")}})

	d := h.want(p, 0, size(t, p), NewFile)
	if d.FirstUUID != "a" || d.LastUUID != "b" || d.Inode == 0 || d.Size != d.To {
		t.Fatalf("first delta %+v", d)
	}
	// Whole lines.
	appendFile(t, p, line("c"))
	d = h.want(p, d.To, size(t, p), Grown)
	if d.FirstUUID != "c" || d.LastUUID != "c" {
		t.Fatalf("uuids %q %q, want c c", d.FirstUUID, d.LastUUID)
	}
	// Half a line, then the rest.
	end := size(t, p)
	appendFile(t, p, `{"type":"user",`)
	h.quiet(150 * time.Millisecond)
	appendFile(t, p, `"uuid":"d"}`+"\n"+`{"uuid":"e"`)
	d = h.want(p, end, end+int64(len(line("d"))), Grown)
	if d.Size <= d.To {
		t.Fatalf("size %d: the half line past To is not counted", d.Size)
	}
	appendFile(t, p, "}\n")
	d = h.want(p, d.To, size(t, p), Grown)
	if d.LastUUID != "e" {
		t.Fatalf("last uuid %q, want e", d.LastUUID)
	}
	// Other files in the folder are not transcripts.
	appendFile(t, filepath.Join(dir, "notes.txt"), "more\n")
	h.quiet(100 * time.Millisecond)

	// Truncated, then written again.
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	appendFile(t, p, line("f"))
	h.want(p, 0, size(t, p), Truncated)
	appendFile(t, p, line("g"))
	h.want(p, int64(len(line("f"))), size(t, p), Grown)

	// Rewritten in place to a greater length between two looks.
	rewritten := line("x") + line("y") + line("z")
	if err := os.WriteFile(p, []byte(rewritten), 0o600); err != nil {
		t.Fatal(err)
	}
	h.want(p, 0, int64(len(rewritten)), Truncated)

	// Replaced by a rename.
	tmp := filepath.Join(dir, "s1.jsonl.tmp")
	writeFile(t, tmp, line("r1")+line("r2")+"{half")
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	d = h.want(p, 0, int64(2*len(line("r1"))), Replaced)
	if d.FirstUUID != "r1" || d.LastUUID != "r2" {
		t.Fatalf("uuids %q %q", d.FirstUUID, d.LastUUID)
	}
	// Replaced by a file with only half a line: the restart is reported
	// with the first complete line.
	writeFile(t, tmp, "{half")
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	h.quiet(150 * time.Millisecond)
	appendFile(t, p, "}\n")
	h.want(p, 0, size(t, p), Replaced)

	// Removed, and created again. If the watcher looks only after the new
	// file is there, and it got the old inode number, it is a truncation.
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	h.quiet(100 * time.Millisecond)
	writeFile(t, p, line("new"))
	d = h.next()
	if d.Path != p || d.From != 0 || d.To != size(t, p) || (d.Change != NewFile && d.Change != Truncated) {
		t.Fatalf("delta %+v, want [0, %d) new", d, size(t, p))
	}
}

// TestWatchNewFoldersAndFiles follows globs whose folders do not exist yet.
func TestWatchNewFoldersAndFiles(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, ".claude", "projects", "-home-me-proj")
	state := filepath.Join(proj, ".state")
	h := watch(t, Config{
		Globs:  []string{filepath.Join(proj, "*.jsonl"), filepath.Join(proj, "*", "subagents", "*.jsonl")},
		Ignore: []string{state},
	})
	h.quiet(50 * time.Millisecond)

	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	s1 := filepath.Join(proj, "s1.jsonl")
	writeFile(t, s1, line("a"))
	h.want(s1, 0, size(t, s1), NewFile)

	// A folder and a subfolder and a file, created at once: the file may
	// come before the watches do.
	sub := filepath.Join(proj, "s1", "subagents")
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	agent := filepath.Join(sub, "agent-1.jsonl")
	writeFile(t, agent, line("sa"))
	h.want(agent, 0, size(t, agent), NewFile)
	appendFile(t, agent, line("sb"))
	h.want(agent, int64(len(line("sa"))), size(t, agent), Grown)

	// Files that match no glob, and the ignored state folder.
	writeFile(t, filepath.Join(proj, "s1", "other.jsonl"), line("o"))
	writeFile(t, filepath.Join(sub, "notes.md"), "x\n")
	if err := os.MkdirAll(filepath.Join(state, "subagents"), 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(state, "x.jsonl"), line("s"))
	writeFile(t, filepath.Join(state, "subagents", "y.jsonl"), line("s"))
	h.quiet(150 * time.Millisecond)
	for _, w := range h.w.Watching() {
		if strings.HasPrefix(w, state) {
			t.Errorf("the ignored folder %s is watched", w)
		}
	}

	// A second session, created with its subagents folder.
	sub2 := filepath.Join(proj, "s2", "subagents")
	if err := os.MkdirAll(sub2, 0o700); err != nil {
		t.Fatal(err)
	}
	a2 := filepath.Join(sub2, "agent-2.jsonl")
	writeFile(t, a2, line("x"))
	h.want(a2, 0, size(t, a2), NewFile)
}

// TestWatchBurst appends 1,000 times, lines often split across writes:
// the deltas are few, and together they are the file's complete lines,
// each byte once.
func TestWatchBurst(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "burst.jsonl")
	writeFile(t, p, "")
	// The burst lasts longer than MaxDelay: a few deltas, not one.
	h := watch(t, Config{Globs: []string{filepath.Join(dir, "*.jsonl")}, Debounce: 100 * time.Millisecond, MaxDelay: 250 * time.Millisecond})
	time.Sleep(50 * time.Millisecond)

	rng := rand.New(rand.NewPCG(1, 2))
	var want bytes.Buffer
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	var pending []byte
	for i := range 1000 {
		if len(pending) == 0 {
			pending = fmt.Appendf(nil, `{"uuid":"u%d","text":"%s"}`+"\n", i, strings.Repeat("x", rng.IntN(300)))
		}
		n := len(pending)
		if rng.IntN(3) == 0 {
			n = 1 + rng.IntN(len(pending)) // part of a line
		}
		if _, err := f.Write(pending[:n]); err != nil {
			t.Fatal(err)
		}
		want.Write(pending[:n])
		pending = pending[n:]
		if i%10 == 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	complete := int64(bytes.LastIndexByte(want.Bytes(), '\n') + 1)

	var got []byte
	var deltas int
	var at int64
	for at < complete {
		d := h.next()
		if d.From != at {
			t.Fatalf("delta [%d, %d) after %d: a gap or an overlap", d.From, d.To, at)
		}
		data := make([]byte, d.To-d.From)
		if _, err := readAt(p, data, d.From); err != nil {
			t.Fatal(err)
		}
		got = append(got, data...)
		at = d.To
		deltas++
	}
	h.quiet(300 * time.Millisecond)
	if !bytes.Equal(got, want.Bytes()[:complete]) {
		t.Fatalf("the deltas hold %d bytes that differ from the file's %d bytes of complete lines", len(got), complete)
	}
	if deltas > 10 {
		t.Errorf("1,000 appends in a burst gave %d deltas; want a few", deltas)
	}
	t.Logf("1,000 appends, %d bytes of complete lines: %d deltas", complete, deltas)
}

// syncBuffer is a bytes.Buffer for several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func readAt(path string, b []byte, off int64) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return f.ReadAt(b, off)
}

// TestWatchCatchUp stops a watcher, changes files while nobody watches,
// and starts another: it resumes from the committed cursors.
func TestWatchCatchUp(t *testing.T) {
	dir := t.TempDir()
	cs, err := OpenCursors(filepath.Join(dir, ".state", "cursors"))
	if err != nil {
		t.Fatal(err)
	}
	glob := filepath.Join(dir, "*.jsonl")
	path := func(n string) string { return filepath.Join(dir, n+".jsonl") }
	for _, n := range []string{"grown", "truncated", "replaced", "same", "uncommitted"} {
		writeFile(t, path(n), line(n+"1")+line(n+"2"))
	}
	h := watch(t, Config{Globs: []string{glob}, Cursors: cs})
	seen := map[string]Delta{}
	for range 5 {
		d := h.next()
		seen[d.Path] = d
		switch filepath.Base(d.Path) {
		case "uncommitted.jsonl":
			// Only its first line is processed.
			r := d.Range
			r.To = int64(len(line("uncommitted1")))
			if err := cs.Commit(r); err != nil {
				t.Fatal(err)
			}
		default:
			if err := cs.Commit(d.Range); err != nil {
				t.Fatal(err)
			}
		}
	}
	h.stop()

	appendFile(t, path("grown"), line("grown3")+"{half")
	if err := os.Truncate(path("truncated"), 3); err != nil {
		t.Fatal(err)
	}
	appendFile(t, path("truncated"), "\n")
	writeFile(t, path("replaced")+".tmp", line("other"))
	if err := os.Rename(path("replaced")+".tmp", path("replaced")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path("new"), line("new1"))

	h = watch(t, Config{Globs: []string{glob}, Cursors: cs})
	got := map[string]Delta{}
	for range 5 {
		d := h.next()
		got[filepath.Base(d.Path)] = d
	}
	h.quiet(100 * time.Millisecond)
	check := func(name string, from, to int64, c Change) {
		t.Helper()
		d, ok := got[name+".jsonl"]
		if !ok || d.From != from || d.To != to || d.Change != c {
			t.Errorf("%s: delta %+v; want [%d, %d) %v", name, d, from, to, c)
		}
	}
	two := int64(2 * len(line("grown1")))
	check("grown", two, two+int64(len(line("grown3"))), Grown)
	check("truncated", 0, 4, Truncated)
	check("replaced", 0, int64(len(line("other"))), Replaced)
	check("new", 0, int64(len(line("new1"))), NewFile)
	check("uncommitted", int64(len(line("uncommitted1"))), size(t, path("uncommitted")), Grown)
}

// TestWatchOverflow overflows the kernel's event queue while the watcher
// is busy: it rescans, and no byte is lost.
func TestWatchOverflow(t *testing.T) {
	limit := 16384
	if b, err := os.ReadFile("/proc/sys/fs/inotify/max_queued_events"); err == nil {
		limit, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if limit <= 0 || limit > 200000 {
		t.Skipf("max_queued_events is %d: too many events to make", limit)
	}
	dir := t.TempDir()
	a, b, blocker := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "blocker.jsonl")
	for _, p := range []string{a, b, blocker} {
		writeFile(t, p, "")
	}
	release := make(chan struct{})
	var blocked atomic.Bool
	var log syncBuffer
	out := make(chan Delta, 10000)
	h := watch(t, Config{
		Globs: []string{filepath.Join(dir, "*.jsonl")},
		Log:   slog.New(slog.NewTextHandler(&log, nil)),
		OnDelta: func(ctx context.Context, d Delta) error {
			if d.Path == blocker && blocked.CompareAndSwap(false, true) {
				<-release
			}
			out <- d
			return nil
		},
	})
	h.deltas = out
	time.Sleep(50 * time.Millisecond)
	appendFile(t, blocker, line("block"))
	for !blocked.Load() {
		time.Sleep(time.Millisecond)
	}
	// Alternate between two files so that the kernel cannot merge events.
	fa, _ := os.OpenFile(a, os.O_WRONLY|os.O_APPEND, 0)
	fb, _ := os.OpenFile(b, os.O_WRONLY|os.O_APPEND, 0)
	n := limit + 5000
	for i := range n {
		fmt.Fprintf(fa, "{\"uuid\":\"a%d\"}\n", i)
		fmt.Fprintf(fb, "{\"uuid\":\"b%d\"}\n", i)
	}
	fa.Close()
	fb.Close()
	before := h.w.rescans.Load()
	close(release)
	ends := map[string]int64{a: size(t, a), b: size(t, b)}
	at := map[string]int64{a: 0, b: 0}
	for at[a] < ends[a] || at[b] < ends[b] {
		d := h.next()
		if d.Path == blocker {
			continue
		}
		if d.From != at[d.Path] {
			t.Fatalf("%s: delta [%d, %d) after %d", d.Path, d.From, d.To, at[d.Path])
		}
		at[d.Path] = d.To
	}
	// The deltas may come from the events before the overflow is read.
	for deadline := time.Now().Add(patience); h.w.rescans.Load() <= before && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if r := h.w.rescans.Load(); r <= before {
		t.Errorf("no rescan after %d events queued for a busy watcher (limit %d)", 2*n, limit)
	}
	h.quiet(100 * time.Millisecond) // and the rescan hands out nothing twice
	if !strings.Contains(log.String(), "overflow") {
		t.Errorf("no overflow reported; log:\n%s", log.String())
	}
	t.Logf("%d events queued for a busy watcher; rescans %d → %d", 2*n, before, h.w.rescans.Load())
}

// TestWatchRescan asks for rescans: they hand out what events did not say,
// and nothing twice.
func TestWatchRescan(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	writeFile(t, p, line("a"))
	h := watch(t, Config{Globs: []string{filepath.Join(dir, "*.jsonl")}, Debounce: time.Hour, MaxDelay: time.Hour})
	h.want(p, 0, size(t, p), NewFile)
	h.w.Rescan()
	h.quiet(100 * time.Millisecond)
	appendFile(t, p, line("b")) // its event waits an hour
	h.quiet(100 * time.Millisecond)
	h.w.Rescan()
	h.want(p, int64(len(line("a"))), size(t, p), Grown)
	h.w.Rescan()
	h.quiet(100 * time.Millisecond)
}

// TestWatchRetry: a delta that could not be handed on comes again.
func TestWatchRetry(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	writeFile(t, p, line("a"))
	var calls atomic.Int32
	out := make(chan Delta, 10)
	h := watch(t, Config{
		Globs:      []string{filepath.Join(dir, "*.jsonl")},
		RetryDelay: 50 * time.Millisecond,
		OnDelta: func(_ context.Context, d Delta) error {
			if calls.Add(1) == 1 {
				return errors.New("queue disk full")
			}
			out <- d
			return nil
		},
	})
	h.deltas = out
	h.want(p, 0, size(t, p), NewFile)
	if calls.Load() != 2 {
		t.Errorf("OnDelta called %d times, want 2", calls.Load())
	}
}

func TestWatchInbox(t *testing.T) {
	q, _ := testQueue(t, QueueOptions{})
	h := watch(t, Config{Inbox: q.Dir(Pending)})
	<-h.inbox // the start-up rescan
	writeFile(t, filepath.Join(q.Dir(Pending), ".hidden.tmp"), "x")
	select {
	case <-h.inbox:
		t.Fatal("told of a hidden file")
	case <-time.After(100 * time.Millisecond):
	}
	if _, err := q.Enqueue(context.Background(), Job{Kind: "hook"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.inbox:
	case <-time.After(patience):
		t.Fatal("not told of a new job")
	}
}

func TestNewConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Globs: []string{"relative/*.jsonl"}, Cursors: &Cursors{}, OnDelta: func(context.Context, Delta) error { return nil }},
		{Globs: []string{"/a/[/*.jsonl"}, Cursors: &Cursors{}, OnDelta: func(context.Context, Delta) error { return nil }},
		{Globs: []string{"/a/*.jsonl"}},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%v) succeeded", cfg.Globs)
		}
	}
	home, _ := os.UserHomeDir()
	w, err := New(Config{Globs: []string{"~/.claude/projects/x/*.jsonl"}, Cursors: &Cursors{}, OnDelta: func(context.Context, Delta) error { return nil }})
	if err != nil || w.patterns[0].glob != filepath.Join(home, ".claude/projects/x/*.jsonl") {
		t.Errorf("~ not expanded: %v, %v", w, err)
	}
}

// TestWatchNoLeaks starts and stops watchers: no goroutine, watch or file
// descriptor is left behind.
func TestWatchNoLeaks(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		sub := filepath.Join(dir, fmt.Sprint("s", i), "subagents")
		if err := os.MkdirAll(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(sub, "a.jsonl"), line("x"))
	}
	q, _ := testQueue(t, QueueOptions{})
	goroutines, fds := runtime.NumGoroutine(), openFDs(t)
	for range 3 {
		h := watch(t, Config{Globs: []string{filepath.Join(dir, "*", "subagents", "*.jsonl")}, Inbox: q.Dir(Pending)})
		for range 5 {
			h.next()
		}
		if n := len(h.w.Watching()); n != 1+1+5+5 {
			t.Errorf("%d watches; want the inbox, the root, 5 sessions and 5 subagent folders", n)
		}
		h.stop()
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > goroutines && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > goroutines {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines before, %d after:\n%s", goroutines, g, buf[:runtime.Stack(buf, true)])
	}
	if n := openFDs(t); n > fds {
		t.Errorf("%d open file descriptors before, %d after (an inotify instance left open?)", fds, n)
	}
}

func openFDs(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(es)
}

// BenchmarkDeltaLatency measures the time from an append by another process
// to the delta that reports it, with no debounce to speak of and with the
// default one.
func BenchmarkDeltaLatency(b *testing.B) {
	for _, debounce := range []time.Duration{time.Millisecond, DefaultDebounce} {
		b.Run("debounce="+debounce.String(), func(b *testing.B) {
			dir := b.TempDir()
			p := filepath.Join(dir, "s.jsonl")
			writeFile(b, p, "")
			h := watch(b, Config{Globs: []string{filepath.Join(dir, "*.jsonl")}, Debounce: debounce})
			time.Sleep(50 * time.Millisecond)
			r, w, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			helper(b, "append", r, "WATCHER_FILE="+p, "WATCHER_N=1000000000")
			r.Close()
			var lat []time.Duration
			for b.Loop() {
				if _, err := w.Write([]byte("\n")); err != nil {
					b.Fatal(err)
				}
				d := h.next()
				got := time.Now()
				data := make([]byte, d.To-d.From)
				if _, err := readAt(p, data, d.From); err != nil {
					b.Fatal(err)
				}
				var v struct{ T int64 }
				last := data[bytes.LastIndexByte(data[:len(data)-1], '\n')+1:]
				if err := json.Unmarshal(last, &v); err != nil {
					b.Fatalf("line %q: %v", last, err)
				}
				lat = append(lat, got.Sub(time.Unix(0, v.T)))
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}

// TestWatchFolderComesBack removes the folder a glob starts from and makes
// it again: the watcher follows without a rescan.
func TestWatchFolderComesBack(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "projects", "-home-me-proj")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(proj, "s.jsonl")
	writeFile(t, p, line("a"))
	h := watch(t, Config{Globs: []string{filepath.Join(proj, "*.jsonl")}})
	h.want(p, 0, size(t, p), NewFile)
	rescans := h.w.rescans.Load()
	if err := os.RemoveAll(filepath.Join(root, "projects")); err != nil {
		t.Fatal(err)
	}
	h.quiet(100 * time.Millisecond)
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, line("b"))
	h.want(p, 0, size(t, p), NewFile)
	if r := h.w.rescans.Load(); r != rescans {
		t.Errorf("%d rescans; the folder was found without one", r-rescans)
	}
}

// A symbolic link where a transcript would be is never read, at the
// first look or when it comes later, nor a folder it points at; the
// transcripts beside it are.
func TestWatchSkipsLinks(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, ".claude", "projects", "-home-me-proj")
	elsewhere := filepath.Join(root, "elsewhere")
	for _, d := range []string{proj, filepath.Join(elsewhere, "subagents")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(elsewhere, "secret.jsonl")
	writeFile(t, secret, line("secret"))
	writeFile(t, filepath.Join(elsewhere, "subagents", "agent-1.jsonl"), line("secret"))
	if err := os.Symlink(secret, filepath.Join(proj, "early.jsonl")); err != nil {
		t.Fatal(err)
	}
	h := watch(t, Config{Globs: []string{filepath.Join(proj, "*.jsonl"), filepath.Join(proj, "*", "subagents", "*.jsonl")}})
	h.quiet(100 * time.Millisecond)
	if err := os.Symlink(secret, filepath.Join(proj, "late.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(proj, "s9")); err != nil {
		t.Fatal(err)
	}
	appendFile(t, secret, line("more"))
	s1 := filepath.Join(proj, "s1.jsonl")
	writeFile(t, s1, line("a"))
	h.want(s1, 0, size(t, s1), NewFile)
	h.w.Rescan()
	h.quiet(150 * time.Millisecond)
}
