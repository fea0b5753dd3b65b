package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hostile work tree: files named by hand in .cairn/ with such names are
// never committed, each with one warning line naming it escaped, and the
// checkpoint commits the rest; a later write is not stopped by them.
func TestCheckpointSkipsBadNames(t *testing.T) {
	var warned []string
	s := newStore(t, map[string]string{"core/notes/a.md": "a\n"})
	s.warn = func(m string) { warned = append(warned, m) }
	s.wt.warn = s.warn
	bad := []string{"core/notes/new\nline.md", "core/notes/bell\a.md", "core/notes/..md", "core/es\x1bc/x.md"}
	for _, p := range bad {
		write(t, s, p, "bad\n")
	}
	write(t, s, "core/notes/good.md", "good\n")
	cp, err := checkpoint(t, s, CheckpointOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cp.Changes) != 1 || cp.Changes[0].Path != "core/notes/good.md" {
		t.Errorf("committed %v", cp.Changes)
	}
	if len(warned) != len(bad) {
		t.Errorf("warnings %q", warned)
	}
	for _, w := range warned {
		if strings.ContainsAny(w, "\n\a\x1b") || !strings.Contains(w, "bad file name") {
			t.Errorf("warning %q: not one escaped line", w)
		}
	}
	files := gitCLI(t, s.Dir(), "ls-tree", "-r", "-z", "--name-only", "HEAD")
	for _, p := range bad {
		if strings.Contains(files, p) {
			t.Errorf("%q committed", p)
		}
	}
	// A checkpoint of one path beside them still works.
	write(t, s, "core/notes/a.md", "a2\n")
	if _, err := checkpoint(t, s, CheckpointOptions{Paths: []string{"core/notes"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := checkpoint(t, s, CheckpointOptions{}); !errors.Is(err, ErrNothingToDo) {
		t.Errorf("second checkpoint: %v", err)
	}
	if err := s.WriteFile("core/notes/x\ny.md", []byte("x")); !errors.Is(err, ErrBadName) {
		t.Errorf("WriteFile of a newline name: %v", err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "core/notes/x\ny.md")); err == nil {
		t.Error("WriteFile wrote a newline name")
	}
}
