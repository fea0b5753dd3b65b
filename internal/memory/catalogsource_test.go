package memory

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// catalogSource.LstatIn says of each file what os.Lstat says: its name,
// size, time and kind, nothing for a missing one, and of a link the
// link; a folder that is a link gives nothing.
func TestCatalogLstatIn(t *testing.T) {
	m := testMemory(t)
	dir := filepath.Join(m.Dir, "core", "facts")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("hello"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.md", filepath.Join(dir, "l.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("facts", filepath.Join(m.Dir, "core", "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "b.md"), []byte("below"), 0o600); err != nil {
		t.Fatal(err)
	}
	names := []string{"a.md", "sub", "l.md", "missing.md", "sub/b.md"}
	out := make([]fs.FileInfo, len(names))
	catalogSource{m}.LstatIn("core/facts", names, out)
	for i, n := range names {
		want, err := os.Lstat(filepath.Join(dir, n))
		got := out[i]
		if err != nil {
			if got != nil {
				t.Errorf("%s: %v, want nothing", n, got)
			}
			continue
		}
		if got == nil || got.Name() != want.Name() || got.Name() != filepath.Base(n) || got.Size() != want.Size() || !got.ModTime().Equal(want.ModTime()) ||
			got.Mode().Type() != want.Mode().Type() || got.Mode().Perm() != want.Mode().Perm() || got.IsDir() != want.IsDir() {
			t.Errorf("%s: %v, want %v", n, got, want)
		}
	}
	out = make([]fs.FileInfo, 1)
	catalogSource{m}.LstatIn("core/linked", []string{"a.md"}, out)
	if out[0] != nil {
		t.Errorf("through a linked folder: %v", out[0])
	}
}
