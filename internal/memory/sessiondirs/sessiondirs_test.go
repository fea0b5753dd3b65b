package sessiondirs

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
)

// Archived finds what the filepath.Glob it replaces found, in the same
// order: months, odd folder names, a file where a folder is expected, a
// link to a session folder, a session in two months.
func TestArchivedIsGlob(t *testing.T) {
	dir := t.TempDir()
	mk := func(p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	put := func(p string) {
		t.Helper()
		mk(filepath.Dir(p))
		if err := os.WriteFile(filepath.Join(dir, p), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("archive/2025/01/s1/session.yaml")
	put("archive/2025/03/s1/session.yaml")
	mk("archive/2025/02/s1") // no session.yaml
	put("archive/2025-old/01/s1/session.yaml")
	put("archive/2024/12/s2/session.yaml")
	put("archive/2024/11/s1") // a file, not a folder
	put("archive/.hidden/01/s1/session.yaml")
	put("archive/notes.md")
	mk("archive/2026/07")
	if err := os.Symlink(filepath.Join(dir, "archive/2025/01/s1"), filepath.Join(dir, "archive/2026/07/s1")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   string
		tail []string
	}{{"s1", nil}, {"s1", []string{"session.yaml"}}, {"s2", nil}, {"s3", nil}, {"s2", []string{"session.yaml"}}} {
		want, err := filepath.Glob(filepath.Join(append([]string{dir, "archive", "*", "*", tc.id}, tc.tail...)...))
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(want)
		if got := Archived(dir, tc.id, tc.tail...); !slices.Equal(got, want) {
			t.Errorf("Archived(%s, %v) = %q, want %q", tc.id, tc.tail, got, want)
		}
	}
	if got := Archived(filepath.Join(dir, "none"), "s1"); got != nil {
		t.Errorf("no archive: %q", got)
	}
}
