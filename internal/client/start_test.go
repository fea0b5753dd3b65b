package client

import (
	"context"
	"errors"
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
