//go:build !linux

package loose

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// StartWriteback has no sync_file_range to call outside Linux: the
// callers then sync every file and folder, or the file system.
func StartWriteback(*os.File) error { return errors.ErrUnsupported }

// SyncFS makes what was written to dir durable. Without syncfs(2), one
// sync(2) of every file system does it, still one call for all files.
func SyncFS(string) error {
	unix.Sync()
	return nil
}
