//go:build unix

package vecstore

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps f into memory read-only, or reads it where it cannot be
// mapped (it is empty, or the file system will not). unmap, if not nil,
// undoes the mapping.
func mapFile(f *os.File) (b []byte, unmap func() error, err error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if size := fi.Size(); size > 0 && size == int64(int(size)) {
		b, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
		if err == nil {
			return b, func() error { return unix.Munmap(b) }, nil
		}
	}
	b, err = io.ReadAll(f)
	return b, nil, err
}
