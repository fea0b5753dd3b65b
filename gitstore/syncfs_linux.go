package gitstore

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// syncfs makes everything written to dir's file system durable with one
// call, instead of one fsync per file written.
func syncfs(dir string) error {
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
