package capture

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/watcher"
)

// Gauges measures a real memory: its queue, its repository and its
// checkpoints.
func TestGauges(t *testing.T) {
	ctx := context.Background()
	m := testMemory(t)
	q, err := Queue(m, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := q.Enqueue(ctx, watcher.Job{Kind: JobHook, Payload: []byte(`{"session_id":"s1","hook_event_name":"Stop"}`)}); err != nil {
			t.Fatal(err)
		}
	}
	ev, err := Gauges(ctx, m)
	if err != nil {
		t.Fatal(err)
	}
	log, err := m.History().Log(ctx, memory.LogOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Kind != metrics.KindGauge || ev.Queue != 2 || ev.Commits != len(log) || ev.Commits == 0 || ev.RepoBytes == 0 {
		t.Fatalf("gauges %+v (%d commits)", ev, len(log))
	}
}

// A job worked records a capture event: its kind, bytes and events.
func TestRunJobRecords(t *testing.T) {
	ctx := context.Background()
	m := testMemory(t)
	q, err := Queue(m, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	payload := `{"session_id":"sess-metrics","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"Rename the flag."}`
	if _, err := q.Enqueue(ctx, watcher.Job{Kind: JobHook, Payload: []byte(payload)}); err != nil {
		t.Fatal(err)
	}
	j, err := q.Claim(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunJob(ctx, m, q, nil, j); err != nil {
		t.Fatal(err)
	}
	evs, err := metrics.Read(ctx, m.StatePath(""), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var got []metrics.Event
	for _, e := range evs {
		if e.Kind == metrics.KindCapture {
			got = append(got, e)
		}
	}
	if len(got) != 1 || got[0].Name != JobHook || got[0].Events != 1 || got[0].Bytes < int64(len(payload))-10 || got[0].MS <= 0 {
		t.Fatalf("capture events %+v", got)
	}
}

// An inbox file's job whose file went back to the inbox before the job
// was written (a daemon's start-up Recover beside a session start that
// was adopting it) is done with nothing to do, not retried for minutes
// and then failed: the file is taken again from the inbox, and captured
// once.
func TestRunJobFileTakenBack(t *testing.T) {
	ctx := context.Background()
	m := testMemory(t)
	q, err := Queue(m, watcher.QueueOptions{Settle: -1})
	if err != nil {
		t.Fatal(err)
	}
	payload := `{"session_id":"sess-takenback","cwd":"/tmp","hook_event_name":"UserPromptSubmit","prompt":"Rename the flag."}`
	name := filepath.Join(m.Dir, "inbox", "hook-1-1.json")
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(payload), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := q.Claim(ctx)
	if err != nil || j.Kind != watcher.KindInboxFile {
		t.Fatalf("claim: %+v, %v", j, err)
	}
	// What Recover's recoverFiles does with a file no job names yet.
	if err := os.Rename(q.Attachment(j), name); err != nil {
		t.Fatal(err)
	}
	if _, err := RunJob(ctx, m, q, nil, j); err != nil {
		t.Fatalf("the job whose file went back: %v", err)
	}
	again, err := q.Claim(ctx)
	if err != nil || again.Origin != "hook-1-1.json" {
		t.Fatalf("claim the file taken back: %+v, %v", again, err)
	}
	if _, err := RunJob(ctx, m, q, nil, again); err != nil {
		t.Fatal(err)
	}
	if st, err := q.Status(ctx); err != nil || st != (watcher.Status{}) {
		t.Errorf("queue %+v, %v; want it empty, nothing failed", st, err)
	}
	if b := readRepo(t, m, "sessions/sess-takenback/prompts.md"); !strings.Contains(b, "Rename the flag.") {
		t.Errorf("prompts.md: %q", b)
	}
}
