package server

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
)

// TestDaemonStopsWhenReplaced: once the program file the daemon runs
// from is replaced, as go install or a package upgrade does (a new file
// renamed over the old), the daemon stops with ErrReplaced and leaves no
// address behind, so that the next start runs the new program; until
// then a file left as it was keeps it running.
func TestDaemonStopsWhenReplaced(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "cairn")
	if err := os.WriteFile(exe, []byte("old program"), 0o755); err != nil {
		t.Fatal(err)
	}
	m := newMemory(t)
	defer m.Close()
	d := &Daemon{Mem: m, Exe: exe, exeEvery: 20 * time.Millisecond}
	done := make(chan error, 1)
	go func() { done <- d.Serve(context.Background()) }()
	waitFor(t, "daemon to start", func() bool {
		_, err := os.Stat(m.StatePath(client.AddrFile))
		return err == nil
	})
	select {
	case err := <-done:
		t.Fatalf("the daemon stopped with its program unchanged: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
	next := exe + ".new"
	if err := os.WriteFile(next, []byte("the new program"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, exe); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, ErrReplaced) {
			t.Fatalf("Serve = %v, want ErrReplaced", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the daemon did not stop after its program was replaced")
	}
	if _, err := os.Stat(m.StatePath(client.AddrFile)); !os.IsNotExist(err) {
		t.Errorf("the address file is left behind: %v", err)
	}
}
