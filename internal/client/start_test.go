package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/safefile"
)

func TestAutostartGivesUp(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmd  []string
		want string
	}{
		{"exits at once", []string{"sh", "-c", "echo 'cairn: no memory here' >&2; exit 1"}, "the daemon exited at start"},
		{"never answers", []string{"sleep", "5"}, ErrStarting.Error()},
		{"no such binary", []string{"/nonexistent/cairn"}, "start the daemon"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := t.TempDir()
			c, pid, err := Autostart(context.Background(), state, filepath.Dir(state), Spawn{Command: tc.cmd, Env: os.Environ()}, 300*time.Millisecond)
			if pid > 0 {
				if p, err := os.FindProcess(pid); err == nil {
					t.Cleanup(func() { p.Kill() })
				}
			}
			if c != nil || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Autostart: %v, %v; want an error saying %q", c, err, tc.want)
			}
			if tc.name == "exits at once" {
				if b, _ := os.ReadFile(filepath.Join(state, LogFile)); !strings.Contains(string(b), "no memory here") {
					t.Errorf("daemon.log holds %q, not what the process said", b)
				}
			}
		})
	}
}

// A session start that finds another one starting the daemon waits for
// it, and starts none of its own.
func TestAutostartTakesTurns(t *testing.T) {
	state := t.TempDir()
	unlock, err := safefile.TryLock(filepath.Join(state, StartLock))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	marker := filepath.Join(state, "ran")
	_, pid, err := Autostart(context.Background(), state, filepath.Dir(state), Spawn{Command: []string{"touch", marker}}, 200*time.Millisecond)
	if pid != 0 || !errors.Is(err, ErrStarting) {
		t.Errorf("Autostart beside another: pid %d, %v; want none started, ErrStarting", pid, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a second daemon was started")
	}
}

// A daemon started at the same moment as another (a service's) loses the
// race for the daemon's lock and exits: the session start finds the
// other one answering, and must not say it started the daemon.
func TestAutostartLosesTheLock(t *testing.T) {
	state := t.TempDir()
	started, stop := filepath.Join(state, "started"), filepath.Join(state, "stop")
	t.Cleanup(func() { os.WriteFile(stop, nil, 0o600) })
	// The process started here: it says it runs, and waits to be let go
	// (as a daemon waits for its lock's holder), holding nothing. It also
	// ends once its folder is gone: the cleanup that writes stop runs
	// just before t.TempDir's removal, which can take the file away
	// before the loop looks, and the shell then spun on after the test.
	spawn := Spawn{Command: []string{"sh", "-c", `touch "$0"; while [ ! -e "$1" ] && [ -e "$0" ]; do sleep 0.01; done`, started, stop}, Env: os.Environ()}

	// The other daemon: once the process above runs, it takes the
	// daemon's lock (its holder line names this test's process) and
	// answers at the address it writes.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"status":"ok"}`))
	}))
	defer srv.Close()
	done := make(chan struct{})
	other := make(chan error, 1)
	go func() {
		for {
			select {
			case <-done:
				other <- errors.New("the process Autostart started never ran")
				return
			case <-time.After(5 * time.Millisecond):
			}
			if _, err := os.Stat(started); err == nil {
				break
			}
		}
		unlock, err := safefile.TryLock(filepath.Join(state, LockFile))
		if err != nil {
			other <- err
			return
		}
		t.Cleanup(func() { unlock() })
		if err := safefile.Write(filepath.Join(state, TokenFile), []byte(strings.Repeat("t", 64)+"\n"), 0o600); err != nil {
			other <- err
			return
		}
		other <- safefile.Write(filepath.Join(state, AddrFile), []byte(srv.URL+"\n"), 0o600)
	}()
	c, pid, err := Autostart(context.Background(), state, filepath.Dir(state), spawn, 10*time.Second)
	close(done)
	if err := <-other; err != nil {
		t.Fatal(err)
	}
	if err != nil || c == nil || c.BaseURL != srv.URL {
		t.Fatalf("Autostart: %v, %v; want the other daemon's client", c, err)
	}
	if pid != 0 {
		t.Errorf("Autostart said it started pid %d, but the daemon that answers is another (pid %d)", pid, os.Getpid())
	}
}
