package memory

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/model"
)

// Issue 12, item 5: the files and folders cairn makes in the memory's
// work tree are its owner's only (0600 and 0700), as the state folder
// is, whatever the umask: at init, for a new item in a new folder, for a
// batch of writes, and for files a restore brings back. .git is left as
// git makes it.
func TestMemoryFilesPrivate(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	it := model.NewItem(model.Decision, "The job queue uses PostgreSQL", time.Now())
	it.Body = "Workers claim jobs with SKIP LOCKED."
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatal(err)
	}
	write(t, m, "a prompt")
	head, err := m.Store().Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(m.Dir, "sessions", "s", "prompts.md")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(m.Dir, "sessions", "s"))
	if _, err := m.History().Restore(ctx, head, []string{"sessions/s/prompts.md"}); err != nil {
		t.Fatal(err)
	}
	n := 0
	filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			rel, _ := filepath.Rel(m.Dir, p)
			t.Errorf("%s: mode %v, want no access for group and others", rel, fi.Mode().Perm())
		}
		n++
		return nil
	})
	if n < 8 {
		t.Errorf("only %d files and folders looked at", n)
	}
}
