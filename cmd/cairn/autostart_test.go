package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
)

// stopDaemon stops, when the test ends, the daemon a session start may
// have started for the memory in dir: before t.TempDir removes it.
func stopDaemon(t *testing.T, dir string) {
	t.Helper()
	t.Cleanup(func() {
		if _, err := os.Stat(filepath.Join(dir, ".cairn", ".state", "daemon.pid")); err == nil {
			exec.Command(binary, "-C", dir, "daemon", "stop").Run()
		}
	})
}

// noAutostart sets daemon.autostart: false in the memory of project p:
// its session starts run no daemon. The change is checkpointed.
func noAutostart(t *testing.T, p string) {
	t.Helper()
	yaml := filepath.Join(p, ".cairn", "cairn.yaml")
	b, err := os.ReadFile(yaml)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("\ndaemon:\n  autostart: false\n")) {
		return
	}
	if err := os.WriteFile(yaml, append(b, "daemon:\n  autostart: false\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	ok(t, p, "checkpoint")
}

// daemons are the pids of the processes running `cairn -C dir daemon
// run` (a session start's) or `cairn daemon run -C dir` (a service's),
// from /proc.
func daemons(t *testing.T, dir string) []int {
	t.Helper()
	line := func(args ...string) string { return strings.Join(args, "\x00") + "\x00" }
	started, service := line(binary, "-C", dir, "daemon", "run"), line(binary, "daemon", "run", "-C", dir)
	var pids []int
	for _, c := range mustGlob(t, "/proc/[0-9]*/cmdline") {
		if b, err := os.ReadFile(c); err == nil && (string(b) == started || string(b) == service) {
			var pid int
			fmt.Sscanf(filepath.Base(filepath.Dir(c)), "%d", &pid)
			pids = append(pids, pid)
		}
	}
	return pids
}

// settled waits until the daemons of dir are n, and returns them.
func settled(t *testing.T, dir string, n int) []int {
	t.Helper()
	var pids []int
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if pids = daemons(t, dir); len(pids) == n {
			break
		}
	}
	return pids
}

// daemonStatus is what cairn daemon status --json says of the daemon of
// the memory in dir. (Its text says "not running" when none runs: look
// for "running" in it and that passes too.)
func daemonStatus(t *testing.T, dir string) client.DaemonState {
	t.Helper()
	var st client.DaemonState
	if err := json.Unmarshal([]byte(ok(t, dir, "daemon", "status", "--json")), &st); err != nil {
		t.Fatalf("daemon status --json: %v", err)
	}
	return st
}

// sessionStart runs `cairn hook session-start` as Claude Code does.
func sessionStart(dir, id string) (stdout, stderr string, elapsed time.Duration, err error) {
	cmd := exec.Command(binary, "hook", "session-start")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+dir, "CAIRN_DIR=")
	cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"session_id":%q,"hook_event_name":"SessionStart","source":"startup","cwd":%q}`, id, dir))
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	t0 := time.Now()
	err = cmd.Run()
	return o.String(), e.String(), time.Since(t0), err
}

func TestAutostart(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("counts daemons through /proc")
	}
	t.Run("one session start", func(t *testing.T) {
		p := project(t)
		ok(t, p, "init")
		stopDaemon(t, p)
		out, errs, took, err := sessionStart(p, "5e1d2c3b-0001")
		if err != nil {
			t.Fatalf("session start: %v\n%s", err, errs)
		}
		t.Logf("session start with autostart: %v", took)
		if strings.Contains(out, "cairn daemon start") || !strings.Contains(out, "started the memory sidecar") {
			t.Errorf("session start said %q", out)
		}
		pids := settled(t, p, 1)
		if len(pids) != 1 {
			t.Fatalf("daemons after a session start: %v, want one", pids)
		}
		if st := daemonStatus(t, p); !st.Running || st.PID != pids[0] {
			t.Errorf("daemon status: %+v, want pid %d running", st, pids[0])
		}
		// The next session start finds it and starts none.
		out, _, _, _ = sessionStart(p, "5e1d2c3b-0002")
		if strings.Contains(out, "started the memory sidecar") || strings.Contains(out, "not running") {
			t.Errorf("second session start said %q", out)
		}
		if pids := settled(t, p, 1); len(pids) != 1 {
			t.Errorf("daemons after two session starts: %v, want one", pids)
		}
	})
	t.Run("concurrent session starts", func(t *testing.T) {
		p := project(t)
		ok(t, p, "init")
		stopDaemon(t, p)
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Go(func() {
				_, e, _, err := sessionStart(p, fmt.Sprintf("5e1d2c3b-10%02d", i))
				if err != nil {
					errs[i] = fmt.Errorf("%v: %s", err, e)
				}
			})
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Errorf("session start: %v", err)
			}
		}
		// A daemon that lost the race for the lock exits at once; wait
		// for that, then make sure no second one stays.
		pids := settled(t, p, 1)
		time.Sleep(300 * time.Millisecond)
		if again := daemons(t, p); len(pids) != 1 || len(again) != 1 {
			t.Fatalf("daemons after 4 concurrent session starts: %v then %v, want one", pids, again)
		}
	})
	t.Run("autostart false", func(t *testing.T) {
		p := project(t)
		ok(t, p, "init")
		stopDaemon(t, p)
		noAutostart(t, p)
		out, errs, _, err := sessionStart(p, "5e1d2c3b-2001")
		if err != nil {
			t.Fatalf("session start: %v\n%s", err, errs)
		}
		if !strings.Contains(out, "cairn daemon start") {
			t.Errorf("session start without autostart said %q", out)
		}
		time.Sleep(200 * time.Millisecond)
		if pids := daemons(t, p); len(pids) != 0 {
			t.Errorf("daemons with daemon.autostart: false: %v, want none", pids)
		}
	})
}
