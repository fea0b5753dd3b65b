package fsview

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzUnescape checks mountinfo's octal unescaping: it never panics and
// undoes what the kernel escapes.
func FuzzUnescape(f *testing.F) {
	for _, s := range []string{`/tmp/a\040b`, `\134`, `\`, `\04`, `\999`, `a\011b\012c`, ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := unescape(s)
		if !strings.Contains(s, `\`) && got != s {
			t.Fatalf("unescape(%q) = %q", s, got)
		}
		// What the kernel writes: space, tab, newline and backslash as \ooo.
		esc := strings.NewReplacer(" ", `\040`, "\t", `\011`, "\n", `\012`, `\`, `\134`).Replace(s)
		if back := unescape(esc); back != s {
			t.Fatalf("unescape(escape(%q)) = %q", s, back)
		}
	})
}

// FuzzSearchName looks arbitrary names up in search/: a name is a search
// or a clear error, never a panic or another kind of failure.
func FuzzSearchName(f *testing.F) {
	m := testMemory(f)
	v := newView(f, m, indexed(f, m))
	for _, s := range []string{"postgres", "why postgres", "", " ", ".git", "a/b", "\x00", "\xff", strings.Repeat("q", 300), "日本語"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		dir, err := v.walk(context.Background(), "search", true)
		if err != nil {
			t.Fatal(err)
		}
		n, err := v.lookup(context.Background(), dir, q)
		switch {
		case err == nil:
			if !utf8.ValidString(q) || len(q) > MaxQueryBytes || strings.Contains(q, "/") {
				t.Fatalf("lookup(%q) worked", q)
			}
			if _, err := v.readDir(context.Background(), n); err != nil {
				t.Fatalf("readDir(search/%q): %v", q, err)
			}
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrInvalid):
		default:
			t.Fatalf("lookup(%q): %v", q, err)
		}
	})
}
