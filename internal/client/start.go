package client

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// StartLock is the state folder's file a session start holds while it
// starts the daemon, so that session starts at the same moment start one.
const StartLock = "autostart.lock"

// Spawn says how to run cairn in the background.
type Spawn struct {
	// Command runs it in the foreground: the cairn binary and its
	// arguments (cairn -C PROJECT daemon run).
	Command []string
	// Dir is the folder the process starts in.
	Dir string
	// Env is its environment; Start adds CAIRN_DIR, the memory's folder.
	Env []string
}

// Start starts s.Command in a session of its own (a terminal closing or
// an agent killing its hook's process group leaves it running), with
// CAIRN_DIR=mem, its output going to logf. The channel gets what Wait
// says once the process exits.
func (s Spawn) Start(mem string, logf *os.File) (*exec.Cmd, <-chan error, error) {
	if len(s.Command) == 0 {
		return nil, nil, errors.New("no command to start")
	}
	cmd := exec.Command(s.Command[0], s.Command[1:]...)
	cmd.Dir = s.Dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Env = append(slices.Clip(s.Env), "CAIRN_DIR="+mem)
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	return cmd, exited, nil
}

// ErrStarting means Autostart started the daemon, or found one starting,
// but it did not answer within the wait: it goes on starting.
var ErrStarting = errors.New("the cairn daemon is starting")

// Autostart runs the daemon of the memory mem, whose state folder is
// stateDir, through s when none runs, logging to the state folder's
// daemon.log, and waits up to wait for it to answer. It returns a client
// of the daemon that answers, and the pid it started when that is the
// daemon that answers (0 when it found one running or starting, or when
// the one it started lost the daemon's lock to another). When the daemon
// does not answer in time the error wraps ErrStarting.
//
// One daemon per memory: session starts at the same moment take turns
// through StartLock, and one that finds the daemon's lock held (a daemon
// running or opening the memory) starts none. Should two daemons start
// anyway (a lock held past the wait), the daemon's own lock lets one
// run and the other exit.
func Autostart(ctx context.Context, stateDir, mem string, s Spawn, wait time.Duration) (*Client, int, error) {
	deadline := time.Now().Add(wait)
	unlock, err := safefile.Lock(ctx, filepath.Join(stateDir, StartLock), wait)
	if err != nil {
		if errors.Is(err, safefile.ErrLocked) {
			return nil, 0, fmt.Errorf("%w: another session start is starting it", ErrStarting)
		}
		return nil, 0, fmt.Errorf("start the daemon: %w", err)
	}
	defer unlock()
	// The session start before this one may have started it.
	if c, err := Discover(ctx, stateDir, 200*time.Millisecond); err == nil {
		return c, 0, nil
	}
	if pid := lockHolder(filepath.Join(stateDir, LockFile)); pid > 0 {
		c, err := answer(ctx, stateDir, deadline, nil)
		return c, 0, err
	}
	logName := filepath.Join(stateDir, LogFile)
	logf, err := os.OpenFile(logName, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, 0, fmt.Errorf("start the daemon: open its log: %w", err)
	}
	defer logf.Close()
	cmd, exited, err := s.Start(mem, logf)
	if err != nil {
		return nil, 0, fmt.Errorf("start the daemon: %w", err)
	}
	pid := cmd.Process.Pid
	c, err := answer(ctx, stateDir, deadline, exited)
	if err != nil && !errors.Is(err, ErrStarting) {
		err = fmt.Errorf("%w; see %s", err, logName)
	}
	if err == nil && lockHolder(filepath.Join(stateDir, LockFile)) != pid {
		// The daemon that answers is another one, which took the
		// daemon's lock first (a service's, started at the same
		// moment): the one started here exits beside it, and this
		// found one running.
		pid = 0
	}
	return c, pid, err
}

// answer waits until the daemon answers or deadline passes (the error
// wraps ErrStarting). The process started, if any, says through exited
// that it gave up: then another daemon may have won the race for the
// daemon's lock, which the wait goes on for.
func answer(ctx context.Context, stateDir string, deadline time.Time, exited <-chan error) (*Client, error) {
	var gone error
	for {
		if c, err := Discover(ctx, stateDir, 200*time.Millisecond); err == nil {
			return c, nil
		}
		if gone != nil && lockHolder(filepath.Join(stateDir, LockFile)) == 0 {
			return nil, fmt.Errorf("the daemon exited at start (%v)", gone)
		}
		if time.Now().After(deadline) {
			return nil, ErrStarting
		}
		select {
		case gone = <-exited:
			exited = nil
			if gone == nil {
				gone = errors.New("exit status 0")
			}
		case <-ctx.Done():
			return nil, fmt.Errorf("%w (%v)", ErrStarting, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// lockHolder is the pid of the live process holding the daemon's lock
// file name, as its holder wrote it, or 0.
func lockHolder(name string) int {
	var pid int
	if _, err := fmt.Sscanf(safefile.Holder(name), "pid %d", &pid); err != nil || pid <= 0 {
		return 0
	}
	if syscall.Kill(pid, 0) != nil {
		return 0
	}
	return pid
}
