// Package observe keeps what a session's tool calls say about the work,
// the lines of its observations.md: files read and changed, commands and
// tests with how they ended, errors and the changes that fixed them.
package observe
