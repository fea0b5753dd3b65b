package safefile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPrivate(t *testing.T) {
	for _, tc := range []struct {
		mode, want os.FileMode
		changed    bool
	}{
		{0o755, 0o700, true},
		{0o750, 0o700, true},
		{0o700, 0o700, false},
		{0o500, 0o700, false}, // its owner's alone already
	} {
		dir := filepath.Join(t.TempDir(), "mem")
		os.Mkdir(dir, 0o700)
		os.Chmod(dir, tc.mode)
		if got := Private(dir); got != tc.changed {
			t.Errorf("%o: Private = %v, want %v", tc.mode, got, tc.changed)
		}
		fi, _ := os.Stat(dir)
		if tc.changed && fi.Mode().Perm() != tc.want {
			t.Errorf("%o: mode %o after, want %o", tc.mode, fi.Mode().Perm(), tc.want)
		}
		os.Chmod(dir, 0o700)
	}
	if Private(filepath.Join(t.TempDir(), "absent")) {
		t.Error("Private of a missing folder changed it")
	}
}
