package links

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cairn-mem/cairn/internal/safefile"
)

// Walk skips a link with one warning (WarnOnce), and InWorktree lists it.
func TestWalk(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "core"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "core/a.md"), []byte("a"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(dir, "core/etc")); err != nil {
		t.Fatal(err)
	}
	var warns []string
	warn := WarnOnce(func(s string) { warns = append(warns, s) })
	skipped := func(err error) bool { // as memory's WarnLink
		if !errors.Is(err, safefile.ErrLink) {
			return false
		}
		warn(err.Error() + "; skipped")
		return true
	}
	for range 2 {
		var got []string
		err := Walk(context.Background(), dir, "core", skipped, func(p string, d fs.DirEntry) error {
			if !d.IsDir() {
				got = append(got, p)
			}
			return nil
		})
		if err != nil || !slices.Equal(got, []string{"core/a.md"}) {
			t.Errorf("Walk: %v, %v", got, err)
		}
	}
	if len(warns) != 1 {
		t.Errorf("warnings: %q", warns)
	}
	if got, err := InWorktree(context.Background(), dir, ".state"); err != nil || !slices.Equal(got, []string{"core/etc"}) {
		t.Errorf("InWorktree: %v, %v", got, err)
	}
	if _, err := FS(dir).Open("core/etc/passwd"); err == nil {
		t.Error("FS followed a link")
	}
}
