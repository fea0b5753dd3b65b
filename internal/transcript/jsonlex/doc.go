// Package jsonlex reads the fields a caller asks for out of one JSON
// value without building a tree, and skips everything else at memchr
// speed. The transcript parsers use it for Claude Code and Codex lines,
// which are mostly tool output they do not keep twice.
package jsonlex
