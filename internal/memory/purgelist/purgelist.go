// Package purgelist reads the memory's purged.txt (memory.PurgedFile): the
// repository paths cairn purge stopped carrying forward, and whether a
// path is one of them or under one. No I/O.
package purgelist

import (
	"strings"

	"github.com/cairn-mem/cairn/gitstore/gitpath"
)

// Has reports whether the repository path p is, or is under, a path
// of list.
func Has(list []string, p string) bool {
	for _, q := range list {
		if gitpath.UnderPrefix(p, q) {
			return true
		}
	}
	return false
}

// Parse reads the lines of a purged.txt: blank lines and lines
// starting with # are skipped, and so are lines that are not repository
// paths.
func Parse(data []byte) []string {
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || gitpath.Valid(line) != nil {
			continue
		}
		out = append(out, line)
	}
	return out
}
