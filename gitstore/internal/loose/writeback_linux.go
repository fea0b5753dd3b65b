package loose

import (
	"os"

	"golang.org/x/sys/unix"
)

// StartWriteback hands f's data to the disk without waiting for it
// (sync_file_range), so that one fsync later makes it durable.
func StartWriteback(f *os.File) error {
	return unix.SyncFileRange(int(f.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
}
