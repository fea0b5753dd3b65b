package codegit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Exclude adds a pattern once, to the common folder of a worktree too,
// and counts other spellings as there; git status then hides the files.
func TestExclude(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", project}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	os.WriteFile(filepath.Join(project, "x.cairn-backup"), []byte("x"), 0o600)
	name, err := Exclude(project, []string{"*.cairn-backup"}, "# test")
	if err != nil || name == "" {
		t.Fatalf("Exclude: %q, %v", name, err)
	}
	if again, err := Exclude(project, []string{"*.other", "*.cairn-backup"}, "# test"); err != nil || again != "" {
		t.Errorf("second Exclude changed %q (%v)", again, err)
	}
	b, _ := os.ReadFile(name)
	if strings.Count(string(b), "*.cairn-backup") != 1 {
		t.Errorf("exclude file:\n%s", b)
	}
	if st := git("status", "--porcelain"); st != "" {
		t.Errorf("git status shows %q", st)
	}
	if name, err := Exclude(t.TempDir(), []string{"x"}, "# test"); name != "" || err != nil {
		t.Errorf("outside a repository: %q, %v", name, err)
	}
}
