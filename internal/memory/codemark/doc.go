// Package codemark says what a checkpoint records of the project's code
// beside the memory files it writes: which memory files are tied to the
// code (core items, sessions' summaries), the project paths their text
// names, and the Cairn-Code-Dirty trailers, each the blob of an edit the
// project's HEAD did not have yet (codegit.State). Package memory writes
// the trailers, package anchor reads them back through memory's log. No
// I/O.
package codemark
