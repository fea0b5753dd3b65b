package metrics

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func readAll(t *testing.T, state string) []Event {
	t.Helper()
	evs, err := Read(context.Background(), state, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// lines returns every line of every file of the log, checking that each
// is a whole event.
func lines(t *testing.T, state string) int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(state, Dir, "events*.jsonl"))
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
			if _, ok := decode([]byte(line)); !ok {
				t.Fatalf("%s line %d is not an event: %q", f, i+1, line)
			}
			n++
		}
	}
	return n
}

func TestRecordRead(t *testing.T) {
	state := t.TempDir()
	l := Open(state)
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	want := []Event{
		{Time: at, Kind: KindSummary, Provider: "anthropic", Model: "claude-haiku-4-5", TokensIn: 1200, TokensOut: 300, MS: 812.5},
		{Time: at.Add(time.Minute), Kind: KindPack, Name: "session-start", Tokens: 1500, Budget: 2000, Items: 12, LeftOut: 3, MS: 4.2},
		{Time: at.Add(2 * time.Minute), Kind: KindSearch, Mode: "hybrid", Hits: 8, MS: 3.1},
		{Time: at.Add(3 * time.Minute), Kind: KindCapture, Name: "transcript-delta", Events: 4, Bytes: 5120, MS: 950},
		{Time: at.Add(4 * time.Minute), Kind: KindGauge, Queue: 2, IndexBytes: 1 << 20, RepoBytes: 3 << 20, Commits: 42},
	}
	for _, e := range want {
		l.Record(context.Background(), e)
	}
	got := readAll(t, state)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("read back\n%v\nwant\n%v", got, want)
	}
	since, err := Read(context.Background(), state, at.Add(2*time.Minute))
	if err != nil || len(since) != 3 {
		t.Fatalf("since: %d events, %v; want 3", len(since), err)
	}
	for name, mode := range map[string]fs.FileMode{Dir: 0o700 | fs.ModeDir, filepath.Join(Dir, current): 0o600} {
		fi, err := os.Stat(filepath.Join(state, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != mode {
			t.Errorf("%s: mode %v, want %v", name, fi.Mode(), mode)
		}
	}
}

func TestReadMissing(t *testing.T) {
	if evs := readAll(t, t.TempDir()); len(evs) != 0 {
		t.Fatalf("a missing log has %d events", len(evs))
	}
}

// Strings that are not short names never reach the file.
func TestClean(t *testing.T) {
	tests := []struct{ in, want string }{
		{"anthropic", "anthropic"},
		{"gpt-4o-mini", "gpt-4o-mini"},
		{"org/model:v1.2@x+y_z", "org/model:v1.2@x+y_z"},
		{"the deploy key is in vault", "other"},
		{"line\nbreak", "other"},
		{`quote"s`, "other"},
		{"naïve", "other"},
		{strings.Repeat("a", maxField+1), "other"},
		{"", ""},
	}
	for _, tt := range tests {
		e := Event{Provider: tt.in, Model: tt.in, Name: tt.in, Mode: tt.in, Kind: Kind(tt.in), TokensIn: -5, Hits: -1, MS: -3}
		e.clean()
		for _, s := range []string{e.Provider, e.Model, e.Name, e.Mode, string(e.Kind)} {
			if s != tt.want {
				t.Errorf("clean(%q) = %q, want %q", tt.in, s, tt.want)
			}
		}
		if e.TokensIn != 0 || e.Hits != 0 || e.MS != 0 {
			t.Errorf("negative numbers kept: %+v", e)
		}
	}
}

func TestConcurrentGoroutines(t *testing.T) {
	state := t.TempDir()
	l := Open(state)
	const workers, each = 8, 300
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				l.Record(context.Background(), Event{Kind: KindSearch, Mode: "keyword", Hits: w, Events: i})
			}
		})
	}
	wg.Wait()
	if n := lines(t, state); n != workers*each {
		t.Fatalf("%d lines, want %d", n, workers*each)
	}
	seen := map[[2]int]bool{}
	for _, e := range readAll(t, state) {
		seen[[2]int{e.Hits, e.Events}] = true
	}
	if len(seen) != workers*each {
		t.Fatalf("%d distinct events, want %d", len(seen), workers*each)
	}
}

// TestTwoProcesses appends from two processes at once (this test binary
// run again) into a log small enough to rotate, and checks that every
// line of every file is whole.
func TestTwoProcesses(t *testing.T) {
	if state := os.Getenv("CAIRN_METRICS_HELPER"); state != "" {
		n, _ := strconv.Atoi(os.Getenv("CAIRN_METRICS_N"))
		l := Open(state)
		l.MaxBytes, l.MaxFiles = 64<<10, 100
		for i := range n {
			l.Record(context.Background(), Event{Kind: KindCapture, Name: "hook", Events: i, Bytes: int64(os.Getpid())})
		}
		return
	}
	state := t.TempDir()
	const procs, each = 2, 2000
	var cmds []*exec.Cmd
	for range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestTwoProcesses$")
		cmd.Env = append(os.Environ(), "CAIRN_METRICS_HELPER="+state, "CAIRN_METRICS_N="+strconv.Itoa(each))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if t.Failed() {
				t.Log(out.String())
			}
		})
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if n := lines(t, state); n != procs*each {
		t.Fatalf("%d lines, want %d", n, procs*each)
	}
	files, _ := filepath.Glob(filepath.Join(state, Dir, rotPrefix+"*"))
	if len(files) == 0 {
		t.Fatal("no rotation happened: the test did not race rotation against appends")
	}
	per := map[int64]int{}
	for _, e := range readAll(t, state) {
		per[e.Bytes]++
	}
	for pid, n := range per {
		if n != each {
			t.Errorf("process %d: %d events, want %d", pid, n, each)
		}
	}
}

