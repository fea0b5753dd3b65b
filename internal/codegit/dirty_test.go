package codegit

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitIn runs git in dir as a test's author and returns its output.
func gitIn(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// State names the tracked files whose work-tree content is not HEAD's,
// with the blob id git hash-object gives, and passes over the rest: a
// clean file, an untracked one, a link, a folder, a path outside, the
// project's subfolder it was asked from.
func TestState(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		return gitIn(t, root, args...)
	}
	write := func(name, body string) {
		t.Helper()
		f := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if h, d := State(root, []string{"a.go"}); h != "" || d != nil {
		t.Errorf("no repository: %q %v", h, d)
	}
	git("init", "-q", "-b", "main")
	write("app/a.go", "package app\n")
	write("app/b.go", "package app\n")
	write("link.go", "package x\n")
	git("add", ".")
	git("commit", "-qm", "first")
	head := git("rev-parse", "HEAD")

	write("app/a.go", "package app\n\nfunc A() {}\n")
	write("app/new.go", "package app\n")
	os.Remove(filepath.Join(root, "link.go"))
	os.Symlink("app/a.go", filepath.Join(root, "link.go")) // a link where a file was: not read through
	blob := git("hash-object", "app/a.go")

	paths := []string{"app/a.go", "app/b.go", "app/new.go", "app", "link.go", "../outside.go", filepath.Join(root, "app/a.go"), "/etc/passwd", "./app/a.go"}
	h, d := State(filepath.Join(root, "app"), paths)
	if h != head {
		t.Errorf("head %q, want %q", h, head)
	}
	if want := []Dirty{{Path: "app/a.go", Blob: blob}}; !slices.Equal(d, want) {
		t.Errorf("dirty %v, want %v", d, want)
	}
}
