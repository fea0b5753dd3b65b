package memory

import (
	"path"
	"strings"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/coderef"
	"github.com/cairn-mem/cairn/internal/safefile"
)

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

// maxNamedText is how much of a memory file codeNamed reads: the names
// of code are in its first part (a summary's Files changed come before
// its commands and errors).
const maxNamedText = 64 << 10

// codeNamed returns the project paths the memory files among paths name.
// The agent that wrote a session usually leaves its edits for the user
// to commit: the checkpoint records which of these held an edit (Cairn-
// Code-Dirty), so that the commit that takes it later is not a change
// under the memory. A checkpoint of the whole tree (nil paths, a hand
// edit) names none: reading every file would cost what the checkpoint
// does.
func (m *Memory) codeNamed(paths []string) []string {
	var out []string
	seen := make(map[string]bool)
	for _, p := range paths {
		if !NamesCode(p) {
			continue
		}
		data, _, err := safefile.ReadHeadInRoot(m.Dir, p, maxNamedText)
		if err != nil {
			continue
		}
		for _, c := range coderef.Extract(string(data)) {
			if c.Path != "" && !seen[c.Path] {
				seen[c.Path] = true
				out = append(out, c.Path)
			}
		}
	}
	return out
}

// codeDirty reads a checkpoint's Cairn-Code-Dirty trailers: the blob
// each path held. A trailer that is not a blob id and a local path (a
// hand-made commit, a remote's) is passed over.
func codeDirty(c *gitstore.Commit) map[string]string {
	var out map[string]string
	for _, t := range c.Trailers {
		if !strings.EqualFold(t.Key, TrailerCodeDirty) {
			continue
		}
		blob, p, ok := strings.Cut(t.Value, " ")
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
