package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// Issue 12, item 1: a checkpoint never commits a symbolic link, nor
// content read through one (a linked folder, or a known path below it),
// and says which it left out; ReadFile refuses them.
func TestCheckpointSkipsSymlinks(t *testing.T) {
	s := newStore(t, map[string]string{"core/a.md": "a\n"})
	var warned []string
	s.warn = func(m string) { warned = append(warned, m) }
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("PLANTED\n"), 0o600)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(s.Dir(), "core", "env.md"))
	os.Symlink(outside, filepath.Join(s.Dir(), "linked"))
	write(t, s, "core/b.md", "b\n")
	ctx := context.Background()
	unlock, err := s.Lock(ctx, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := s.Checkpoint(ctx, CheckpointOptions{Subject: "b"})
	if err != nil || len(cp.Changes) != 1 || cp.Changes[0].Path != "core/b.md" {
		t.Fatalf("checkpoint: %+v %v", cp, err)
	}
	// A known path below a linked folder is not read through it.
	if _, err := s.Checkpoint(ctx, CheckpointOptions{Paths: []string{"linked/secret"}}); !errors.Is(err, ErrNothingToDo) {
		t.Errorf("checkpoint through a linked folder: %v", err)
	}
	unlock()
	all := strings.Join(warned, "\n")
	for _, want := range []string{"core/env.md is a symbolic link", "linked is a symbolic link"} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning %q in:\n%s", want, all)
		}
	}
	if files := gitCLI(t, s.Dir(), "ls-files", "-s"); strings.Contains(files, "120000 ") || strings.Contains(files, "linked") {
		t.Errorf("a link was committed:\n%s", files)
	}
	if log := gitCLI(t, s.Dir(), "log", "-p", "--all"); strings.Contains(log, "PLANTED") {
		t.Errorf("linked content was committed:\n%s", log)
	}
	for _, p := range []string{"core/env.md", "linked/secret"} {
		if b, err := s.ReadFile(p); !errors.Is(err, safefile.ErrLink) {
			t.Errorf("ReadFile %s: %q %v", p, b, err)
		}
	}
}
