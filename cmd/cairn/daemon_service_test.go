package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serviceProc runs the cairn binary in p with HOME=home and a PATH with
// no systemctl or launchctl, as a user without them.
func serviceProc(t *testing.T, p, home string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = p
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME=", "PATH="+filepath.Join(home, "bin"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("cairn %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestDaemonInstall(t *testing.T) {
	if _, err := os.Stat("/proc/self/cmdline"); err != nil {
		t.Skip("Linux: a systemd user unit")
	}
	p := project(t)
	ok(t, p, "init")
	stopDaemon(t, p)
	home := t.TempDir()

	out := serviceProc(t, p, home, "daemon", "install")
	units, _ := filepath.Glob(filepath.Join(home, ".config", "systemd", "user", "cairn-*.service"))
	if len(units) != 1 {
		t.Fatalf("units %v after install:\n%s", units, out)
	}
	unit := units[0]
	id := strings.TrimSuffix(filepath.Base(unit), ".service")
	for _, want := range []string{"daemon: wrote " + unit, "systemctl --user daemon-reload", "systemctl --user enable --now " + id + ".service", "systemctl is not installed here"} {
		if !strings.Contains(out, want) {
			t.Errorf("install said %q, want %q", out, want)
		}
	}
	data, err := os.ReadFile(unit)
	if err != nil {
		t.Fatal(err)
	}
	var execStart []string
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, "ExecStart="); ok {
			execStart = strings.Fields(rest)
		}
	}
	if want := []string{binary, "daemon", "run", "-C", p}; strings.Join(execStart, " ") != strings.Join(want, " ") {
		t.Errorf("ExecStart %q, want %q", execStart, want)
	}
	if out := serviceProc(t, p, home, "daemon", "install"); !strings.Contains(out, "daemon: unchanged: "+unit) {
		t.Errorf("second install said %q", out)
	}

	// What systemd would run, and a session start: one daemon, whichever
	// comes first. The service's daemon first: the session start finds it.
	service := exec.Command(execStart[0], execStart[1:]...)
	logName := filepath.Join(t.TempDir(), "service.log")
	log, err := os.Create(logName)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	service.Stdout, service.Stderr = log, log
	if err := service.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- service.Wait() }()
	// Until the service's daemon answers, a session start finds neither
	// it nor a holder of its lock, and rightly starts one of its own: wait
	// for that state (daemon status says "not running" until then, and
	// the pid is the service's once it answers).
	for deadline := time.Now().Add(30 * time.Second); ; {
		if st := daemonStatus(t, p); st.Running && st.PID == service.Process.Pid {
			break
		}
		select {
		case err := <-exited:
			b, _ := os.ReadFile(logName)
			t.Fatalf("the service's daemon exited before it answered: %v\n%s", err, b)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(logName)
			t.Fatalf("the service's daemon did not answer (not a timing check: a bound on a wait that would hang):\n%s", b)
		}
	}
	if out, _, _, err := sessionStart(p, "5e1d2c3b-3001"); err != nil || strings.Contains(out, "started the memory sidecar") {
		t.Errorf("session start beside the service: %v, %q", err, out)
	}
	if n := len(daemons(t, p)); n != 1 {
		t.Errorf("%d daemons with the service running, want 1", n)
	}
	ok(t, p, "daemon", "stop")
	<-exited

	// A session start first: the service's daemon exits with the status
	// its unit does not restart on.
	if out, errs, _, err := sessionStart(p, "5e1d2c3b-3002"); err != nil || !strings.Contains(out, "started the memory sidecar") {
		t.Fatalf("session start: %v, %q %s", err, out, errs)
	}
	err = exec.Command(execStart[0], execStart[1:]...).Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 || !strings.Contains(string(data), "RestartPreventExitStatus=3") {
		t.Errorf("the service's daemon beside a running one: %v, want exit status 3, which the unit does not restart on", err)
	}
	if n := len(settled(t, p, 1)); n != 1 {
		t.Errorf("%d daemons, want 1", n)
	}

	if out := serviceProc(t, p, home, "daemon", "uninstall"); !strings.Contains(out, "daemon: removed "+unit) || !strings.Contains(out, "systemctl --user disable --now "+id+".service") {
		t.Errorf("uninstall said %q", out)
	}
	if _, err := os.Stat(unit); !os.IsNotExist(err) {
		t.Errorf("%s after uninstall: %v", unit, err)
	}
	if out := serviceProc(t, p, home, "daemon", "uninstall"); !strings.Contains(out, "no service to remove") {
		t.Errorf("second uninstall said %q", out)
	}
}
