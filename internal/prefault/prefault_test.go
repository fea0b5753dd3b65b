//go:build linux

package prefault

import (
	"bytes"
	"errors"
	"syscall"
	"testing"
	"unsafe"
)

// Populating a heap chunk changes nothing in it: the bytes of a live
// object keep their values, and memory the runtime hands out next is zero
// as ever. Where the kernel lacks the call (EINVAL) there is nothing to
// check.
func TestPopulateKeepsHeap(t *testing.T) {
	live := bytes.Repeat([]byte("cairn"), 10000)
	want := bytes.Clone(live)
	err := populate(unsafe.Pointer(&live[0]))
	if errors.Is(err, syscall.EINVAL) {
		t.Skip("MADV_POPULATE_WRITE: ", err)
	}
	// ENOMEM: part of the chunk is not mapped; what is mapped was populated.
	if err != nil && !errors.Is(err, syscall.ENOMEM) {
		t.Fatal(err)
	}
	if !bytes.Equal(live, want) {
		t.Fatal("populate changed a live object")
	}
	for range 100 {
		fresh := make([]byte, 64<<10)
		if i := bytes.IndexFunc(fresh, func(r rune) bool { return r != 0 }); i >= 0 {
			t.Fatalf("fresh memory not zero at %d", i)
		}
	}
}
