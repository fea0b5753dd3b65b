package codemark

import (
	"path"
	"strings"

	"github.com/cairn-mem/cairn/internal/coderef"
)

// Trailer, one per file, names a file of the project that a memory file
// of the checkpoint names and that held an edit the Cairn-Code-Commit did
// not: "BLOB PATH", the git blob id of the work tree's content and the
// path from the project's root.
const Trailer = "Cairn-Code-Dirty"

// NamesCode reports whether p, a path of the memory, is a file whose
// text is tied to the project's code (package anchor): a core item or a
// session's summary.
func NamesCode(p string) bool {
	if strings.HasPrefix(p, "core/") {
		return strings.HasSuffix(p, ".md")
	}
	parts := strings.Split(p, "/")
	return len(parts) == 3 && parts[0] == "sessions" && parts[2] == "summary.md"
}

// Paths returns the project paths text names (coderef.Extract), each
// once, appended to out unless seen holds them already.
func Paths(out []string, seen map[string]bool, text string) []string {
	for _, c := range coderef.Extract(text) {
		if c.Path != "" && !seen[c.Path] {
			seen[c.Path] = true
			out = append(out, c.Path)
		}
	}
	return out
}

// Value is the trailer's value for the edit of path whose blob is blob.
func Value(path, blob string) string { return blob + " " + path }

// Read reads trailer values back: the blob each path held. A value that
// is not a blob id and a clean path inside the project (a hand-made
// commit's, a remote's) is passed over; nil when none is left.
func Read(values []string) map[string]string {
	var out map[string]string
	for _, v := range values {
		blob, p, ok := strings.Cut(v, " ")
		if !ok || len(blob) != 40 || strings.Trim(blob, "0123456789abcdef") != "" || !localPath(p) {
			continue
		}
		if out == nil {
			out = make(map[string]string)
		}
		out[p] = blob
	}
	return out
}

// localPath reports whether p is a clean path inside the project.
func localPath(p string) bool {
	return p != "" && !path.IsAbs(p) && path.Clean(p) == p && p != ".." && !strings.HasPrefix(p, "../")
}
