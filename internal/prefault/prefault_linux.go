package prefault

import (
	"syscall"
	"unsafe"
)

// chunk is the unit in which the runtime maps heap (its pallocChunkBytes),
// aligned to its size.
const chunk = 4 << 20

// madvPopulateWrite is MADV_POPULATE_WRITE, which package syscall lacks.
const madvPopulateWrite = 23

func init() {
	first := new([64]byte) // not a tiny allocation: those share a block
	// An error (EINVAL before Linux 5.14) leaves the pages to be faulted
	// in one by one.
	_ = populate(unsafe.Pointer(first))
}

// populate makes the pages of the heap chunk that holds p, from p's page
// to the chunk's end, present and writable, and changes none of their
// bytes. The heap grows upwards from where it starts, which the runtime
// puts at a random place in its first chunk: below p is memory it may
// never use, above it what the next allocations take.
func populate(p unsafe.Pointer) error {
	page := uintptr(syscall.Getpagesize())
	from := uintptr(p) &^ (page - 1)
	to := (uintptr(p) | (chunk - 1)) + 1
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, from, to-from, madvPopulateWrite); errno != 0 {
		return errno
	}
	return nil
}
