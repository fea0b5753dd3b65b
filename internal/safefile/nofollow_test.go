package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
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

// ReadHeadInRoot's short way (the descriptor alone) reads what the long
// one (an *os.File and io.ReadAll) does, whatever the file's size
// against the limit, and leaves links, missing files and FIFOs to it.
func TestReadHeadInRoot(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the short way needs openat2")
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "core"), 0o700)
	for _, size := range []int{0, 1, 511, 512, 513, 2000, 4096, 70000} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte('a' + i%26)
		}
		name := filepath.Join(root, "core", "f.md")
		if err := os.WriteFile(name, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, n := range []int64{1, 2, 511, 512, 513, 1999, 2000, 2001, 4096, 1 << 20} {
			got, gotSize, ok := readHead(root, "core/f.md", n)
			if !ok {
				t.Fatalf("size %d, limit %d: the short way did not read", size, n)
			}
			want := data[:min(int64(size), n)]
			if string(got) != string(want) || gotSize != int64(size) {
				t.Errorf("size %d, limit %d: read %d bytes, size %d; want %d, %d", size, n, len(got), gotSize, len(want), size)
			}
			all, allSize, err := ReadHeadInRoot(root, "core/f.md", n)
			if err != nil || string(all) != string(want) || allSize != int64(size) {
				t.Errorf("ReadHeadInRoot, size %d, limit %d: %d bytes, size %d, %v", size, n, len(all), allSize, err)
			}
		}
	}
	os.Symlink("f.md", filepath.Join(root, "core", "link.md"))
	syscall.Mkfifo(filepath.Join(root, "fifo"), 0o600)
	for _, p := range []string{"core/link.md", "core/none.md", "fifo", "core", "../x", ""} {
		if _, _, ok := readHead(root, p, 100); ok {
			t.Errorf("%q: read the short way", p)
		}
	}
	if _, _, err := ReadHeadInRoot(root, "core/link.md", 100); !errors.Is(err, ErrLink) {
		t.Errorf("link: %v", err)
	}
	if _, _, err := ReadHeadInRoot(root, "core/none.md", 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if _, _, err := ReadHeadInRoot(root, "fifo", 100); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("fifo: %v", err)
	}
}
