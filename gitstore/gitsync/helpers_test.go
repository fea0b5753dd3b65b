package gitsync

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/gitstore"
)

// newStore makes a repository in a temporary folder with files committed.
func newStore(t *testing.T, files map[string]string) *gitstore.Store {
	t.Helper()
	dir := filepath.Join(t.TempDir(), ".cairn")
	fs := map[string][]byte{".gitignore": []byte(".state/\ninbox/\n")}
	for k, v := range files {
		fs[k] = []byte(v)
	}
	s, created, err := gitstore.Init(context.Background(), dir, fs, "init", gitstore.Options{Identity: gitstore.Identity{Name: "Test", Email: "test@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	if !created {
		t.Fatal("Init did not create")
	}
	return s
}

// gitCLI runs the git command-line tool in dir.
func gitCLI(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// checkGit asserts what a git user expects after every cairn command.
func checkGit(t *testing.T, s *gitstore.Store) {
	t.Helper()
	gitCLI(t, s.Dir(), "fsck", "--full", "--strict")
	if st := gitCLI(t, s.Dir(), "status", "--porcelain"); st != "" {
		t.Errorf("git status not clean:\n%s", st)
	}
	if d := gitCLI(t, s.Dir(), "diff", "--cached", "--stat"); d != "" {
		t.Errorf("git index differs from HEAD:\n%s", d)
	}
}

func write(t *testing.T, s *gitstore.Store, p, data string) {
	t.Helper()
	name := filepath.Join(s.Dir(), filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
