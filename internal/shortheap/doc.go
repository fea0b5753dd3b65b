// Package shortheap sets the memory of a short cairn command: a
// collector that waits until the heap reaches 64 MB, and, for a command
// that reads much of a large memory, a heap in transparent huge pages.
// It imports nothing of cairn; cmd/cairn decides which command is which.
package shortheap
