package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// StartOptions say how Start runs the daemon in the background.
type StartOptions struct {
	// Command runs the daemon in the foreground: the cairn binary and its
	// arguments (cairn -C PROJECT daemon run).
	Command []string
	// Dir is the folder the daemon's process starts in.
	Dir string
	// Env is its environment; Start adds CAIRN_DIR, the memory's folder.
	Env []string
}

// Start runs m's daemon in the background, in a session of its own,
// logging to the state folder's daemon.log, and waits up to 10 s for it
// to answer. When a daemon runs already, Start returns its state and
// started false.
func Start(ctx context.Context, m *memory.Memory, opts StartOptions) (s client.DaemonState, started bool, err error) {
	if s := client.Status(ctx, m.StatePath("")); s.Running {
		return s, false, nil
	}
	logName := m.StatePath(client.LogFile)
	logf, err := os.OpenFile(logName, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return s, false, fmt.Errorf("open daemon log: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command(opts.Command[0], opts.Command[1:]...)
	cmd.Dir = opts.Dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Env = append(slices.Clip(opts.Env), "CAIRN_DIR="+m.Dir)
	if err := cmd.Start(); err != nil {
		return s, false, fmt.Errorf("start daemon: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return s, false, fmt.Errorf("daemon exited at start (%v); see %s", err, logName)
		case <-time.After(20 * time.Millisecond):
		}
		if s := client.Status(ctx, m.StatePath("")); s.Running {
			return s, true, nil
		}
	}
	return s, false, fmt.Errorf("daemon did not answer within 10s; see %s", logName)
}

// Stopped says what Stop found.
type Stopped struct {
	PID int
	// Stale: the pid file named no daemon of this memory (PID, or 0 when
	// it held no pid); it was removed, and nothing was signalled.
	Stale bool
}

// Stop stops m's daemon: SIGTERM, then up to 10 s for it to exit. No
// pid file is a Stopped with PID 0; a pid file that outlived its daemon
// is removed (Stale).
func Stop(m *memory.Memory) (Stopped, error) {
	var s Stopped
	b, err := os.ReadFile(m.StatePath(client.PIDFile))
	if err == nil {
		s.PID, err = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil || s.PID <= 0 {
		s.PID = 0 // not a pid: stale, whatever wrote it
	}
	// A pid file outlives a daemon killed with -9, and its pid may be
	// another process's by now: signal only this memory's daemon.
	ours, err := isDaemon(m, s.PID)
	if err != nil {
		return s, err
	}
	if !ours {
		s.Stale = true
		return s, nil
	}
	if err := syscall.Kill(s.PID, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return s, fmt.Errorf("stop daemon (pid %d): %w", s.PID, err)
	}
	for i := 0; i < 500; i++ {
		if syscall.Kill(s.PID, 0) != nil {
			return s, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return s, fmt.Errorf("daemon (pid %d) did not stop within 10s", s.PID)
}

// daemonHolder is how long to wait for a daemon that holds its lock to
// say who it is (it writes that just after taking it).
const daemonHolder = 2 * time.Second

// isDaemon reports whether pid is this memory's daemon. A daemon holds
// .state/daemon.lock while it runs, and wrote "pid N ..." into it. When
// nobody holds the lock, no daemon runs: the pid file (and the address)
// are stale, and removed, and isDaemon reports false. When the lock's
// holder is another process than pid, or does not say who it is, the
// error says so and nothing is signalled.
func isDaemon(m *memory.Memory, pid int) (bool, error) {
	lock := m.StatePath(client.LockFile)
	unlock, err := safefile.TryLock(lock)
	if err == nil {
		defer unlock()
		// Under the lock: no daemon can start and write its own.
		os.Remove(m.StatePath(client.AddrFile))
		if err := os.Remove(m.StatePath(client.PIDFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return false, err
		}
		return false, nil
	}
	if !errors.Is(err, safefile.ErrLocked) {
		return false, fmt.Errorf("stop daemon: %w", err)
	}
	for deadline := time.Now().Add(daemonHolder); ; time.Sleep(20 * time.Millisecond) {
		var holder int
		if _, err := fmt.Sscanf(safefile.Holder(lock), "pid %d", &holder); err == nil {
			if holder != pid {
				return false, fmt.Errorf("stop daemon: %s names pid %d, but the daemon holding %s is pid %d; not signalling either", m.StatePath(client.PIDFile), pid, lock, holder)
			}
			return true, nil
		}
		if time.Now().After(deadline) {
			return false, fmt.Errorf("stop daemon: %s is held by a process that does not say who it is; not signalling pid %d", lock, pid)
		}
	}
}
