package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/model"
)

// Issue 12, item 2: a .gitignore of "*" taken from a remote (here
// committed by hand, as a fast-forward would) cannot keep memory out of
// commits: cairn's own paths ignore it. And a write that did not reach a
// commit is an error naming the path, never a success.
func TestRemoteGitignoreCannotHideMemory(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	if err := os.WriteFile(filepath.Join(m.Dir, ".gitignore"), []byte("*\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	gitc(t, m.Dir, "-c", "user.name=R", "-c", "user.email=r@x", "commit", "-qam", "remote: ignore everything")
	m, err := Open(ctx, m.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()

	it := model.NewItem(model.Decision, "Keep memory committed", m.Now())
	it.Body = "Whatever the remote's .gitignore says."
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatal(err)
	}
	gitc(t, m.Dir, "cat-file", "-e", "HEAD:"+it.Path())

	// A hand edit in core/ is seen by status and committed by checkpoint.
	hand := filepath.Join(m.Dir, "core", "notes", "hand.md")
	os.MkdirAll(filepath.Dir(hand), 0o700)
	if err := os.WriteFile(hand, []byte("---\ntitle: hand\n---\nby hand\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := m.Status(ctx)
	if err != nil || len(st) != 1 || st[0].Path != "core/notes/hand.md" {
		t.Errorf("status = %v, %v; want the hand edit", st, err)
	}
	if _, err := m.Checkpoint(ctx, CheckpointOptions{Message: "hand"}); err != nil {
		t.Fatal(err)
	}
	gitc(t, m.Dir, "cat-file", "-e", "HEAD:core/notes/hand.md")
	// cairn's own skeleton patterns still apply there: an editor's swap
	// file is not memory.
	os.WriteFile(filepath.Join(m.Dir, "core", "notes", ".hand.md.swp"), []byte("x"), 0o600)
	if st, _ := m.Status(ctx); len(st) != 0 {
		t.Errorf("status = %v, want the swap file ignored", st)
	}

	// A path outside cairn's own, which the .gitignore does keep out:
	// the write is an error naming it, and is undone.
	tx, err := m.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx.Put("elsewhere.md", []byte("x\n"))
	_, err = tx.Commit(ctx, CheckpointOptions{Message: "elsewhere"})
	tx.End()
	if err == nil || !strings.Contains(err.Error(), "elsewhere.md") || !strings.Contains(err.Error(), "not committed") {
		t.Errorf("uncommitted write: %v, want an error naming elsewhere.md", err)
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "elsewhere.md")); err == nil {
		t.Error("the uncommitted write was left in the work tree")
	}
}
