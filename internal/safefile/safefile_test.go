package safefile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWrite(t *testing.T) {
	old := syscall.Umask(0o077) // perm is exact, whatever the umask
	defer syscall.Umask(old)
	for _, tc := range []struct {
		name string
		old  string // "" means no file before
		data string
		perm fs.FileMode
		sync Sync
	}{
		{"new state file", "", "s3cret\n", 0o600, SyncAll},
		{"replace", "old content\n", "new\n", 0o644, SyncAll},
		{"executable", "", "#!/bin/sh\n", 0o755, SyncAll},
		{"empty", "something", "", 0o644, SyncAll},
		{"sync file only", "x", "y", 0o640, SyncFile},
		{"no sync", "x", "derived", 0o600, SyncNone},
		{"missing parents", "", "deep", 0o644, SyncAll},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "f.json")
			if tc.name == "missing parents" {
				name = filepath.Join(dir, "a", "b", "f.json")
			}
			if tc.old != "" {
				if err := os.WriteFile(name, []byte(tc.old), 0o666); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteSync(name, []byte(tc.data), tc.perm, tc.sync); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(name)
			if err != nil || string(b) != tc.data {
				t.Errorf("content %q, %v; want %q", b, err, tc.data)
			}
			fi, err := os.Stat(name)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != tc.perm {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), tc.perm)
			}
			noTemps(t, filepath.Dir(name))
		})
	}
}

func noTemps(t *testing.T, dir string) {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if IsTemp(e.Name()) {
			t.Errorf("temporary %s left behind", e.Name())
		}
	}
}

func TestWriteFuncFails(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFunc(name, 0o600, SyncAll, func(w io.Writer) error {
		io.WriteString(w, "half of the new")
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "write "+name) {
		t.Errorf("error %v, want boom saying what it wrote", err)
	}
	if b, _ := os.ReadFile(name); string(b) != "old" {
		t.Errorf("content %q after a failed write, want the old", b)
	}
	noTemps(t, dir)

	// A directory where the file should be: the rename fails, cleanly.
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "x"), nil, 0o600)
	if err := Write(sub, []byte("x"), 0o600); err == nil || !strings.Contains(err.Error(), "write "+sub) {
		t.Errorf("write over a directory: %v", err)
	}
	noTemps(t, dir)
}

func TestIsTemp(t *testing.T) {
	for _, tc := range []struct {
		base string
		want bool
	}{
		{".usage.json.tmp-123456", true},
		{".x.tmp-", true},
		{"usage.json", false},
		{"notes.tmp-1", false}, // not hidden: somebody's file
		{".hidden", false},
		{".hook-1-2.tmp", false},
	} {
		if got := IsTemp(tc.base); got != tc.want {
			t.Errorf("IsTemp(%q) = %v, want %v", tc.base, got, tc.want)
		}
	}
	// And it recognises what Write makes.
	dir := t.TempDir()
	err := WriteFunc(filepath.Join(dir, "f"), 0o600, SyncAll, func(io.Writer) error {
		es, _ := os.ReadDir(dir)
		if len(es) != 1 || !IsTemp(es[0].Name()) {
			t.Errorf("during the write, %v is not one temporary", es)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestLock(t *testing.T) {
	ctx := context.Background()
	name := filepath.Join(t.TempDir(), "lock")
	unlock, err := Lock(ctx, name, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(name)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("lock file: %v, %v; want mode 0600", fi, err)
	}
	if h := Holder(name); !strings.HasPrefix(h, fmt.Sprintf("pid %d ", os.Getpid())) {
		t.Errorf("holder %q does not name this process", h)
	}

	// A second open file description is excluded like another process.
	for _, tc := range []struct {
		name    string
		timeout time.Duration
	}{
		{"try once", 0},
		{"wait", 50 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := Lock(ctx, name, tc.timeout)
			var le *LockedError
			if !errors.Is(err, ErrLocked) || !errors.As(err, &le) {
				t.Fatalf("second lock: %v, want a LockedError", err)
			}
			if d := time.Since(start); d < tc.timeout || d > tc.timeout+time.Second {
				t.Errorf("gave up after %v, want %v", d, tc.timeout)
			}
			if le.Name != name || le.Waited != tc.timeout || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
				t.Errorf("error %q (%+v) does not say what and who", err, le)
			}
		})
	}

	// A canceled context is not a held lock.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Lock(cctx, name, -1); !errors.Is(err, context.Canceled) || errors.Is(err, ErrLocked) {
		t.Errorf("lock with a canceled context: %v", err)
	}

	// A waiter gets the lock once it is let go.
	got := make(chan error)
	go func() {
		u, err := Lock(ctx, name, -1)
		if err == nil {
			err = u()
		}
		got <- err
	}()
	time.Sleep(20 * time.Millisecond)
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err != nil {
		t.Errorf("second unlock: %v", err)
	}
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiter never got the lock")
	}
	if h := Holder(name); h != "" {
		t.Errorf("holder %q after unlock", h)
	}
	if _, err := Lock(ctx, filepath.Join(t.TempDir(), "no", "such", "dir"), 0); err == nil || errors.Is(err, ErrLocked) {
		t.Errorf("lock in a missing directory: %v", err)
	}
}

// TestHelperHoldLock is not a test: TestLockAcrossProcesses runs it in a
// child process, where it takes the lock SAFEFILE_HOLD names, says
// "ready" and holds the lock until its standard input closes.
func TestHelperHoldLock(t *testing.T) {
	name := os.Getenv("SAFEFILE_HOLD")
	if name == "" {
		t.Skip("helper process only")
	}
	unlock, err := TryLock(name)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n')
	unlock()
	os.Exit(0)
}

func TestLockAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	name := filepath.Join(t.TempDir(), "lock")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldLock$")
	cmd.Env = append(os.Environ(), "SAFEFILE_HOLD="+name)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || strings.TrimSpace(line) != "ready" {
		cmd.Process.Kill()
		t.Fatalf("child: %q %v", line, err)
	}

	start := time.Now()
	_, err := Lock(context.Background(), name, 100*time.Millisecond)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("lock held by another process: %v", err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("gave up after %v, before the timeout", d)
	}
	want := fmt.Sprintf("pid %d (%s) on ", cmd.Process.Pid, filepath.Base(os.Args[0]))
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "gave up after 100ms") {
		t.Errorf("error %q does not say %q and how long it waited", err, want)
	}

	// Killed, the holder leaves the lock free.
	cmd.Process.Kill()
	cmd.Wait()
	unlock, err := Lock(context.Background(), name, time.Second)
	if err != nil {
		t.Fatalf("lock after the holder died: %v", err)
	}
	unlock()
}
