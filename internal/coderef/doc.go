// Package coderef finds what a text names of a project's code: paths in
// backticks, file:line forms, bare tokens that look like paths, and
// names spelled like code. It does no I/O and knows no repository: a
// candidate becomes a place in the code only where a caller looks it up
// (package anchor, in the project's history; package memory, in the
// work tree at a checkpoint).
//
// It sits below both: memory records, when it checkpoints a memory file,
// which of the files that file names were edited and not yet committed,
// and anchor reads the same names back to tie the file to the code.
package coderef
