package server

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/anchor"
	"github.com/cairn-mem/cairn/internal/model"
)

// TestDeriver: the daemon's derived part brings the staleness check up to
// the project's new HEAD, and makes the pack cache, without a pack
// asking for either.
func TestDeriver(t *testing.T) {
	m := newMemory(t)
	defer m.Close()
	proj := m.Project
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(proj, "main.go"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(msg string) {
		t.Helper()
		gitOut(t, proj, "add", "main.go")
		gitOut(t, proj, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", msg)
	}
	gitOut(t, proj, "init", "-q")
	write("package main\n")
	commit("first")
	it := model.NewItem(model.Fact, "The entry point is main.go", m.Now())
	if _, err := m.Remember(context.Background(), it); err != nil {
		t.Fatal(err)
	}
	write("package main\n\nfunc main() {}\n")
	commit("main")
	if _, current := anchor.Known(m); current {
		t.Fatal("the check is current before the deriver ran")
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- deriver{mem: m, log: slog.New(slog.NewTextHandler(io.Discard, nil)), every: 10 * time.Millisecond}.Serve(ctx)
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("deriver: %v", err)
		}
	}()
	waitFor(t, "the check and the pack cache", func() bool {
		marks, current := anchor.Known(m)
		_, err := os.Stat(m.StatePath("packcache.bin"))
		return current && marks[it.ID] != "" && err == nil
	})
}
