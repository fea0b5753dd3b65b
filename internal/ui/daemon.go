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
