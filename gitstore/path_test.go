package gitstore

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Item 8 of issue 12: names with control characters, over 255 bytes, or
// only dots before the extension are refused wherever paths enter.
func TestBadNamesRefused(t *testing.T) {
	long := strings.Repeat("x", 256) + ".md"
	for _, p := range []string{"core/notes/a\nb.md", "a\tb.md", "core/\x1b[31m.md", "x\x7f.md",
		"core/notes/..md", "core/notes/...md", "core/notes/...", "core/" + long} {
		if _, err := CleanPath(p); !errors.Is(err, ErrBadName) {
			t.Errorf("CleanPath(%q) = %v, want ErrBadName", p, err)
		}
		if err := ValidPath(p); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("ValidPath(%q) = %v, want one line", p, err)
		}
	}
	for _, p := range []string{".gitignore", "core/notes/a..md", "core/.x.md", "a.b.md", strings.Repeat("y", 255), "naïve.md"} {
		if _, err := CleanPath(p); err != nil {
			t.Errorf("CleanPath(%q) = %v", p, err)
		}
	}
	for _, p := range []string{"a/./b", "a/../b", "./a"} {
		if err := ValidPath(p); err == nil {
			t.Errorf("ValidPath(%q) accepted a dot component", p)
		}
	}
}

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

func FuzzCleanPath(f *testing.F) {
	for _, p := range []string{"core/notes/a.md", "../x", "a/./b", "core/..md", "a\nb", ".gitignore", ".state/x", strings.Repeat("z", 300)} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		c, err := CleanPath(p)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error on two lines: %q", err)
			}
			return
		}
		if err := ValidPath(c); err != nil {
			t.Fatalf("CleanPath(%q) = %q, which ValidPath refuses: %v", p, c, err)
		}
		if c2, err := CleanPath(c); err != nil || c2 != c {
			t.Fatalf("CleanPath not idempotent: %q -> %q -> %q, %v", p, c, c2, err)
		}
		if strings.HasPrefix(c, "/") || c == ".." || strings.HasPrefix(c, "../") || strings.HasPrefix(c, ".git/") || c == ".git" {
			t.Fatalf("CleanPath(%q) = %q escapes", p, c)
		}
		for name := range strings.SplitSeq(c, "/") {
			if name == "" || name == "." || name == ".." || len(name) > MaxNameLen {
				t.Fatalf("CleanPath(%q) = %q has component %q", p, c, name)
			}
			for _, r := range name {
				if r < 0x20 || r == 0x7f {
					t.Fatalf("CleanPath(%q) = %q has a control character", p, c)
				}
			}
		}
	})
}
