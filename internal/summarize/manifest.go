package summarize

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/summarize/cue"
	"github.com/cairn-mem/cairn/internal/summarize/manifest"
)

// The versions a project runs on sit in a few well-known files, and an
// agent reads them (Read, or cat in a shell) when they matter: what it
// read there is an environment fact of the project, stated by the file
// itself, so it is kept whatever the agent said about it. A later read
// that shows another version supersedes it.

// manifestVersions is the environment line for what a tool showed of
// version files: "`.tool-versions`: elixir 1.16.3-otp-26, erlang 26.2.5".
func manifestVersions(t Turn) []string {
	var files []string
	switch toolOp(t.Tool) {
	case opRead:
		files = paths(t)
	case opCommand:
		if m := cue.CatFiles.FindStringSubmatch(input(t)); m != nil {
			files = strings.Fields(m[1])
		}
	default:
		return nil
	}
	if failed(t) || len(files) == 0 {
		return nil
	}
	text := cue.Numbered.ReplaceAllString(t.Text, "")
	var out []string
	for _, f := range files {
		pairs, known := manifest.Versions(f, text)
		if !known {
			continue
		}
		if len(pairs) > 0 {
			out = append(out, "`"+f+"`: "+strings.Join(pairs, ", "))
		}
		if len(files) > 1 {
			break // a cat of several files runs them together: the first is read right
		}
	}
	return out
}
