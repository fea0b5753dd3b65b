package shortheap

import (
	"bytes"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// hugeHeap asks for the heap a short command will allocate to be backed
// by huge pages (2 MB) instead of 4 KB ones. With no collection, every
// allocation is of memory the kernel has not given yet: a pack at
// 100,000 files took 6,800 page faults, a quarter of its CPU time. The
// runtime maps its heap without the advice, so the memory is taken as
// one large object, advised, and handed back by a collection while the
// heap is the few MB the packages' init left (2-3 ms of CPU, which a
// small memory's pack does not win back); the objects allocated next
// reuse it. Only where transparent huge pages are given on advice: off,
// there are none; always, the heap has them already.
func hugeHeap() {
	if mode, err := os.ReadFile(thpMode); err != nil || !bytes.Contains(mode, []byte("[madvise]")) {
		return
	}
	b := make([]byte, hugeHeapBytes)
	if unix.Madvise(b, unix.MADV_HUGEPAGE) != nil {
		return
	}
	b = nil
	runtime.GC()
}

// thpMode says which of always, madvise and never the kernel does with
// transparent huge pages, the one in force in brackets.
const thpMode = "/sys/kernel/mm/transparent_hugepage/enabled"

// hugeHeapBytes is the heap put in huge pages: more than a pack at
// 100,000 files allocates (about 30 MB), and with the little the
// packages' init took, under what the collector keeps once its goal is
// 64 MB, so that its scavenger gives none of it back.
const hugeHeapBytes = 48 << 20
