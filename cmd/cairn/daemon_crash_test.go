package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/watcher"
)

// The daemon is killed (SIGKILL) at random instants while the transcript it
// follows grows in chunks, some cut mid-line, and restarted each time.
// Afterwards the memory's history is sound, every prompt is in the
// session's prompts.md exactly once, and the session's files are those one
// clean ingest of the whole transcript makes.
func TestDaemonCrashDuringCapture(t *testing.T) {
	t.Parallel()
	rounds, prompts := 7, 160
	if testing.Short() {
		rounds, prompts = 3, 80
	}
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 7))
	t.Logf("seed %d", seed)

	p := project(t)
	ok(t, p, "init")
	mem := filepath.Join(p, ".cairn")
	home := os.Getenv("HOME")

	// A long session: each prompt followed by a reply and tool calls.
	id := "d43e0c7a-0000-4000-8000-00000000c0de"
	w := &claudeWriter{session: id, cwd: p, t0: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}
	var asked []string
	for i := 0; i < prompts; i++ {
		q := fmt.Sprintf("[prompt %04d] The retry queue loses job %d when the worker restarts; find out why.", i, i)
		asked = append(asked, q)
		w.prompt(q)
		w.say(fmt.Sprintf("I'll read internal/queue/part%d.go first. We decided to keep retries in PostgreSQL so that job %d survives.", i%17, i))
		w.bash("go test ./internal/queue/", strings.Repeat("=== RUN   TestRetry\n", 20)+"--- FAIL: TestRetry\nFAIL", 1)
		w.bash("go test ./internal/queue/", "ok  \tgithub.com/acme/tidepool/internal/queue\t0.41s", 0)
		w.say(fmt.Sprintf("Fixed: job %d is now written before the worker acknowledges it.", i))
	}
	// The session ends with a prompt: what follows the last prompt is
	// not held back as a turn that may go on.
	last := fmt.Sprintf("[prompt %04d] Thanks, that is all for today.", prompts)
	asked = append(asked, last)
	w.prompt(last)
	data := []byte(strings.Join(w.lines, "\n") + "\n")

	// Cut it into chunks at random offsets, most of them inside a line.
	var cuts []int
	for off := 0; off < len(data); {
		off += 2000 + rng.IntN(12000)
		cuts = append(cuts, min(off, len(data)))
	}
	name := filepath.Join(home, ".claude", "projects", follow.ClaudeProjectName(p), id+".jsonl")
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()

	// The writer appends the chunks over the rounds, daemon up or down.
	span := time.Duration(rounds) * 1500 * time.Millisecond
	wrote := make(chan error, 1)
	go func() {
		prev := 0
		for _, c := range cuts {
			if _, err := f.Write(data[prev:c]); err != nil {
				wrote <- err
				return
			}
			prev = c
			time.Sleep(span / time.Duration(len(cuts)))
		}
		wrote <- nil
	}()

	logs := filepath.Join(t.TempDir(), "daemon.log")
	logf, err := os.Create(logs)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	start := func() *exec.Cmd {
		cmd := cairnProc(p, "", "daemon", "run")
		cmd.Stdout, cmd.Stderr = logf, logf
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	dumpLog := func() {
		b, _ := os.ReadFile(logs)
		t.Logf("daemon log:\n%s", b)
	}
	// How often a kill fell inside a job: a capture journal or a claimed
	// job left behind.
	killed, midBatch, midJob, stranded := 0, 0, 0, 0
	processing := filepath.Join(mem, ".state", "queue", "processing")
	journal := filepath.Join(mem, ".state", "capture", "journal.json")
	for r := 0; r < rounds; r++ {
		d := start()
		switch r % 3 {
		case 0:
			// At a random instant.
			time.Sleep(300*time.Millisecond + time.Duration(rng.IntN(1700))*time.Millisecond)
		case 1:
			// Inside a batch's writes: once its journal is there.
			for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end); {
				if _, err := os.Stat(journal); err == nil {
					break
				}
				time.Sleep(100 * time.Microsecond)
			}
			time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
		default:
			// Inside a job: once one is claimed, a few milliseconds on
			// (jobs are short; a random instant rarely falls in one).
			before := map[string]bool{}
			es, _ := os.ReadDir(processing)
			for _, e := range es {
				before[e.Name()] = true
			}
		wait:
			for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end); {
				es, _ := os.ReadDir(processing)
				for _, e := range es {
					if !before[e.Name()] {
						break wait
					}
				}
				time.Sleep(200 * time.Microsecond)
			}
			time.Sleep(time.Duration(rng.IntN(150000)) * time.Microsecond)
		}
		if err := d.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatalf("round %d: kill: %v", r, err)
		}
		if err := d.Wait(); err == nil {
			dumpLog()
			t.Fatalf("round %d: the daemon exited by itself", r)
		}
		killed++
		if _, err := os.Stat(journal); err == nil {
			midBatch++
		}
		if es, _ := os.ReadDir(processing); len(es) > stranded {
			midJob++
			stranded = len(es)
		}
		fmt.Fprintf(logf, "--- killed (round %d)\n", r)
		gitc(t, mem, "fsck", "--full", "--strict", "--no-dangling")
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}

	// The last daemon runs until the queue is empty and every prompt is in.
	d := start()
	exited := make(chan error, 1)
	go func() { exited <- d.Wait() }()
	promptsFile := filepath.Join(mem, "sessions", id, "prompts.md")
	deadline := time.Now().Add(20 * time.Second)
	var st struct{ Pending, Processing, Failed int }
	for {
		select {
		case err := <-exited:
			dumpLog()
			t.Fatalf("the last daemon exited: %v", err)
		case <-time.After(200 * time.Millisecond):
		}
		if err := json.Unmarshal([]byte(ok(t, p, "queue", "status", "--json")), &st); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(promptsFile)
		if st.Pending == 0 && bytes.Contains(b, []byte(last)) {
			break
		}
		if time.Now().After(deadline) {
			dumpLog()
			t.Fatalf("after 20s: queue %+v, prompts.md has %d bytes", st, len(b))
		}
	}
	ok(t, p, "daemon", "stop")
	if err := <-exited; err != nil {
		dumpLog()
		t.Fatalf("daemon stop: the daemon exited with %v", err)
	}
	t.Logf("%d kills (%d left a capture journal, %d a claimed job), %d chunks of %d bytes; queue at the end: %+v",
		killed, midBatch, midJob, len(cuts), len(data), st)
	if st.Failed > 0 {
		t.Errorf("%d failed jobs: %s", st.Failed, ok(t, p, "queue", "list", "--state", "failed"))
	}

	// Each daemon's start-up took back the jobs the kill before it left
	// claimed, as abandoned, not failed: the job a restarted daemon claims
	// first is the one the next kill is likely to find in flight again.
	// Whatever is still claimed is taken back now and run late; its range
	// was captured again from the cursors meanwhile, so it changes nothing.
	head := gitc(t, mem, "rev-parse", "HEAD")
	m, err := memory.Open(context.Background(), mem, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := capture.Queue(m, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	late, err := q.Recover(context.Background(), 0)
	m.Close()
	if err != nil {
		t.Fatal(err)
	}
	if r := cairn(t, p, "", "queue", "run"); r.code != 0 {
		t.Errorf("queue run of %d abandoned jobs: exit %d\n%s%s", late, r.code, r.stdout, r.stderr)
	}
	if h := gitc(t, mem, "rev-parse", "HEAD"); h != head {
		t.Errorf("%d abandoned jobs run late committed %s", late, gitc(t, mem, "show", "--stat", "HEAD"))
	}
	t.Logf("%d abandoned jobs run late", late)

	gitc(t, mem, "fsck", "--full", "--strict", "--no-dangling")
	checkGit(t, p)

	// Each prompt exactly once.
	got := gitc(t, mem, "show", "HEAD:sessions/"+id+"/prompts.md")
	for _, q := range asked {
		if n := strings.Count(got, q[:len("[prompt 0000]")]); n != 1 {
			t.Errorf("%q is in prompts.md %d times", q[:len("[prompt 0000]")], n)
		}
	}

	// The same files as one clean ingest of the whole transcript, but for
	// two things incremental capture does by design: observations.md has
	// a heading per capture batch (the batches depend on the chunks and
	// the kills), so its observation lines are compared; and the last
	// segment's summary waits until the transcript has been idle for
	// server.IdleTranscript (a minute), so summary.md must be what a clean
	// ingest makes up to its last segment.
	whole := filepath.Join(t.TempDir(), id+".jsonl")
	if err := os.WriteFile(whole, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ref := project(t)
	ok(t, ref, "init")
	ok(t, ref, "ingest", whole)
	for _, file := range []string{"prompts.md", "transcript.md", "observations.md", "summary.md"} {
		want := gitc(t, filepath.Join(ref, ".cairn"), "show", "HEAD:sessions/"+id+"/"+file)
		got := gitc(t, mem, "show", "HEAD:sessions/"+id+"/"+file)
		switch file {
		case "observations.md":
			got, want = withoutHeadings(got), withoutHeadings(want)
		case "summary.md":
			if i := strings.LastIndex(want, "\n## Segment "); i > 0 && len(got) < len(want) && len(got) >= i-1 {
				want = want[:i]
			}
			if !strings.Contains(got, "## Segment ") {
				t.Errorf("summary.md has no segment:\n%s", got)
			}
		}
		if got != want {
			t.Errorf("%s differs from one clean ingest (%d bytes, want %d)\n%s", file, len(got), len(want), firstDiff(got, want))
		}
	}
}

// withoutHeadings drops the headings and blank lines of a Markdown file.
func withoutHeadings(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n got  %.200q\n want %.200q", i+1, a, b)
		}
	}
	return ""
}
