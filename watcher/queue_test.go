package watcher

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func enqueue(t testing.TB, q *Queue, kind string, payload string) *Job {
	t.Helper()
	j, err := q.Enqueue(context.Background(), Job{Kind: kind, Payload: json.RawMessage(payload)})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func claim(t testing.TB, q *Queue) *Job {
	t.Helper()
	j, err := q.Claim(context.Background())
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	return j
}

func wantEmpty(t testing.TB, q *Queue) {
	t.Helper()
	if j, err := q.Claim(context.Background()); !errors.Is(err, ErrEmpty) {
		t.Fatalf("Claim = %+v, %v; want ErrEmpty", j, err)
	}
}

func TestQueueOrderAndDone(t *testing.T) {
	c := newClock()
	q, _ := testQueue(t, QueueOptions{Now: c.Now})
	var ids []string
	for i := range 3 {
		ids = append(ids, enqueue(t, q, "hook", fmt.Sprintf(`{"n":%d}`, i)).ID)
		c.Add(time.Millisecond)
	}
	if got := ls(t, q.Dir(Pending)); !slices.Equal(got, []string{ids[0] + ".json", ids[1] + ".json", ids[2] + ".json"}) {
		t.Fatalf("inbox holds %v", got)
	}
	for i := range 3 {
		j := claim(t, q)
		if j.ID != ids[i] || j.State != Processing || string(j.Payload) == "" {
			t.Fatalf("claim %d: got %+v, want id %s in processing", i, j, ids[i])
		}
		if err := q.Done(j); err != nil {
			t.Fatal(err)
		}
		if err := q.Done(j); !errors.Is(err, ErrLost) {
			t.Fatalf("second Done: %v, want ErrLost", err)
		}
	}
	wantEmpty(t, q)
	for _, s := range []State{Pending, Processing, Failed, Dropped} {
		if got := ls(t, q.Dir(s)); len(got) != 0 {
			t.Errorf("%s holds %v after all jobs were done", s, got)
		}
	}
}

func TestEnqueueRejectsInvalid(t *testing.T) {
	q, _ := testQueue(t, QueueOptions{})
	for _, j := range []Job{
		{},
		{Kind: "k", Payload: json.RawMessage(`1`), Pointer: &Range{Path: "/a"}},
		{Kind: "k", Pointer: &Range{Path: "rel/a"}},
		{Kind: KindInboxFile, Pointer: &Range{Path: "/etc/passwd"}},
	} {
		if _, err := q.Enqueue(context.Background(), j); err == nil {
			t.Errorf("Enqueue(%+v) succeeded", j)
		}
	}
	if got := ls(t, q.Dir(Pending)); len(got) != 0 {
		t.Errorf("inbox holds %v", got)
	}
}

func TestQueueIgnoresHiddenFiles(t *testing.T) {
	q, _ := testQueue(t, QueueOptions{Settle: -1})
	for _, name := range []string{".01JDXK3V9M2Q7Y8Z4T6R5W1HBC.json" + tmpMark + "0011", ".partial.json", ".DS_Store", `..\..\evil.md`} {
		if err := os.WriteFile(filepath.Join(q.Dir(Pending), name), []byte(`{"kind":"hook"}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	wantEmpty(t, q)
	st, err := q.Status(context.Background())
	if err != nil || st.Pending != 0 {
		t.Fatalf("Status = %+v, %v; want no pending job", st, err)
	}
	if got := ls(t, q.Dir(Pending)); len(got) != 4 {
		t.Errorf("hidden files were touched: inbox holds %v", got)
	}
}

func TestFailBackoffRetryDrop(t *testing.T) {
	c := newClock()
	q, _ := testQueue(t, QueueOptions{Now: c.Now, MaxAttempts: 3})
	id := enqueue(t, q, "hook", `{}`).ID

	j := claim(t, q)
	if err := q.Fail(j, errors.New("summariser said 500")); err != nil {
		t.Fatal(err)
	}
	if j.State != Pending || j.Attempts != 1 || j.LastError != "summariser said 500" || !j.NotBefore.Equal(c.Now().Add(5*time.Second)) {
		t.Fatalf("after Fail: %+v", j)
	}
	wantEmpty(t, q) // backing off
	c.Add(5 * time.Second)
	j = claim(t, q)
	if j.ID != id || j.Attempts != 1 {
		t.Fatalf("claimed %+v after the backoff", j)
	}
	if err := q.Fail(j, errors.New("again")); err != nil {
		t.Fatal(err)
	}
	c.Add(10 * time.Second)
	j = claim(t, q)
	if err := q.Fail(j, errors.New("third time")); err != nil {
		t.Fatal(err)
	}
	if j.State != Failed || j.Attempts != 3 {
		t.Fatalf("after the last attempt: %+v", j)
	}
	c.Add(time.Hour)
	wantEmpty(t, q)
	failed, err := q.List(context.Background(), Failed)
	if err != nil || len(failed) != 1 || failed[0].ID != id || failed[0].LastError != "third time" {
		t.Fatalf("List(Failed) = %+v, %v", failed, err)
	}

	if err := q.Retry(id); err != nil {
		t.Fatal(err)
	}
	j = claim(t, q)
	if j.ID != id || j.Attempts != 0 {
		t.Fatalf("retried job claimed as %+v", j)
	}
	for range 3 {
		if err := q.Fail(j, errors.New("no")); err != nil {
			t.Fatal(err)
		}
		c.Add(time.Hour)
		if j.State == Pending {
			j = claim(t, q)
		}
	}
	if err := q.Drop(id); err != nil {
		t.Fatal(err)
	}
	if err := q.Drop(id); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("second Drop: %v, want ErrNotExist", err)
	}
	if err := q.Retry(id); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Retry of a dropped job: %v, want ErrNotExist", err)
	}
	if got := ls(t, q.Dir(Dropped)); !slices.Equal(got, []string{id + ".json"}) {
		t.Errorf("dropped/ holds %v", got)
	}
	for _, bad := range []string{"", "../../etc/passwd", "01jdxk3v9m2q7y8z4t6r5w1hbc", id + "/.."} {
		if err := q.Retry(bad); err == nil || !strings.Contains(err.Error(), "not a job id") {
			t.Errorf("Retry(%q) = %v", bad, err)
		}
		if err := q.Drop(bad); err == nil {
			t.Errorf("Drop(%q) succeeded", bad)
		}
	}
}

func TestRecover(t *testing.T) {
	c := newClock()
	q, _ := testQueue(t, QueueOptions{Now: c.Now, MaxAbandoned: 2})
	ctx := context.Background()
	id := enqueue(t, q, "hook", `{}`).ID
	c.Add(time.Hour) // created long ago, claimed now
	claim(t, q)
	if n, err := q.Recover(ctx, RecoverAfter); n != 0 || err != nil {
		t.Fatalf("Recover of a fresh claim = %d, %v", n, err)
	}
	c.Add(RecoverAfter)
	if n, err := q.Recover(ctx, RecoverAfter); n != 1 || err != nil {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	j := claim(t, q)
	if j.ID != id || j.Abandoned != 1 || j.Attempts != 0 || !strings.Contains(j.LastError, "abandoned in processing for 5m0s") {
		t.Fatalf("recovered job: %+v", j)
	}
	c.Add(RecoverAfter)
	if n, err := q.Recover(ctx, RecoverAfter); n != 1 || err != nil {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	wantEmpty(t, q)
	if got := ls(t, q.Dir(Failed)); !slices.Equal(got, []string{id + ".json"}) {
		t.Fatalf("a job abandoned MaxAbandoned times is not in failed/: %v", got)
	}
}

// TestRecoverKilledWorker kills a worker process between its claim and its
// Done: Recover brings the job back.
func TestRecoverKilledWorker(t *testing.T) {
	q, mem := testQueue(t, QueueOptions{Settle: -1})
	ctx := context.Background()
	want := enqueue(t, q, "hook", `{"x":1}`)
	cmd, out := helper(t, "claim-hang", nil, "WATCHER_INBOX="+q.Dir(Pending), "WATCHER_ROOT="+filepath.Join(mem, ".state", "queue"))
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(line); got != want.ID {
		t.Fatalf("worker claimed %q, want %q", got, want.ID)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	wantEmpty(t, q) // held by the dead worker
	if n, err := q.Recover(ctx, RecoverAfter); n != 0 || err != nil {
		t.Fatalf("Recover(5m) right after the kill = %d, %v", n, err)
	}
	if n, err := q.Recover(ctx, 0); n != 1 || err != nil {
		t.Fatalf("Recover(0) = %d, %v", n, err)
	}
	j := claim(t, q)
	if j.ID != want.ID || j.Abandoned != 1 || j.Attempts != 0 || j.Key() != want.Key() {
		t.Fatalf("recovered %+v, want %+v abandoned once, with no attempt", j, want)
	}
	if err := q.Done(j); err != nil {
		t.Fatal(err)
	}
	wantEmpty(t, q)
}

// TestRecoverKilledWorkerOften kills the worker holding one job more
// times than MaxAttempts, as a daemon restarted again and again does to the
// job it claims first after each start-up: the deaths are not the job's
// failures, and it is still there to finish.
func TestRecoverKilledWorkerOften(t *testing.T) {
	q, mem := testQueue(t, QueueOptions{Settle: -1})
	ctx := context.Background()
	want := enqueue(t, q, "hook", `{"x":1}`)
	for i := 0; i < DefaultMaxAttempts+2; i++ {
		cmd, out := helper(t, "claim-hang", nil, "WATCHER_INBOX="+q.Dir(Pending), "WATCHER_ROOT="+filepath.Join(mem, ".state", "queue"))
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			_ = cmd.Wait()
			t.Fatalf("kill %d: the worker claimed nothing (%v); failed/ holds %v", i+1, err, ls(t, q.Dir(Failed)))
		}
		if got := strings.TrimSpace(line); got != want.ID {
			t.Fatalf("kill %d: worker claimed %q, want %q", i+1, got, want.ID)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if n, err := q.Recover(ctx, 0); n != 1 || err != nil {
			t.Fatalf("kill %d: Recover(0) = %d, %v", i+1, n, err)
		}
	}
	if got := ls(t, q.Dir(Failed)); len(got) != 0 {
		t.Fatalf("a job whose worker was killed %d times went to failed/: %v", DefaultMaxAttempts+2, got)
	}
	j := claim(t, q)
	if j.ID != want.ID || j.Attempts != 0 {
		t.Fatalf("recovered %+v, want %s with no attempt", j, want.ID)
	}
	if err := q.Done(j); err != nil {
		t.Fatal(err)
	}
	wantEmpty(t, q)
}

// TestRecoverPoisonJob: a job that stops its worker every time goes to
// failed/ at MaxAbandoned, whatever its attempts; abandonments and failed
// attempts are counted apart, each against its own limit, and Retry
// resets both.
func TestRecoverPoisonJob(t *testing.T) {
	c := newClock()
	q, _ := testQueue(t, QueueOptions{Now: c.Now, MaxAttempts: 3, MaxAbandoned: 4})
	ctx := context.Background()
	id := enqueue(t, q, "hook", `{}`).ID

	// One failure, then abandonments up to one short of the limit, then
	// another failure: neither count reaches its limit.
	if err := q.Fail(claim(t, q), errors.New("summariser said 500")); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		c.Add(time.Hour) // past any backoff
		claim(t, q)
		if n, err := q.Recover(ctx, 0); n != 1 || err != nil {
			t.Fatalf("Recover = %d, %v", n, err)
		}
	}
	c.Add(time.Hour)
	j := claim(t, q)
	if j.Attempts != 1 || j.Abandoned != 3 {
		t.Fatalf("after 1 failure and 3 abandonments: %+v", j)
	}
	if err := q.Fail(j, errors.New("summariser said 500")); err != nil {
		t.Fatal(err)
	}
	if j.State != Pending || j.Attempts != 2 || j.Abandoned != 3 {
		t.Fatalf("after 2 failures and 3 abandonments: %+v", j)
	}

	// The fourth abandonment is the last.
	c.Add(time.Hour)
	claim(t, q)
	if n, err := q.Recover(ctx, 0); n != 1 || err != nil {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	wantEmpty(t, q)
	js, err := q.List(ctx, Failed)
	if err != nil {
		t.Fatal(err)
	}
	if len(js) != 1 || js[0].ID != id || js[0].Abandoned != 4 || js[0].Attempts != 2 ||
		!strings.Contains(js[0].LastError, "abandoned in processing") || !strings.Contains(js[0].LastError, "4 times") {
		t.Fatalf("failed/ holds %+v; want %s abandoned 4 times", js, id)
	}

	if err := q.Retry(id); err != nil {
		t.Fatal(err)
	}
	j = claim(t, q)
	if j.ID != id || j.Attempts != 0 || j.Abandoned != 0 {
		t.Fatalf("retried job: %+v", j)
	}
}

// TestRecoverOldJobFile reads a job as an older cairn wrote it, with no
// "abandoned" field and attempts that counted earlier abandonments: it
// is taken back like any other, and the field is written from then on.
func TestRecoverOldJobFile(t *testing.T) {
	q, _ := testQueue(t, QueueOptions{})
	ctx := context.Background()
	const id = "01JDXK3V9M2Q7Y8Z4T6R5W1HBC"
	old := `{
  "schema": 1,
  "id": "` + id + `",
  "kind": "hook",
  "payload": {},
  "attempts": 4,
  "last_error": "abandoned in processing for 7s: the worker stopped before it finished",
  "created": "2026-03-01T11:00:00Z",
  "updated": "2026-03-01T11:00:07Z"
}
`
	if err := os.WriteFile(filepath.Join(q.Dir(Processing), id+".json"), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	if n, err := q.Recover(ctx, 0); n != 1 || err != nil {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	data, err := os.ReadFile(filepath.Join(q.Dir(Pending), id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"abandoned": 1`) {
		t.Fatalf("job as written back:\n%s", data)
	}
	j := claim(t, q)
	if j.ID != id || j.Attempts != 4 || j.Abandoned != 1 {
		t.Fatalf("recovered %+v", j)
	}
	// Its attempts still count: one more failure is its last.
	if err := q.Fail(j, errors.New("boom")); err != nil {
		t.Fatal(err)
	}
	if j.State != Failed {
		t.Fatalf("after its fifth attempt the job is %s", j.State)
	}
}

// TestConcurrentClaims has goroutines and processes claim from one queue at
// once: every job is processed exactly once.
func TestConcurrentClaims(t *testing.T) {
	q, mem := testQueue(t, QueueOptions{Settle: -1})
	ctx := context.Background()
	const jobs, goroutines, procs = 300, 4, 3
	want := map[string]bool{}
	for i := range jobs {
		want[enqueue(t, q, "hook", fmt.Sprintf(`{"n":%d}`, i)).ID] = true
	}
	var mu sync.Mutex
	var got []string
	var wg sync.WaitGroup
	for range procs {
		cmd, out := helper(t, "claim-all", nil, "WATCHER_INBOX="+q.Dir(Pending), "WATCHER_ROOT="+filepath.Join(mem, ".state", "queue"))
		wg.Go(func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				mu.Lock()
				got = append(got, "p:"+sc.Text())
				mu.Unlock()
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("worker process: %v", err)
			}
		})
	}
	for range goroutines {
		wg.Go(func() {
			q, err := OpenQueue(q.Dir(Pending), filepath.Join(mem, ".state", "queue"), QueueOptions{Settle: -1})
			if err != nil {
				t.Error(err)
				return
			}
			for {
				j, err := q.Claim(ctx)
				if errors.Is(err, ErrEmpty) {
					return
				}
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				got = append(got, "g:"+j.ID)
				mu.Unlock()
				if err := q.Done(j); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	byProc := 0
	for _, g := range got {
		who, id, _ := strings.Cut(g, ":")
		if seen[id] {
			t.Errorf("job %s processed twice", id)
		}
		if !want[id] {
			t.Errorf("job %s was never enqueued", id)
		}
		seen[id] = true
		if who == "p" {
			byProc++
		}
	}
	if len(seen) != jobs {
		t.Errorf("%d of %d jobs processed", len(seen), jobs)
	}
	t.Logf("%d jobs: %d by %d processes, %d by %d goroutines", jobs, byProc, procs, len(got)-byProc, goroutines)
}

func TestStatus(t *testing.T) {
	c := newClock()
	q, _ := testQueue(t, QueueOptions{Now: c.Now, MaxAttempts: 1})
	ctx := context.Background()
	st, err := q.Status(ctx)
	if err != nil || st != (Status{}) {
		t.Fatalf("Status of an empty queue = %+v, %v", st, err)
	}
	created := c.Now()
	enqueue(t, q, "a", `1`)
	c.Add(time.Second)
	enqueue(t, q, "b", `2`)
	enqueue(t, q, "c", `3`)
	j := claim(t, q)
	c.Add(time.Minute)
	claim(t, q)
	if err := q.Fail(j, errors.New("x")); err != nil {
		t.Fatal(err)
	}
	st, err = q.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := Status{Pending: 1, Processing: 1, Failed: 1, Oldest: created.Add(time.Second), OldestAge: 60 * time.Second}
	if !st.Oldest.Equal(want.Oldest) || st.OldestAge != want.OldestAge || st.Pending != 1 || st.Processing != 1 || st.Failed != 1 {
		t.Fatalf("Status = %+v, want %+v", st, want)
	}
}

// drop writes a file into the inbox as someone else would.
func drop(t *testing.T, q *Queue, name, content string) string {
	t.Helper()
	p := filepath.Join(q.Dir(Pending), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInboxDrops drops all sorts of files into the inbox: each becomes a
// job, an inbox-file job, or a record in failed/ with the reason, and no
// byte of any is lost.
func TestInboxDrops(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("do not read me\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", 250) + ".md"
	tests := []struct {
		name, content string
		make          func(t *testing.T, path string) // instead of content
		kind          string                          // job kind claimed; "" when rejected
		reason        string                          // part of the rejection's reason
	}{
		{name: "hook.json", content: `{"kind":"hook","agent_session":"s1","payload":{"hook_event_name":"Stop"}}`, kind: "hook"},
		{name: "notes.md", content: "# Decided\nUse PostgreSQL.\n", kind: KindInboxFile},
		{name: "chat.jsonl", content: "{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assistant\",\"content\":\"ho\"}\n", kind: KindInboxFile},
		{name: "half.jsonl", content: "{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assi", kind: KindInboxFile},
		{name: "payload.json", content: `{"session_id":"abc","hook_event_name":"Stop"}`, kind: KindInboxFile},
		{name: long, content: "long name\n", kind: KindInboxFile},
		{name: "名前 with spaces.md", content: "text\n", kind: KindInboxFile},
		{name: `a\..\..\windows.md`, content: "backslashes\n", kind: KindInboxFile},
		{name: "%2e%2e%2fetc%2fpasswd", content: "escaped\n", kind: KindInboxFile},
		{name: "-rf", content: "dash\n", kind: KindInboxFile},
		{name: "new\nline.md", content: "newline in name\n", kind: KindInboxFile},
		{name: "01JDXK3V9M2Q7Y8Z4T6R5W1HBC.json", content: "named like a job, but text\n", kind: KindInboxFile},
		{name: "empty.json", content: "", reason: "empty file"},
		{name: "blank.md", content: " \n\t\n", reason: "blank file"},
		{name: "binary.bin", content: "\x7fELF\x02\x01\x01\x00\x00", reason: "NUL byte at offset 7"},
		{name: "latin1.txt", content: "caf\xe9\n", reason: "invalid byte at offset 3"},
		{name: "broken.json", content: `{"kind":"hook","payload":`, reason: "invalid JSON at line 1"},
		{name: "badkind.json", content: `{"kind":7}`, reason: "invalid job: decode job: line 1"},
		{name: "newer.json", content: `{"schema":9,"kind":"hook"}`, reason: "schema 9"},
		{name: "traversal.json", content: `{"kind":"transcript-delta","pointer":{"path":"../../../etc/passwd","from":0,"to":10}}`, reason: "not absolute"},
		{name: "01JDXK3V9M2Q7Y8Z4T6R5W1HBD.json", content: `{"kind":"inbox-file","pointer":{"path":"` + outside + `","from":0,"to":15}}`, reason: "reserved"},
		{name: "reserved.json", content: `{"kind":"inbox-file","pointer":{"path":"` + outside + `","from":0,"to":15}}`, reason: "reserved"},
		{name: "link.json", make: func(t *testing.T, p string) {
			if err := os.Symlink(outside, p); err != nil {
				t.Fatal(err)
			}
		}, reason: "symbolic link"},
		{name: "dotdot-link", make: func(t *testing.T, p string) {
			if err := os.Symlink("../../../../../../etc/passwd", p); err != nil {
				t.Fatal(err)
			}
		}, reason: "symbolic link"},
		{name: "folder", make: func(t *testing.T, p string) {
			if err := os.MkdirAll(filepath.Join(p, "inner"), 0o700); err != nil {
				t.Fatal(err)
			}
		}, reason: "a directory"},
		{name: "fifo", make: func(t *testing.T, p string) {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
		}, reason: "a named pipe"},
	}
	if os.Geteuid() != 0 { // root reads anything
		tests = append(tests, struct {
			name, content string
			make          func(t *testing.T, path string)
			kind          string
			reason        string
		}{name: "unreadable.md", make: func(t *testing.T, p string) {
			if err := os.WriteFile(p, []byte("x"), 0o000); err != nil {
				t.Fatal(err)
			}
		}, reason: "permission denied"})
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.name[:min(len(tt.name), 20)], "\n", `\n`), func(t *testing.T) {
			q, _ := testQueue(t, QueueOptions{Settle: -1})
			p := filepath.Join(q.Dir(Pending), tt.name)
			if tt.make != nil {
				tt.make(t, p)
			} else {
				drop(t, q, tt.name, tt.content)
			}
			j, err := q.Claim(context.Background())
			if tt.kind != "" {
				if err != nil {
					t.Fatalf("Claim: %v", err)
				}
				if j.Kind != tt.kind || j.Origin != tt.name || checkID(j.ID) != nil || j.State != Processing {
					t.Fatalf("claimed %+v, want kind %q from %q", j, tt.kind, tt.name)
				}
				onDisk, err := q.readJob(q.Dir(Processing), j.ID+".json")
				if err != nil || onDisk.Kind != j.Kind || onDisk.Origin != tt.name {
					t.Fatalf("job in processing/: %+v, %v", onDisk, err)
				}
				if tt.kind == KindInboxFile {
					data, err := os.ReadFile(j.Pointer.Path)
					if err != nil || string(data) != tt.content || j.Pointer.To != int64(len(tt.content)) {
						t.Fatalf("the job points at %s holding %q (%v), want %q", j.Pointer.Key(), data, err, tt.content)
					}
					if d := filepath.Dir(j.Pointer.Path); d != q.files {
						t.Fatalf("attachment in %s, want %s", d, q.files)
					}
				}
				if err := q.Done(j); err != nil {
					t.Fatal(err)
				}
				if got := ls(t, q.files); len(got) != 0 {
					t.Errorf("files/ holds %v after Done", got)
				}
			} else {
				if !errors.Is(err, ErrEmpty) {
					t.Fatalf("Claim = %+v, %v; want ErrEmpty and a rejection", j, err)
				}
				failed, err := q.List(context.Background(), Failed)
				if err != nil || len(failed) != 1 {
					t.Fatalf("List(Failed) = %+v, %v", failed, err)
				}
				r := failed[0]
				if r.Kind != KindRejected || r.Origin != tt.name || !strings.Contains(r.LastError, tt.reason) {
					t.Fatalf("rejection %+v; want the reason to say %q", r, tt.reason)
				}
				fi, err := os.Lstat(r.Pointer.Path)
				if err != nil {
					t.Fatalf("the rejected file is gone: %v", err)
				}
				if tt.make == nil {
					if data, _ := os.ReadFile(r.Pointer.Path); string(data) != tt.content {
						t.Fatalf("the rejected file holds %q, want %q", data, tt.content)
					}
				}
				if strings.Contains(tt.reason, "link") && fi.Mode()&fs.ModeSymlink == 0 {
					t.Fatalf("the link was not kept as a link: %v", fi.Mode())
				}
				t.Logf("reason: %s", r.LastError)
			}
			if got := ls(t, q.Dir(Pending)); len(got) != 0 {
				t.Errorf("inbox still holds %q", got)
			}
			for _, n := range ls(t, q.files) {
				if len(n) > 26+2+100 || strings.ContainsAny(n, "/\\\n ") || isHidden(n) {
					t.Errorf("unsafe name under files/: %q", n)
				}
			}
			if data, err := os.ReadFile(outside); err != nil || string(data) != "do not read me\n" {
				t.Errorf("the file outside the queue changed: %q, %v", data, err)
			}
		})
	}
}

// TestRetryRejected puts a rejected file back into the inbox under its name.
func TestRetryRejected(t *testing.T) {
	q, _ := testQueue(t, QueueOptions{Settle: -1})
	drop(t, q, "broken.json", `{"kind":`)
	wantEmpty(t, q)
	failed, _ := q.List(context.Background(), Failed)
	if len(failed) != 1 {
		t.Fatalf("failed/ holds %+v", failed)
	}
	// The person fixes the file where the record says it is, then retries.
	if err := os.WriteFile(failed[0].Pointer.Path, []byte(`{"kind":"hook"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := q.Retry(failed[0].ID); err != nil {
		t.Fatal(err)
	}
	if got := ls(t, q.Dir(Pending)); !slices.Equal(got, []string{"broken.json"}) {
		t.Fatalf("inbox holds %v after Retry", got)
	}
	if j := claim(t, q); j.Kind != "hook" || j.Origin != "broken.json" {
		t.Fatalf("claimed %+v", j)
	}
	if got := ls(t, q.Dir(Failed)); len(got) != 0 {
		t.Errorf("failed/ still holds %v", got)
	}
}

// TestSettle leaves a file that is still being written alone.
func TestSettle(t *testing.T) {
	q, _ := testQueue(t, QueueOptions{Settle: time.Hour})
	drop(t, q, "slow.md", "being written")
	enqueue(t, q, "hook", `{}`) // a job of the queue's own is taken at once
	j := claim(t, q)
	if j.Kind != "hook" {
		t.Fatalf("claimed %+v", j)
	}
	wantEmpty(t, q)
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(filepath.Join(q.Dir(Pending), "slow.md"), old, old); err != nil {
		t.Fatal(err)
	}
	if j := claim(t, q); j.Kind != KindInboxFile {
		t.Fatalf("claimed %+v once settled", j)
	}
}

// TestDoneKeepsForeignPointers: Done removes the queue's own copy of an
// inbox file, never a file a job merely points at.
func TestDoneKeepsForeignPointers(t *testing.T) {
	q, _ := testQueue(t, QueueOptions{Settle: -1})
	outside := filepath.Join(t.TempDir(), "transcript.jsonl")
	if err := os.WriteFile(outside, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{KindTranscriptDelta, "custom"} {
		drop(t, q, kind+".json", `{"kind":"`+kind+`","pointer":{"path":"`+outside+`","from":0,"to":3}}`)
		j := claim(t, q)
		if err := q.Done(j); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(outside); err != nil {
		t.Fatalf("Done removed a file the job pointed at: %v", err)
	}
}

// TestRecoverInterruptedAdoption: a crash between moving an inbox file
// under files/ and writing its job leaves the file alone there; Recover
// puts it back into the inbox.
func TestRecoverInterruptedAdoption(t *testing.T) {
	q, _ := testQueue(t, QueueOptions{Settle: -1})
	hourAgo := time.Now().Add(-time.Hour)
	old, _ := q.newID(hourAgo)
	fresh, _ := q.newID(time.Now())
	for _, name := range []string{old + "--notes.md", fresh + "--being-adopted.md"} {
		if err := os.WriteFile(filepath.Join(q.files, name), []byte("# n\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// And the temporary files of interrupted Enqueues, of this version
	// (safefile's) and of older ones.
	for _, tmp := range []string{"." + old + ".json" + tmpMark + "00", "." + old + ".json.tmp-123456"} {
		tmp = filepath.Join(q.Dir(Pending), tmp)
		if err := os.WriteFile(tmp, []byte("{"), 0o600); err != nil {
			t.Fatal(err)
		}
		_ = os.Chtimes(tmp, hourAgo, hourAgo)
	}
	if n, err := q.Recover(context.Background(), RecoverAfter); n != 1 || err != nil {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	if got := ls(t, q.Dir(Pending)); !slices.Equal(got, []string{"notes.md"}) {
		t.Fatalf("inbox holds %v, want the old file back and the temporary file gone", got)
	}
	if got := ls(t, q.files); !slices.Equal(got, []string{fresh + "--being-adopted.md"}) {
		t.Fatalf("files/ holds %v, want the fresh file left alone", got)
	}
	if j := claim(t, q); j.Kind != KindInboxFile || j.Origin != "notes.md" {
		t.Fatalf("claimed %+v", j)
	}
}

func BenchmarkQueue(b *testing.B) {
	q, _ := testQueue(b, QueueOptions{})
	ctx := context.Background()
	payload := json.RawMessage(`{"hook_event_name":"PostToolUse","tool_name":"Bash","session_id":"7f3c2a10"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := q.Enqueue(ctx, Job{Kind: "hook", Payload: payload}); err != nil {
			b.Fatal(err)
		}
		j, err := q.Claim(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := q.Done(j); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkClaim measures claim+done alone from a queue of 1,000 jobs.
func BenchmarkClaim(b *testing.B) {
	q, _ := testQueue(b, QueueOptions{})
	ctx := context.Background()
	left := 0
	for b.Loop() {
		if left == 0 {
			b.StopTimer()
			left = 1000
			for range left {
				if _, err := q.Enqueue(ctx, Job{Kind: "hook", Payload: json.RawMessage(`{}`)}); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
		}
		left--
		j, err := q.Claim(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if err := q.Done(j); err != nil {
			b.Fatal(err)
		}
	}
}

func TestOpenQueueAcrossFileSystems(t *testing.T) {
	shm, err := os.MkdirTemp("/dev/shm", "watcher-test-")
	if err != nil {
		t.Skip("no /dev/shm")
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	dir := t.TempDir()
	a, _ := os.Stat(shm)
	b, _ := os.Stat(dir)
	da, _ := fileID(a)
	db, _ := fileID(b)
	if da == 0 || da == db {
		t.Skip("/dev/shm is on the same file system as the temporary folder")
	}
	_, err = OpenQueue(filepath.Join(dir, "inbox"), filepath.Join(shm, "queue"), QueueOptions{})
	if err == nil || !strings.Contains(err.Error(), "different file systems") {
		t.Fatalf("OpenQueue across file systems: %v", err)
	}
}
