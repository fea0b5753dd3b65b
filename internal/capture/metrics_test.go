package capture

import (
	"context"
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
