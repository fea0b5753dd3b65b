package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteFullDiskOneLine (issue 12, item 11): a write that fails on a
// full disk says what and where once: "write <name>: no space left on
// device", without the temporary file's name as a second path.
func TestWriteFullDiskOneLine(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=1m"); err != nil {
		t.Skipf("cannot mount tmpfs: %v", err)
	}
	defer syscall.Unmount(dir, syscall.MNT_DETACH)
	f, _ := os.Create(filepath.Join(dir, "filler"))
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	f.Close()
	name := filepath.Join(dir, "job.json")
	err := Write(name, make([]byte, 64<<10), 0o600)
	want := "write " + name + ": no space left on device"
	if err == nil || err.Error() != want || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Write on a full disk: %v, want %q", err, want)
	}
	if err != nil && strings.Contains(err.Error(), tmpMark) {
		t.Errorf("error names the temporary file: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".job.json"+tmpMark+"*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
