package mcpserve

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/server"
)

// The MCP server's tests run it against a real memory and, for the
// tools that go through one, a real daemon in the same process: the
// helpers package server's tests have, for a package outside it.

// newMemory makes a memory in a new project, with HOME and the author
// set for the test.
func newMemory(t *testing.T) *memory.Memory {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CAIRN_AUTHOR_NAME", "test")
	t.Setenv("CAIRN_AUTHOR_EMAIL", "test@example.com")
	proj := filepath.Join(t.TempDir(), "proj")
	os.MkdirAll(proj, 0o755)
	m, _, err := memory.Init(context.Background(), proj, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// startDaemon runs a daemon on a new memory until the test ends and
// returns it with its base URL and token; it checks that the daemon then
// stops without an error.
func startDaemon(t *testing.T) (*server.Daemon, string, string) {
	t.Helper()
	d := &server.Daemon{Mem: newMemory(t)}
	m := d.Mem
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("daemon: %v", err)
		}
		m.Close()
	})
	var url, token string
	waitFor(t, "daemon to start", func() bool {
		a, err1 := os.ReadFile(m.StatePath(client.AddrFile))
		k, err2 := os.ReadFile(m.StatePath(client.TokenFile))
		url, token = strings.TrimSpace(string(a)), strings.TrimSpace(string(k))
		return err1 == nil && err2 == nil && url != ""
	})
	return d, url, token
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if ok() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}
