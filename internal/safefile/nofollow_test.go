package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Issue 12, item 1: ReadInRoot never follows a link, as the file or as
// any folder on its way, and names the link.
func TestReadInRootRefusesLinks(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o600)
	os.MkdirAll(filepath.Join(root, "core", "notes"), 0o700)
	os.WriteFile(filepath.Join(root, "core", "notes", "ok.md"), []byte("fine"), 0o600)
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "core", "notes", "env.md"))
	os.Symlink(outside, filepath.Join(root, "core", "linked"))
	os.Symlink("notes", filepath.Join(root, "core", "inside")) // even a link that stays inside
	if b, err := ReadInRoot(root, "core/notes/ok.md"); err != nil || string(b) != "fine" {
		t.Fatalf("regular file: %q %v", b, err)
	}
	for p, link := range map[string]string{
		"core/notes/env.md":  "core/notes/env.md",
		"core/linked/secret": "core/linked",
		"core/inside/ok.md":  "core/inside",
	} {
		b, err := ReadInRoot(root, p)
		var le *LinkError
		if !errors.Is(err, ErrLink) || !errors.As(err, &le) || le.Path != link || len(b) != 0 {
			t.Errorf("%s: %q %v, want a LinkError naming %s", p, b, err, link)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error of more than one line: %q", p, err)
		}
		if _, err := LstatInRoot(root, p); !errors.Is(err, ErrLink) {
			t.Errorf("LstatInRoot %s: %v", p, err)
		}
	}
	if _, err := ReadInRoot(root, "core/none.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	syscall.Mkfifo(filepath.Join(root, "fifo"), 0o600)
	if _, err := ReadInRoot(root, "fifo"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("fifo: %v", err)
	}
	for _, bad := range []string{"../x", "/etc/passwd", "a/../../x", ""} {
		if _, err := ReadInRoot(root, bad); err == nil {
			t.Errorf("%q: read", bad)
		}
	}
}
