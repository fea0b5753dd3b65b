package fsmonitor

import (
	"context"
	"errors"
	"github.com/cairn-mem/cairn/gitstore"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// startMonitor runs a Monitor on s until the test ends.
func startMonitor(t *testing.T, s *gitstore.Store) *Monitor {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	m := New(s)
	done := make(chan error, 1)
	go func() { done <- m.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("monitor: %v", err)
		}
	})
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("unix", s.StatePath(gitstore.MonitorSocket)); err == nil {
			c.Close()
			return m
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("monitor did not start")
	return nil
}

func TestMonitorFindsHandEdits(t *testing.T) {
	files := map[string]string{}
	for _, p := range []string{"core/a.md", "core/b.md", "core/c.md", "sessions/s1/log.md", "archive/2026/01/s0/log.md"} {
		files[p] = p + "\n"
	}
	s := newStore(t, files)
	startMonitor(t, s)
	// Another process checkpoints: the first time it scans everything.
	other, err := gitstore.Open(context.Background(), s.Dir(), gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := checkpoint(t, other, gitstore.CheckpointOptions{}); !errors.Is(err, gitstore.ErrNothingToDo) {
		t.Fatal(err)
	}
	if other.Scanned() != len(files)+1 {
		t.Errorf("first scan looked at %d files, want all %d", other.Scanned(), len(files)+1)
	}
	// Hand edits of every kind.
	f, _ := os.OpenFile(filepath.Join(s.Dir(), "core/a.md"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("appended in place\n")
	f.Close()
	os.Remove(filepath.Join(s.Dir(), "core/b.md"))
	os.Rename(filepath.Join(s.Dir(), "core/c.md"), filepath.Join(s.Dir(), "core/c2.md"))
	write(t, s, "new/deep/dir/n.md", "new\n")
	// Status and diff look where the monitor points too.
	st, err := other.Status(context.Background())
	if err != nil || len(st) != 5 || other.Scanned() > 4 {
		t.Errorf("status = %v, %v after looking at %d files", st, err, other.Scanned())
	}
	diffs, err := other.Diff(context.Background(), gitstore.DiffOptions{})
	if err != nil || len(diffs) != 5 || other.Scanned() > 4 {
		t.Errorf("diff found %d files (%v) after looking at %d", len(diffs), err, other.Scanned())
	}
	cp, err := checkpoint(t, other, gitstore.CheckpointOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []gitstore.FileChange{{Path: "core/a.md", Action: gitstore.Modified}, {Path: "core/b.md", Action: gitstore.Deleted}, {Path: "core/c.md", Action: gitstore.Deleted}, {Path: "core/c2.md", Action: gitstore.Added}, {Path: "new/deep/dir/n.md", Action: gitstore.Added}}
	if len(cp.Changes) != len(want) {
		t.Fatalf("changes = %v, want %v", cp.Changes, want)
	}
	for i := range want {
		if cp.Changes[i] != want[i] {
			t.Errorf("change %d = %v, want %v", i, cp.Changes[i], want[i])
		}
	}
	if other.Scanned() > 4 {
		t.Errorf("monitored scan looked at %d files; it should look only at what changed", other.Scanned())
	}
	checkGit(t, other)
	// Nothing changed since: nothing scanned.
	if _, err := checkpoint(t, other, gitstore.CheckpointOptions{}); !errors.Is(err, gitstore.ErrNothingToDo) {
		t.Fatal(err)
	}
}

func TestMonitorOverflowScansEverything(t *testing.T) {
	s := newStore(t, map[string]string{"a.md": "a\n", "b.md": "b\n"})
	m := startMonitor(t, s)
	if _, err := checkpoint(t, s, gitstore.CheckpointOptions{}); !errors.Is(err, gitstore.ErrNothingToDo) {
		t.Fatal(err)
	}
	m.mu.Lock()
	m.gen++
	m.fullFrom = m.gen
	m.mu.Unlock()
	write(t, s, "b.md", "changed\n")
	if _, err := checkpoint(t, s, gitstore.CheckpointOptions{}); err != nil {
		t.Fatal(err)
	}
	if s.Scanned() != 3 {
		t.Errorf("after an overflow the scan looked at %d files, want all 3", s.Scanned())
	}
}
