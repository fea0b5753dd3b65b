//go:build !linux

package shortheap

// hugeHeap does nothing: transparent huge pages are Linux's.
func hugeHeap() {}
