package watcher

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// mountTmpfs mounts a small tmpfs, for a disk that fills up. It needs
// root, which CI has.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fill writes to a file in dir until the disk is full, and returns a
// function that frees the space again.
func fill(t *testing.T, dir string) func() {
	t.Helper()
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	f.Close()
	return func() { os.Remove(name) }
}

// smallDiskQueue is a queue on a 2 MiB tmpfs (mountTmpfs), with its
// inbox and state there and a clock of the test's.
func smallDiskQueue(t *testing.T) (dir string, clk *clock, q *Queue) {
	t.Helper()
	dir = mountTmpfs(t, "2m")
	clk = newClock()
	q, err := OpenQueue(filepath.Join(dir, "inbox"), filepath.Join(dir, "state"), QueueOptions{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	return dir, clk, q
}

// TestDiskFullFailPutsJobBack (issue 12, item 11): a job whose failure
// cannot be recorded because the disk is full is not left in processing/
// until a restart: Fail renames it back to pending/ as it was (a rename
// needs no space), this Queue does not claim it again before the backoff
// the record would have said, and once there is space the next failure
// is recorded. Before, Fail returned the write's error and the job stayed
// in processing/ until Recover at the next start.
func TestDiskFullFailPutsJobBack(t *testing.T) {
	dir, clk, q := smallDiskQueue(t)
	ctx := context.Background()
	if _, err := q.Enqueue(ctx, Job{Kind: "hook", Payload: []byte(`{"x":1}`)}); err != nil {
		t.Fatal(err)
	}
	j, err := q.Claim(ctx)
	if err != nil {
		t.Fatal(err)
	}
	free := fill(t, dir)
	cause := errors.New("write /m/.state/capture/x: no space left on device")
	if err := q.Fail(j, cause); err != nil {
		t.Fatalf("Fail on a full disk: %v", err)
	}
	if got := ls(t, q.Dir(Processing)); len(got) != 0 {
		t.Errorf("processing/ after Fail on a full disk: %v", got)
	}
	if got := ls(t, q.Dir(Pending)); len(got) != 1 || got[0] != j.ID+".json" {
		t.Errorf("pending/ after Fail on a full disk: %v", got)
	}
	if _, err := q.Claim(ctx); !errors.Is(err, ErrEmpty) {
		t.Errorf("claimed again at once: %v", err)
	}
	clk.Add(q.backoff(1) + time.Second)
	j2, err := q.Claim(ctx)
	if err != nil || j2.ID != j.ID || j2.Attempts != 0 {
		t.Fatalf("claim after the backoff: %+v, %v", j2, err)
	}
	free()
	if err := q.Fail(j2, cause); err != nil || j2.Attempts != 1 || j2.LastError != cause.Error() {
		t.Errorf("Fail with space again: %+v, %v", j2, err)
	}

	// Recover, on a full disk, puts a job back as well.
	clk.Add(time.Hour)
	j3, err := q.Claim(ctx)
	if err != nil {
		t.Fatal(err)
	}
	free = fill(t, dir)
	defer free()
	if n, err := q.Recover(ctx, 0); err != nil || n != 1 {
		t.Errorf("Recover on a full disk: %d, %v", n, err)
	}
	if got := ls(t, q.Dir(Pending)); len(got) != 1 || got[0] != j3.ID+".json" {
		t.Errorf("pending/ after Recover on a full disk: %v", got)
	}
}

// TestTruncatedJobRecovered (issue 12, item 11): a job file cut short in
// processing/ is recovered by a worker starting up however young it is,
// and ends in failed/ with the reason; one in pending/ too. Before,
// Recover(RecoverAfter) left a young one in processing/, and only the
// daemon's start-up ran Recover at all.
func TestTruncatedJobRecovered(t *testing.T) {
	ctx := context.Background()
	q, _ := testQueue(t, QueueOptions{Settle: -1})
	var ids []string
	for _, state := range []State{Processing, Pending} {
		j, err := q.Enqueue(ctx, Job{Kind: "hook", Payload: []byte(`{"prompt":"a prompt long enough to be cut in two"}`)})
		if err != nil {
			t.Fatal(err)
		}
		if state == Processing {
			if j, err = q.Claim(ctx); err != nil {
				t.Fatal(err)
			}
		}
		p := filepath.Join(q.Dir(state), j.ID+".json")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b[:len(b)/2], 0o600); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, j.ID)
	}
	if n, err := q.Recover(ctx, RecoverAfter); err != nil || n != 1 {
		t.Errorf("Recover: %d, %v", n, err)
	}
	if _, err := q.Claim(ctx); !errors.Is(err, ErrEmpty) {
		t.Errorf("claim: %v", err)
	}
	for _, s := range []State{Processing, Pending} {
		if got := ls(t, q.Dir(s)); len(got) != 0 {
			t.Errorf("%s after Recover and Claim: %v", s, got)
		}
	}
	failed, err := q.List(ctx, Failed)
	if err != nil || len(failed) != 2 {
		t.Fatalf("failed: %v, %v", failed, err)
	}
	for i, f := range failed {
		if f.Kind != KindRejected || f.Origin != ids[i]+".json" && f.Origin != ids[1-i]+".json" || !strings.Contains(f.LastError, "invalid JSON") {
			t.Errorf("failed job %+v", f)
		}
	}
}

