//go:build !linux

package main

// hugeHeap does nothing: transparent huge pages are Linux's.
func hugeHeap() {}
