// Package gitstoretest makes memory repositories for tests and
// benchmarks: generated work trees shaped like real cairn memory, and
// helpers that drive the git command-line tool.
package gitstoretest
