package recall

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/anchor"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/derived"
)

// A session start's pack says which items the code changed under since
// they were written (package anchor), by the item, as the last check
// (derived.CheckStale, the daemon's) found them, and leaves the others alone.
func TestStartPackMarksStale(t *testing.T) {
	t.Parallel()
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
	write := func(name, body string) {
		t.Helper()
		f := filepath.Join(project, name)
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("internal/queue/retry.go", "package queue\n\nfunc Backoff(n int) int {\n\treturn n * 2\n}\n")
	write("main.go", "package main\n")
	git("add", "-A")
	git("commit", "-qm", "first")
	m, _, err := memory.Init(ctx, project, memory.Options{Identity: memory.Identity{Name: "test", Email: "test@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	for _, it := range []*model.Item{
		model.NewItem(model.Decision, "Retries back off by doubling in internal/queue/retry.go", m.Now()),
		model.NewItem(model.Fact, "The entry point is main.go", m.Now()),
	} {
		it.Importance = 0.9
		if _, err := m.Remember(ctx, it); err != nil {
			t.Fatal(err)
		}
	}
	write("internal/queue/retry.go", "package queue\n\nfunc Backoff(n int) int {\n\treturn n * 3\n}\n")
	git("commit", "-qam", "triple")
	for range 3 {
		git("commit", "-q", "--allow-empty", "-m", "later")
	}
	// A pack never waits for the check: before one, it shows what was
	// last known (nothing), and runs none.
	text, err := StartPack(ctx, m, nil, StartOptions{Source: "startup"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "may be stale") {
		t.Errorf("marks before any check:\n%s", text)
	}
	if _, current := anchor.Known(m); current {
		t.Fatal("the pack ran the check")
	}
	if err := derived.CheckStale(ctx, m); err != nil {
		t.Fatal(err)
	}
	if text, err = StartPack(ctx, m, nil, StartOptions{Source: "startup"}); err != nil {
		t.Fatal(err)
	}
	var retry, entry string
	for l := range strings.Lines(text) {
		switch {
		case strings.Contains(l, "Retries back off"):
			retry = l
		case strings.Contains(l, "entry point"):
			entry = l
		}
	}
	if want := "may be stale: internal/queue/retry.go changed 3 commits ago"; !strings.Contains(retry, want) {
		t.Errorf("the changed item's line %q lacks %q; pack:\n%s", retry, want, text)
	}
	if entry == "" || strings.Contains(entry, "may be stale") {
		t.Errorf("the other item's line: %q", entry)
	}

	// A session's summary is marked in its heading.
	sdir := filepath.Join(m.Dir, "sessions", "s-1")
	os.MkdirAll(sdir, 0o755)
	put := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(sdir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("session.yaml", "schema: 1\nid: s-1\nagent: claude-code\nstatus: ended\ntitle: Entry point\nprompts: 1\nturns: 2\n")
	put("summary.md", "---\nkind: summary\ntitle: Entry point\n---\n## Request\n- Tidy the entry point in main.go\n\n## Outcome\n- main.go now starts the queue\n")
	if _, err := m.Checkpoint(ctx, memory.CheckpointOptions{Message: "session"}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(project, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	git("commit", "-qam", "main")
	if err := derived.CheckStale(ctx, m); err != nil {
		t.Fatal(err)
	}
	if text, err = StartPack(ctx, m, nil, StartOptions{Source: "startup"}); err != nil {
		t.Fatal(err)
	}
	if want := "(session s-1; may be stale: main.go changed in the latest commit)"; !strings.Contains(text, want) {
		t.Errorf("no %q in the pack:\n%s", want, text)
	}
}
