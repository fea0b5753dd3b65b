package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
)

// With a daemon running, cairn checkpoint is done by the daemon (its
// monitor finds the hand edit), and the repository is as git expects.
func TestCheckpointThroughDaemon(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	start := cairnProc(p, "", "daemon", "start")
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("daemon start: %v\n%s", err, out)
	}
	defer cairnProc(p, "", "daemon", "stop").Run()
	var st client.DaemonState
	if err := json.Unmarshal([]byte(ok(t, p, "daemon", "status", "--json")), &st); err != nil || !st.Running || !strings.HasPrefix(st.URL, "http://127.0.0.1:") {
		t.Fatalf("daemon status = %+v, %v", st, err)
	}
	os.WriteFile(filepath.Join(p, ".cairn", "hand.md"), []byte("by hand\n"), 0o644)
	out := ok(t, p, "checkpoint", "-m", "through the daemon")
	if len(strings.TrimSpace(out)) != 40 {
		t.Errorf("checkpoint printed %q, want a commit id", out)
	}
	if s := gitc(t, filepath.Join(p, ".cairn"), "log", "-1", "--format=%s"); s != "through the daemon\n" {
		t.Errorf("last commit: %q", s)
	}
	checkGit(t, p)
	if out := ok(t, p, "checkpoint"); out != "nothing to checkpoint\n" {
		t.Errorf("second checkpoint said %q", out)
	}
}

// Issue 12, item 6: a daemon killed with -9 leaves its pid file behind,
// and its pid may be another process's by now. cairn daemon stop must
// not signal that process: it finds no daemon holding the memory's
// daemon lock, removes the stale pid file with one line saying so, and
// leaves the process alone. A daemon that runs is still stopped.
func TestDaemonStopStalePID(t *testing.T) {
	p := project(t)
	ok(t, p, "init")
	state := filepath.Join(p, ".cairn", ".state")
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- other.Wait() }()
	defer other.Process.Kill()
	for _, content := range []string{strconv.Itoa(other.Process.Pid) + "\n", "garbage\n"} {
		os.WriteFile(filepath.Join(state, "daemon.pid"), []byte(content), 0o600)
		out := ok(t, p, "daemon", "stop")
		if !strings.HasPrefix(out, "daemon: not running; removed the stale ") || strings.Count(out, "\n") != 1 {
			t.Errorf("daemon stop with a stale pid file %q said %q", content, out)
		}
		if _, err := os.Stat(filepath.Join(state, "daemon.pid")); !os.IsNotExist(err) {
			t.Errorf("stale pid file left: %v", err)
		}
		select {
		case err := <-exited:
			t.Fatalf("daemon stop signalled an unrelated process (pid %d): %v", other.Process.Pid, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
	if out := ok(t, p, "daemon", "stop"); out != "daemon: not running\n" {
		t.Errorf("daemon stop without a pid file said %q", out)
	}
	// A running daemon whose pid file names another process: not signalled.
	if out, err := cairnProc(p, "", "daemon", "start").CombinedOutput(); err != nil {
		t.Fatalf("daemon start: %v\n%s", err, out)
	}
	pidb, _ := os.ReadFile(filepath.Join(state, "daemon.pid"))
	os.WriteFile(filepath.Join(state, "daemon.pid"), []byte(strconv.Itoa(other.Process.Pid)+"\n"), 0o600)
	fails(t, p, 1, "not signalling", "daemon", "stop")
	select {
	case err := <-exited:
		t.Fatalf("daemon stop signalled an unrelated process: %v", err)
	default:
	}
	os.WriteFile(filepath.Join(state, "daemon.pid"), pidb, 0o600)
	if out := ok(t, p, "daemon", "stop"); !strings.HasPrefix(out, "daemon: stopped (pid "+strings.TrimSpace(string(pidb))+")") {
		t.Errorf("daemon stop of the running daemon said %q", out)
	}
}
