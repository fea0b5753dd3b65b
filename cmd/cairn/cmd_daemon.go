package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type daemonOptions struct{ json bool }

func newDaemonCommand(g *globals) *cobra.Command {
	var opts daemonOptions
	cmd := &cobra.Command{
		Use:   "daemon [run|start|stop|status]",
		Short: "Run the sidecar: watch the memory and serve the HTTP API on loopback",
		Long: `The sidecar. "run" (the default) runs it in the foreground until Ctrl-C;
"start" runs it in the background, logging to .cairn/.state/daemon.log; "stop"
stops it; "status" says whether it runs. One daemon per memory: a second one
refuses to start.

While it runs, checkpoints in any process find hand edits by asking it what
changed instead of looking at every file.`,
		Args:      rangeArgs(0, 1),
		ValidArgs: []string{"run", "start", "stop", "status"},
		RunE: func(cmd *cobra.Command, args []string) error {
			action := "run"
			if len(args) == 1 {
				action = args[0]
			}
			switch action {
			case "run":
				return runDaemon(cmd.Context(), g)
			case "start":
				return runDaemonStart(cmd.Context(), g)
			case "stop":
				return runDaemonStop(cmd.Context(), g)
			case "status":
				return runDaemonStatus(cmd.Context(), g, opts)
			}
			return usagef("unknown daemon action %q: want run, start, stop or status", action)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print status as JSON")
	return cmd
}

func runDaemon(ctx context.Context, g *globals) error {
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	d := &server.Daemon{Mem: m, Log: slog.New(slog.NewTextHandler(g.stderr, nil))}
	d.Parts = append(d.Parts, syncPart(g, m.Dir, d.Log)) // cmd_sync.go
	return d.Serve(ctx)
}

// readDaemonState says whether the memory's daemon runs.
func readDaemonState(m *memory.Memory) ui.DaemonState {
	var s ui.DaemonState
	b, err := os.ReadFile(m.StatePath(client.PIDFile))
	if err != nil {
		return s
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 || syscall.Kill(pid, 0) != nil {
		return s
	}
	s.PID = pid
	if c, err := client.Discover(context.Background(), m.StatePath(""), time.Second); err == nil {
		s.Running, s.URL = true, c.BaseURL
	}
	return s
}

func runDaemonStatus(ctx context.Context, g *globals, opts daemonOptions) error {
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	s := readDaemonState(m)
	if opts.json {
		return ui.DaemonJSON(g.stdout, s)
	}
	return ui.DaemonText(g.stdout, s)
}

func runDaemonStart(ctx context.Context, g *globals) error {
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	if s := readDaemonState(m); s.Running {
		fmt.Fprintf(g.stdout, "daemon: already running, pid %d, %s\n", s.PID, s.URL)
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	logName := m.StatePath(client.LogFile)
	logf, err := os.OpenFile(logName, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("open daemon log: %w", err)
	}
	defer logf.Close()
	cmd := exec.Command(exe, "-C", filepath.Dir(m.Dir), "daemon", "run")
	cmd.Dir = g.dir // -C names the folder cairn works in, its children included
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Env = append(os.Environ(), "CAIRN_DIR="+m.Dir)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start daemon: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("daemon exited at start (%v); see %s", err, logName)
		case <-time.After(20 * time.Millisecond):
		}
		if s := readDaemonState(m); s.Running {
			fmt.Fprintf(g.stdout, "daemon: started, pid %d, %s\n", s.PID, s.URL)
			return nil
		}
	}
	return fmt.Errorf("daemon did not answer within 10s; see %s", logName)
}

func runDaemonStop(ctx context.Context, g *globals) error {
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	var s ui.DaemonState
	b, err := os.ReadFile(m.StatePath(client.PIDFile))
	if err == nil {
		s.PID, err = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if errors.Is(err, os.ErrNotExist) {
		fmt.Fprintln(g.stdout, "daemon: not running")
		return nil
	}
	if err != nil || s.PID <= 0 {
		s.PID = 0 // not a pid: stale, whatever wrote it
	}
	// A pid file outlives a daemon killed with -9, and its pid may be
	// another process's by now: signal only this memory's daemon.
	ours, err := isDaemon(m, s.PID)
	if err != nil {
		return err
	}
	if !ours {
		fmt.Fprintf(g.stdout, "daemon: not running; removed the stale %s (pid %d is not this memory's daemon)\n", m.StatePath(client.PIDFile), s.PID)
		return nil
	}
	if err := syscall.Kill(s.PID, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("stop daemon (pid %d): %w", s.PID, err)
	}
	for i := 0; i < 500; i++ {
		if syscall.Kill(s.PID, 0) != nil {
			fmt.Fprintf(g.stdout, "daemon: stopped (pid %d)\n", s.PID)
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("daemon (pid %d) did not stop within 10s", s.PID)
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
