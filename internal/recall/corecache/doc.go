// Package corecache turns the memory catalogue's rows of core/ into what
// ranking core memory for a context pack needs of each item (id, title,
// kind, importance, pinned, dates, what it supersedes, its session), and
// leaves out the items another supersedes.
package corecache
