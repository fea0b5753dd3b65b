package doctor

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// Doctor counts the memories the code changed under.
func TestStaleCounted(t *testing.T) {
	ctx := context.Background()
	project := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", project}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(project, "retry.go"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("package queue\n")
	git("add", "-A")
	git("commit", "-qm", "first")
	opts := memory.Options{Identity: memory.Identity{Name: "test", Email: "test@example.com"}}
	m, _, err := memory.Init(ctx, project, opts)
	if err != nil {
		t.Fatal(err)
	}
	dir := m.Dir
	if _, err := m.Remember(ctx, model.NewItem(model.Fact, "Retries are in `retry.go`", m.Now())); err != nil {
		t.Fatal(err)
	}
	m.Close()
	write("package queue\n\nfunc Retry() {}\n")
	git("commit", "-qam", "retry")
	r := Run(ctx, Options{
		Find:   func() (string, error) { return dir, nil },
		Open:   func(ctx context.Context, dir string) (*memory.Memory, error) { return memory.Open(ctx, dir, opts) },
		Getenv: func(string) string { return "" },
	})
	for _, c := range r.Checks {
		if c.Name == "stale" {
			if c.Status != Warn || !strings.Contains(c.Detail, "1 memory of 1 anchored to the code may be stale") {
				t.Errorf("stale finding: %+v", c)
			}
			return
		}
	}
	t.Errorf("no stale finding in %+v", r.Checks)
}