func TestRotation(t *testing.T) {
	state := t.TempDir()
	l := Open(state)
	l.MaxBytes, l.MaxFiles = 1024, 2
	const n = 200
	for i := range n {
		l.Record(context.Background(), Event{Kind: KindSearch, Mode: "hybrid", Hits: i})
	}
	rot, err := rotated(filepath.Join(state, Dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(rot) != 2 {
		t.Fatalf("rotated files %v, want 2", rot)
	}
	var size int64
	files, _ := filepath.Glob(filepath.Join(state, Dir, "events*.jsonl"))
	for _, f := range files {
		fi, _ := os.Stat(f)
		size += fi.Size()
	}
	if max := int64(l.MaxFiles+1)*l.MaxBytes + 200; size > max {
		t.Fatalf("log holds %d bytes, more than %d", size, max)
	}
	evs := readAll(t, state)
	if len(evs) == 0 || evs[len(evs)-1].Hits != n-1 {
		t.Fatalf("the newest event is not kept: %v", evs)
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Hits != evs[i-1].Hits+1 {
			t.Fatalf("events out of order or missing in what is kept: %d after %d", evs[i].Hits, evs[i-1].Hits)
		}
	}
}

// A line a crash cut short costs that event only, also when the next
// process appends after it.
func TestTruncatedLine(t *testing.T) {
	state := t.TempDir()
	l := Open(state)
	l.Record(context.Background(), Event{Kind: KindSearch, Hits: 1})
	path := filepath.Join(state, Dir, current)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"t":"2026-11-30T10:00:00Z","kind":"search","hi`)
	f.Close()
	if got := readAll(t, state); len(got) != 1 {
		t.Fatalf("with a cut last line: %d events, want 1", len(got))
	}
	l.Record(context.Background(), Event{Kind: KindSearch, Hits: 3})
	got := readAll(t, state)
	if len(got) != 2 || got[0].Hits != 1 || got[1].Hits != 3 {
		t.Fatalf("after appending past the cut: %v", got)
	}
}

// Recording never fails the caller: a log that cannot be written drops
// the event and says so in one debug line.
func TestRecordFails(t *testing.T) {
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, Dir), []byte("a file where the folder goes"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	l := Open(state)
	l.Logger = slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug}))
	for range 3 {
		l.Record(context.Background(), Event{Kind: KindSearch})
	}
	if n := strings.Count(out.String(), "\n"); n != 1 {
		t.Fatalf("%d debug lines, want 1:\n%s", n, out.String())
	}
	var nilLog *Log
	nilLog.Record(context.Background(), Event{Kind: KindSearch})
}

func TestSampler(t *testing.T) {
	state := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	s := Sampler{Log: Open(state), First: time.Millisecond, Every: time.Millisecond, Sample: func(context.Context) (Event, error) {
		if n++; n == 3 {
			cancel()
		}
		if n == 2 {
			return Event{}, fmt.Errorf("no sample")
		}
		return Event{Kind: KindSearch, Commits: n, RepoBytes: 1000}, nil
	}}
	if err := s.Serve(ctx); err != nil {
		t.Fatal(err)
	}
	evs := readAll(t, state)
	if len(evs) != 2 || evs[0].Kind != KindGauge || evs[0].Commits != 1 || evs[1].Commits != 3 {
		t.Fatalf("samples %v", evs)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"t":"2026-11-30T10:00:00Z","kind":"search","hits":3}` + "\n"))
	f.Add([]byte(`{"t":"2026-11-30T10:00:00Z","kind":"pa{"t":"2026-11-30T10:00:01Z","kind":"pack","tokens":9}` + "\n"))
	f.Add([]byte("\n\n{\"t\":null}\n{"))
	f.Add([]byte(`{"t":"2026-11-30T10:00:00Z","kind":"gauge","provider":"a b c","ms":-1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		n := 0
		Parse(data, func(e Event) {
			n++
			if e.Time.IsZero() || !known(e.Kind) {
				t.Fatalf("parsed a non-event: %+v", e)
			}
			for _, s := range []string{e.Name, e.Provider, e.Model, e.Mode} {
				if name(s) != s {
					t.Fatalf("field %q is not a name", s)
				}
			}
		})
		if lines := bytes.Count(data, []byte("\n")) + 1; n > lines {
			t.Fatalf("%d events from %d lines", n, lines)
		}
	})
}

// BenchmarkRecord is what one event costs its caller; BenchmarkPlainWrite
// is an open, write and close of the same line without metrics around it.
func BenchmarkRecord(b *testing.B) {
	l := Open(b.TempDir())
	l.MaxBytes = 1 << 30 // measure appends, not rotation
	ev := Event{Kind: KindSearch, Mode: "hybrid", Hits: 8, MS: 3.25}
	for b.Loop() {
		l.Record(context.Background(), ev)
	}
}

func BenchmarkPlainWrite(b *testing.B) {
	path := filepath.Join(b.TempDir(), "plain.jsonl")
	line := []byte(`{"t":"2026-11-30T10:00:00.123456789Z","kind":"search","mode":"hybrid","ms":3.25,"hits":8}` + "\n")
	for b.Loop() {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			b.Fatal(err)
		}
		f.Write(line)
		f.Close()
	}
}
