// Package shortheap sets the memory of a short cairn command: a
// collector that waits until the heap reaches 64 MB, and, for a command
// that reads much of a large memory (Reads, Large), a heap in
// transparent huge pages. It imports nothing of cairn: cmd/cairn names
// the command and finds the memory's core catalogue.
package shortheap
