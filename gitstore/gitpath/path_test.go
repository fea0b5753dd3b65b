package gitpath

import (
	"errors"
	"strings"
	"testing"
)

// Item 8 of issue 12: names with control characters, over 255 bytes, or
// only dots before the extension are refused wherever paths enter.
func TestBadNamesRefused(t *testing.T) {
	long := strings.Repeat("x", 256) + ".md"
	for _, p := range []string{"core/notes/a\nb.md", "a\tb.md", "core/\x1b[31m.md", "x\x7f.md",
		"core/notes/..md", "core/notes/...md", "core/notes/...", "core/" + long} {
		if _, err := Clean(p); !errors.Is(err, ErrBadName) {
			t.Errorf("Clean(%q) = %v, want ErrBadName", p, err)
		}
		if err := Valid(p); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("Valid(%q) = %v, want one line", p, err)
		}
	}
	for _, p := range []string{".gitignore", "core/notes/a..md", "core/.x.md", "a.b.md", strings.Repeat("y", 255), "naïve.md"} {
		if _, err := Clean(p); err != nil {
			t.Errorf("Clean(%q) = %v", p, err)
		}
	}
	for _, p := range []string{"a/./b", "a/../b", "./a"} {
		if err := Valid(p); err == nil {
			t.Errorf("Valid(%q) accepted a dot component", p)
		}
	}
}

func FuzzClean(f *testing.F) {
	for _, p := range []string{"core/notes/a.md", "../x", "a/./b", "core/..md", "a\nb", ".gitignore", ".state/x", strings.Repeat("z", 300)} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		c, err := Clean(p)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error on two lines: %q", err)
			}
			return
		}
		if err := Valid(c); err != nil {
			t.Fatalf("Clean(%q) = %q, which Valid refuses: %v", p, c, err)
		}
		if c2, err := Clean(c); err != nil || c2 != c {
			t.Fatalf("Clean not idempotent: %q -> %q -> %q, %v", p, c, c2, err)
		}
		if strings.HasPrefix(c, "/") || c == ".." || strings.HasPrefix(c, "../") || strings.HasPrefix(c, ".git/") || c == ".git" {
			t.Fatalf("Clean(%q) = %q escapes", p, c)
		}
		for name := range strings.SplitSeq(c, "/") {
			if name == "" || name == "." || name == ".." || len(name) > MaxNameLen {
				t.Fatalf("Clean(%q) = %q has component %q", p, c, name)
			}
			for _, r := range name {
				if r < 0x20 || r == 0x7f {
					t.Fatalf("Clean(%q) = %q has a control character", p, c)
				}
			}
		}
	})
}
