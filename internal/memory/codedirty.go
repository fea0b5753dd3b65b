package memory

import (
	"strings"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/memory/codemark"
	"github.com/cairn-mem/cairn/internal/safefile"
)

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
// does. The files are read from the disk though the batch just wrote
// them: a summary is appended a segment at a time, and the trailers of
// its last checkpoint are the ones anchor reads, for all of it.
func (m *Memory) codeNamed(paths []string) []string {
	var out []string
	seen := make(map[string]bool)
	for _, p := range paths {
		if !codemark.NamesCode(p) {
			continue
		}
		if data, _, err := safefile.ReadHeadInRoot(m.Dir, p, maxNamedText); err == nil {
			out = codemark.Paths(out, seen, string(data))
		}
	}
	return out
}

// codeDirty reads a checkpoint's Cairn-Code-Dirty trailers: the blob
// each path held.
func codeDirty(c *gitstore.Commit) map[string]string {
	var values []string
	for _, t := range c.Trailers {
		if strings.EqualFold(t.Key, TrailerCodeDirty) {
			values = append(values, t.Value)
		}
	}
	return codemark.Read(values)
}
