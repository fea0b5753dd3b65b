package client

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// DaemonState is what the state folder says about a daemon; cairn daemon
// status --json prints it.
type DaemonState struct {
	Running bool   `json:"running"`
	PID     int    `json:"pid,omitempty"`
	URL     string `json:"url,omitempty"`
}

// Status says whether the daemon of the memory whose state folder is
// stateDir runs: its pid file names a live process (PID), and it answers
// at the address it wrote within a second (Running, URL).
func Status(ctx context.Context, stateDir string) DaemonState {
	var s DaemonState
	b, err := os.ReadFile(filepath.Join(stateDir, PIDFile))
	if err != nil {
		return s
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 || syscall.Kill(pid, 0) != nil {
		return s
	}
	s.PID = pid
	if c, err := Discover(ctx, stateDir, time.Second); err == nil {
		s.Running, s.URL = true, c.BaseURL
	}
	return s
}
