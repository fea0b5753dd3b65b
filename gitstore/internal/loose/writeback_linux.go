package loose

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// StartWriteback hands f's data to the disk without waiting for it
// (sync_file_range), so that one fsync later makes it durable.
func StartWriteback(f *os.File) error {
	return unix.SyncFileRange(int(f.Fd()), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
}

// SyncFS makes everything written to dir's file system durable with one
// call (syncfs), instead of one fsync per file written.
func SyncFS(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
