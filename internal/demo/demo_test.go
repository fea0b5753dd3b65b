package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
)

func TestItems(t *testing.T) {
	items, err := Items()
	if err != nil {
		t.Fatal(err)
	}
	// The demo edits the second and forgets the fourth.
	if len(items) < 4 {
		t.Fatalf("%d items, the demo needs 4", len(items))
	}
	for i, it := range items {
		if it.Kind == "" || it.Title == "" || strings.TrimSpace(it.Body) == "" {
			t.Errorf("item %d lacks kind, title or body: %+v", i, it)
		}
	}
}

func TestCreate(t *testing.T) {
	p, err := Create()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Remove()
	repo, err := git.PlainOpen(p.Dir)
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Head()
	if err != nil || head.Hash().String() != p.Commit {
		t.Errorf("HEAD %v (%v), want the commit %s", head, err, p.Commit)
	}
	if got, err := os.ReadFile(p.Transcript); err != nil || string(got) != string(session) {
		t.Errorf("transcript: %v", err)
	}
	if filepath.Dir(p.Transcript) == p.Dir {
		t.Error("the transcript is inside the project, where a checkpoint would see it")
	}

	name := filepath.Join(p.Dir, "note.md")
	os.WriteFile(name, []byte("x\n"), 0o644)
	if err := EditByHand(name); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(name); !strings.HasPrefix(string(got), "x\n") || len(got) <= 2 {
		t.Errorf("after the edit: %q", got)
	}
	if err := EditByHand(filepath.Join(p.Dir, "missing.md")); err == nil {
		t.Error("edit of a missing file succeeded")
	}

	if err := p.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p.Root); !os.IsNotExist(err) {
		t.Errorf("%s is left: %v", p.Root, err)
	}
}
