package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// Start runs m's daemon in the background, in a session of its own,
// logging to the state folder's daemon.log, and waits up to 10 s for it
// to answer (client.Autostart). When a daemon runs already, Start returns
// its state and started false.
func Start(ctx context.Context, m *memory.Memory, run client.Spawn) (s client.DaemonState, started bool, err error) {
	if s := client.Status(ctx, m.StatePath("")); s.Running {
		return s, false, nil
	}
	_, pid, err := client.Autostart(ctx, m.StatePath(""), m.Dir, run, 10*time.Second)
	if errors.Is(err, client.ErrStarting) {
		return s, false, fmt.Errorf("daemon did not answer within 10s; see %s", m.StatePath(client.LogFile))
	}
	if err != nil {
		return s, false, err
	}
	return client.Status(ctx, m.StatePath("")), pid != 0, nil
}

// MountedMsg is what cairn mount prints when the view is ready.
const MountedMsg = "memory mounted at"

// MountBackground starts exe mount dir for the memory in mem in a process
// of its own, in its own session, logging to the state folder's
// mount.log, and returns its pid once the folder is mounted (the log says
// MountedMsg), or with what went wrong when the process gave up.
func MountBackground(ctx context.Context, exe, mem, dir string) (pid int, err error) {
	logName := filepath.Join(mem, memory.StateDir, "mount.log")
	if err := os.MkdirAll(filepath.Dir(logName), 0o700); err != nil {
		return 0, fmt.Errorf("mount: %w", err)
	}
	log, err := os.OpenFile(logName, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, fmt.Errorf("mount: %w", err)
	}
	defer log.Close()
	// In "/": hold no folder busy.
	cmd, exited, err := client.Spawn{Command: []string{exe, "mount", dir}, Dir: "/", Env: os.Environ()}.Start(mem, log)
	if err != nil {
		return 0, fmt.Errorf("mount: start cairn: %w", err)
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case err := <-exited:
			b, _ := os.ReadFile(logName)
			msg := strings.TrimSpace(string(bytes.TrimPrefix(b, []byte("cairn: "))))
			if msg == "" {
				msg = fmt.Sprint(err)
			}
			return 0, errors.New(msg)
		case <-deadline:
			cmd.Process.Signal(syscall.SIGTERM)
			return 0, fmt.Errorf("mount %s: not mounted after 30 s (see %s)", dir, logName)
		case <-ctx.Done():
			cmd.Process.Signal(syscall.SIGTERM)
			return 0, ctx.Err()
		case <-tick.C:
		}
		// The log says so once the server is done starting: a view in
		// mountinfo may still be looking at itself.
		if b, _ := os.ReadFile(logName); bytes.Contains(b, []byte(MountedMsg)) {
			return cmd.Process.Pid, nil
		}
	}
}

// CheckpointVia checkpoints m through its running daemon, which has the
// stat cache in memory and knows what changed, and here when none runs
// or a tag is asked for. A daemon that went away mid-request (the error
// wraps client.ErrNoDaemon) leaves the work to this process, after a
// warning; an error it answered is its answer.
func CheckpointVia(ctx context.Context, m *memory.Memory, req client.CheckpointRequest, wait time.Duration, warn func(string)) (*client.CheckpointResponse, error) {
	if req.Tag == "" {
		if c, err := client.Discover(ctx, m.StatePath(""), wait); err == nil {
			resp, err := c.Checkpoint(ctx, req)
			if err == nil || !errors.Is(err, client.ErrNoDaemon) {
				return resp, err
			}
			warn(fmt.Sprintf("the cairn daemon went away (%v); checkpointing here", err))
		}
	}
	return Checkpoint(ctx, m, req)
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
