//go:build unix

package watcher

import (
	"os"
	"syscall"
)

// fileID returns the device and inode numbers of a file, which stay the
// same while the file is appended to, truncated or renamed, and change
// when another file takes its name.
func fileID(fi os.FileInfo) (dev, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino) //nolint:unconvert // Dev is int32 on darwin
	}
	return 0, 0
}

// openNoFollow opens a file for reading, failing on a symbolic link, so
// that a link dropped into the inbox cannot make the queue read its target.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
}