// TestWatchRetrySaysOnce (issue 12, item 11): a delta that cannot be
// handed out (the queue's disk is full) is retried, and said once until
// it works again, not at every retry.
func TestWatchRetrySaysOnce(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	writeFile(t, p, line("a"))
	var calls atomic.Int32
	var mu sync.Mutex
	var log bytes.Buffer
	out := make(chan Delta, 10)
	h := watch(t, Config{
		Globs:      []string{filepath.Join(dir, "*.jsonl")},
		RetryDelay: 10 * time.Millisecond,
		Log:        slog.New(slog.NewTextHandler(lockedWriter{&mu, &log}, nil)),
		OnDelta: func(_ context.Context, d Delta) error {
			if calls.Add(1) <= 5 {
				return errors.New("enqueue: write /m/inbox/x.json: no space left on device")
			}
			out <- d
			return nil
		},
	})
	h.deltas = out
	h.want(p, 0, size(t, p), NewFile)
	// The delta arrives from inside OnDelta; the line after it is logged
	// once OnDelta returned.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		again := strings.Contains(log.String(), "works again")
		mu.Unlock()
		if again {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if n := strings.Count(log.String(), "handing out a delta failed"); n != 1 {
		t.Errorf("said %d times in %d calls:\n%s", n, calls.Load(), log.String())
	}
	if !strings.Contains(log.String(), "works again") {
		t.Errorf("not said that it works again:\n%s", log.String())
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// TestRecoverKeepsFreshTemps: Recover(0), the daemon's start-up, leaves a
// temporary file being written now alone (an Enqueue by a hook or by the
// daemon's API, which the daemon's lock does not keep out); before, the
// writer's rename then failed with "no such file or directory".
func TestRecoverKeepsFreshTemps(t *testing.T) {
	q, _ := testQueue(t, QueueOptions{})
	tmp := filepath.Join(q.Dir(Pending), ".01M8S46WK8ZTCGXVKZQ44F98DA.json"+tmpMark+"123")
	if err := os.WriteFile(tmp, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Recover(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Errorf("Recover(0) removed a temporary file being written: %v", err)
	}
	old := time.Now().Add(-2 * minTempAge)
	os.Chtimes(tmp, old, old)
	q.Recover(context.Background(), 0)
	if _, err := os.Stat(tmp); err == nil {
		t.Error("Recover(0) kept a temporary file a crash left")
	}
}

// TestDiskFullClaimLeavesFileInInbox: a dropped file whose claim cannot
// write its job (the disk is full) is put back in the inbox at once, in
// sight of status, doctor and the next claim, not left under files/ with
// no job until a start-up's Recover minutes later (hostile-input
// campaign). Once there is space it is claimed as usual.
func TestDiskFullClaimLeavesFileInInbox(t *testing.T) {
	dir, clk, q := smallDiskQueue(t)
	ctx := context.Background()
	drop := filepath.Join(dir, "inbox", "notes.txt")
	if err := os.WriteFile(drop, []byte("a transcript to take\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := clk.Now().Add(-time.Minute) // past the settle
	os.Chtimes(drop, old, old)
	free := fill(t, dir)
	if _, err := q.Claim(ctx); err == nil || !strings.Contains(err.Error(), "left in the inbox") {
		t.Fatalf("Claim on a full disk: %v", err)
	}
	if _, err := os.Stat(drop); err != nil {
		t.Fatalf("the dropped file is not back in the inbox: %v", err)
	}
	if got, _ := os.ReadDir(filepath.Join(dir, "state", "files")); len(got) != 0 {
		t.Errorf("files/ holds %d files with no job", len(got))
	}
	free()
	j, err := q.Claim(ctx)
	if err != nil || j.Kind != KindInboxFile {
		t.Fatalf("Claim with space: %+v, %v", j, err)
	}
}
