//go:build !linux

package fsview

import (
	"errors"
	"fmt"
)

// ErrNoFUSE is wrapped by the errors that say FUSE cannot be used here.
var ErrNoFUSE = errors.New("FUSE is not available")

// ErrNotMounted says a folder is not a mount point.
var ErrNotMounted = errors.New("not mounted")

// Available reports whether this process can mount a FUSE file system.
// This build mounts on Linux only; macOS would need macFUSE.
func Available() error {
	return fmt.Errorf("%w: cairn mounts on Linux only (macOS needs macFUSE)", ErrNoFUSE)
}

// Stale reports whether dir is a FUSE mount whose server is gone.
func Stale(dir string) bool { return false }

// Unmount unmounts the cairn view mounted at dir.
func Unmount(dir string) error { return Available() }

func checkMountPoint(dir string) error { return Available() }
func detach(dir string) error          { return Available() }
func installHint(err error) string     { return "" }
