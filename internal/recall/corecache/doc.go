// Package corecache keeps what ranking core memory for a context pack
// needs of each core item (id, title, kind, importance, pinned, dates,
// what it supersedes, its session), read cheaply from front matter and
// cached in .state/core.tsv with the commit it reflects, brought up to
// HEAD from the diff; and leaves out the items another supersedes.
package corecache
