package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/memory/journal"
)

// A batch interrupted between its writes and its commit is undone by the
// next writer; one interrupted after its commit is finished.
func TestJournal(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	write(t, m, "first")
	head, err := m.Store().Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	before := readRepo(t, m, "sessions/s/prompts.md")
	unlock, _ := m.Lock(ctx)
	b := &Writes{}
	b.Add("sessions/s/prompts.md", []byte("\n## 2\n\nhalf done\n"))
	b.Put("core/facts/x--01JE0A1B2C3D4E5F6G7H8J9K0R.md", []byte("---\ntitle: x\n---\n"))
	j := &journal.Journal{Schema: 1, Parent: head, Writes: []journal.FileWrite{
		{Path: "sessions/s/prompts.md", Append: true, Base: int64(len(before)), Existed: true, Data: b.Changes()[0].Data},
		{Path: b.Changes()[1].Path, Data: b.Changes()[1].Data},
	}, Paths: b.Paths(), Session: "s", Event: "test"}
	if err := m.journal().Write(j); err != nil {
		t.Fatal(err)
	}
	if err := m.journal().Redo(j); err != nil { // the process dies here, before its commit
		t.Fatal(err)
	}
	unlock()
	write(t, m, "second")
	p := readRepo(t, m, "sessions/s/prompts.md")
	if strings.Contains(p, "half done") || !strings.Contains(p, "second") {
		t.Errorf("after undo:\n%s", p)
	}
	if _, err := os.Stat(filepath.Join(m.Dir, "core/facts")); !errors.Is(err, os.ErrNotExist) {
		t.Error("the undone item is still there")
	}
	// Now one that committed before the process died.
	unlock, _ = m.Lock(ctx)
	j.Parent = "0000000000000000000000000000000000000000"
	j.Writes[0].Base = int64(len(p))
	if err := m.journal().Write(j); err != nil {
		t.Fatal(err)
	}
	if err := m.journal().Redo(j); err != nil {
		t.Fatal(err)
	}
	unlock()
	unlock, err = m.LockSettled(ctx) // the next writer settles it
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	if m.JournalPending() {
		t.Error("journal left")
	}
	if st, _ := m.Status(ctx); len(st) != 0 {
		t.Errorf("work tree differs from HEAD: %v", st)
	}
}

// write appends a prompt to session s through the write model, as the
// capture worker does.
func write(t *testing.T, m *Memory, text string) {
	t.Helper()
	ctx := context.Background()
	unlock, err := m.LockSettled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	b := &Writes{}
	b.Add("sessions/s/prompts.md", []byte("\n"+text+"\n"))
	if _, err := m.CommitWrites(ctx, b, CheckpointOptions{Message: "test: " + text, Event: "test"}); err != nil {
		t.Fatal(err)
	}
}

func testMemory(t *testing.T) *Memory {
	t.Helper()
	m, _, err := Init(context.Background(), t.TempDir(), Options{
		Identity: gitstore.Identity{Name: "test", Email: "test@example.com"},
		Warn:     func(s string) { t.Log("warn: " + s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

func readRepo(t *testing.T, m *Memory, p string) string {
	t.Helper()
	b, err := m.Store().ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
