//go:build !linux

package fsview

import (
	"errors"
	"fmt"
	"runtime"
)

// ErrNoFUSE is wrapped by the errors that say FUSE cannot be used here.
var ErrNoFUSE = errors.New("FUSE is not available")

// ErrNotMounted says a folder is not a mount point.
var ErrNotMounted = errors.New("not mounted")

// Available reports whether this process can mount a FUSE file system.
// This build mounts on Linux only: on macOS, go-fuse would need macFUSE
// (or FUSE-T), and the view's mount handling (mount table, stale mounts,
// detach) is Linux's.
func Available() error {
	if runtime.GOOS == "darwin" {
		return fmt.Errorf("%w: cairn mount works on Linux only for now; on macOS it would need macFUSE (https://macfuse.github.io) or FUSE-T (https://www.fuse-t.org), which this build does not use; the memory is plain files in .cairn/ meanwhile", ErrNoFUSE)
	}
	return fmt.Errorf("%w: cairn mount works on Linux only", ErrNoFUSE)
}

// Stale reports whether dir is a FUSE mount whose server is gone.
func Stale(dir string) bool { return false }

// Unmount unmounts the cairn view mounted at dir.
func Unmount(dir string) error { return Available() }

func checkMountPoint(dir string) error { return Available() }
func detach(dir string) error          { return Available() }
func installHint(err error) string     { return "" }
