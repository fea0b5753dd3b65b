package watcher

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// hookNames are the capture hook's: hook-<digits>-<digits>.json, written
// in place, or as .hook-<digits>-<digits>.tmp first by older scripts.
func hookNames() QueueOptions {
	return QueueOptions{
		Settle:   time.Hour,
		Document: func(name string) bool { return strings.HasPrefix(name, "hook-") && strings.HasSuffix(name, ".json") },
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

// TestDocumentTakenAtOnce: a whole hook payload is taken at once; a file
// under another name written in place still settles.
func TestDocumentTakenAtOnce(t *testing.T) {
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

// TestDocumentWrittenInPlace: a hook payload written in place is taken
// the moment it is whole, not while its writer is still writing; one cut
// short goes to failed/ once its writer is surely gone, one empty is
// removed, and one too large to read whole settles as any other file if
// it ends as a document does, else waits as one cut short.
func TestDocumentWrittenInPlace(t *testing.T) {
	c := newClock()
	opts := hookNames()
	opts.Now, opts.Settle = c.Now, 2*time.Second
	q, _ := testQueue(t, opts)
	const name = "hook-1700000000000000000-42.json"
	p := drop(t, q, name, `{"hook_event_name":"Stop","last_assistant`)
	touch := func(p string) {
		t.Helper()
		if err := os.Chtimes(p, c.Now(), c.Now()); err != nil {
			t.Fatal(err)
		}
	}
	touch(p)
	wantEmpty(t, q)
	ws, err := q.Waiting(context.Background())
	if err != nil || len(ws) != 1 || ws[0].Job != name || ws[0].Reason != WaitWriting || !ws[0].Until.Equal(c.Now().Add(minTempAge)) {
		t.Fatalf("Waiting = %+v, %v", ws, err)
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`_message":"Done."}`)
	f.Close()
	touch(p)
	if j := claim(t, q); j.Origin != name {
		t.Fatalf("claimed %+v", j)
	}
	if ws, err := q.Waiting(context.Background()); err != nil || len(ws) != 1 || ws[0].Reason != WaitClaimed {
		t.Fatalf("Waiting = %+v, %v", ws, err)
	}

	cut := drop(t, q, "hook-1700000000000000001-43.json", `{"hook_event_name":"Sto`)
	empty := drop(t, q, "hook-1700000000000000002-44.json", "")
	big := drop(t, q, "hook-1700000000000000003-45.json", `{"tool_response":"`+strings.Repeat("x", MaxJobSize)+`"}`+"\n")
	bigCut := drop(t, q, "hook-1700000000000000004-46.json", `{"tool_response":"`+strings.Repeat("y", MaxJobSize+10))
	for _, p := range []string{cut, empty, big, bigCut} {
		touch(p)
	}
	wantEmpty(t, q)
	c.Add(opts.Settle)
	if j := claim(t, q); j.Origin != filepath.Base(big) {
		t.Fatalf("claimed %+v", j)
	}
	wantEmpty(t, q) // bigCut does not end as a document: it may be a stalled writer's
	c.Add(minTempAge)
	if j := claim(t, q); j.Origin != filepath.Base(bigCut) {
		t.Fatalf("claimed %+v", j)
	}
	wantEmpty(t, q)
	for _, p := range []string{cut, empty} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is left: %v", filepath.Base(p), err)
		}
	}
	failed, _ := os.ReadDir(q.Dir(Failed))
	if len(failed) != 1 {
		t.Fatalf("failed/ holds %d", len(failed))
	}
	if j, err := q.readJob(q.Dir(Failed), failed[0].Name()); err != nil || j.Origin != filepath.Base(cut) || !strings.Contains(j.LastError, "invalid JSON") {
		t.Errorf("failed: %+v, %v", j, err)
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
