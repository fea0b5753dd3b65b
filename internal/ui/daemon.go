package ui

import (
	"fmt"
	"io"

	"github.com/cairn-mem/cairn/internal/client"
)

// DaemonJSON writes the daemon's state (cairn daemon status --json).
func DaemonJSON(w io.Writer, s client.DaemonState) error { return JSON(w, s) }

// DaemonText says whether the daemon runs, and where.
func DaemonText(w io.Writer, s client.DaemonState) error {
	if !s.Running {
		_, err := fmt.Fprintln(w, "daemon: not running (start it with cairn daemon start)")
		return err
	}
	_, err := fmt.Fprintf(w, "daemon: running, pid %d, %s\n", s.PID, s.URL)
	return err
}

// DaemonStarted says what cairn daemon start did.
func DaemonStarted(w io.Writer, s client.DaemonState, started bool) error {
	what := "started"
	if !started {
		what = "already running"
	}
	_, err := fmt.Fprintf(w, "daemon: %s, pid %d, %s\n", what, s.PID, s.URL)
	return err
}

// DaemonStopped says what cairn daemon stop did: it stopped pid, found
// no daemon (pid 0), or removed the pid file pidFile that named pid but
// no daemon of this memory (stale).
func DaemonStopped(w io.Writer, pid int, stale bool, pidFile string) error {
	var err error
	switch {
	case stale:
		_, err = fmt.Fprintf(w, "daemon: not running; removed the stale %s (pid %d is not this memory's daemon)\n", pidFile, pid)
	case pid == 0:
		_, err = fmt.Fprintln(w, "daemon: not running")
	default:
		_, err = fmt.Fprintf(w, "daemon: stopped (pid %d)\n", pid)
	}
	return err
}
