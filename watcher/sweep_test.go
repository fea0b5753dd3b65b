package watcher

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// hookNames are the capture hook's: hook-<digits>-<digits>.json, written
// as .hook-<digits>-<digits>.tmp first.
func hookNames() QueueOptions {
	return QueueOptions{
		Settle:  time.Hour,
		Renamed: func(name string) bool { return strings.HasPrefix(name, "hook-") && strings.HasSuffix(name, ".json") },
		Staged: func(name string) (string, bool) {
			stem, ok := strings.CutPrefix(name, ".hook-")
			if !ok {
				return "", false
			}
			stem, ok = strings.CutSuffix(stem, ".tmp")
			return "hook-" + stem + ".json", ok
		},
	}
}

// TestRenamedTakenAtOnce: a file under a name that only ever arrives by
// rename is taken at once; one written in place still settles.
func TestRenamedTakenAtOnce(t *testing.T) {
	q, _ := testQueue(t, hookNames())
	drop(t, q, "notes.md", "being written")
	drop(t, q, "hook-1700000000000000000-42.json", `{"hook_event_name":"Stop"}`)
	j := claim(t, q)
	if j.Kind != KindInboxFile || j.Origin != "hook-1700000000000000000-42.json" {
		t.Fatalf("claimed %+v", j)
	}
	wantEmpty(t, q)
	ws, err := q.Waiting(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 2 || ws[0].Reason != WaitSettle || ws[0].Job != "notes.md" || ws[1].Reason != WaitClaimed || ws[1].Job != j.ID {
		t.Fatalf("Waiting = %+v", ws)
	}
	if !strings.Contains(ws[0].String(), "notes.md: written in place") {
		t.Errorf("%q", ws[0].String())
	}
}

// TestWaitingRetry: a failed job says when it is tried again, and why.
func TestWaitingRetry(t *testing.T) {
	c := newClock()
	q, _ := testQueue(t, QueueOptions{Now: c.Now})
	enqueue(t, q, "hook", `{}`)
	j := claim(t, q)
	if err := q.Fail(j, errors.New("disk on fire")); err != nil {
		t.Fatal(err)
	}
	ws, err := q.Waiting(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 1 || ws[0].Reason != WaitRetry || !ws[0].Until.Equal(j.NotBefore) || ws[0].Attempts != 1 {
		t.Fatalf("Waiting = %+v", ws)
	}
	if s := ws[0].String(); !strings.Contains(s, "retried at") || !strings.Contains(s, "disk on fire") {
		t.Errorf("%q", s)
	}
}

// TestSweep: the temporary files of killed writers older than a minute
// are removed when empty or cut short, renamed when complete; a young one
// is left to its writer.
func TestSweep(t *testing.T) {
	q, _ := testQueue(t, hookNames())
	old := time.Now().Add(-2 * time.Minute)
	files := map[string]string{
		".hook-1-1.tmp":   "",
		".hook-2-1.tmp":   `{"hook_event_name":"Stop","session_id":`,
		".hook-3-1.tmp":   `{"hook_event_name":"SessionEnd","session_id":"s1"}`,
		".hook-4-1.tmp":   "", // young
		".other-tmp":      "",
		".hook-5-1.tmp-x": "",
	}
	for name, body := range files {
		p := drop(t, q, name, body)
		if name != ".hook-4-1.tmp" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	n, err := q.Sweep(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n != (Swept{Rescued: 1, Removed: 2}) {
		t.Errorf("Sweep = %+v", n)
	}
	got := ls(t, q.Dir(Pending))
	want := []string{".hook-4-1.tmp", ".hook-5-1.tmp-x", ".other-tmp", "hook-3-1.json"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("inbox holds %v, want %v", got, want)
	}
	data, err := os.ReadFile(filepath.Join(q.Dir(Pending), "hook-3-1.json"))
	if err != nil || string(data) != files[".hook-3-1.tmp"] {
		t.Fatalf("rescued payload = %q, %v", data, err)
	}
	if j := claim(t, q); j.Origin != "hook-3-1.json" {
		t.Fatalf("claimed %+v", j)
	}
}
