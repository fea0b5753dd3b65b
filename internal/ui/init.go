package ui

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/cairn-mem/cairn/hooks"
)

// ClaudeInstalled says what cairn init --claude did: the scripts it
// installed, then each file it edited (up to the one an error stopped
// at), with paths inside the project shown relative to it.
func ClaudeInstalled(w io.Writer, project string, res *hooks.ClaudeResult) {
	for _, s := range res.Installed {
		fmt.Fprintf(w, "installed %s\n", rel(project, s))
	}
	installed(w, project, []*hooks.Edit{res.Settings, res.MCP}, "Claude Code hooks are in", "the cairn MCP server is registered in")
}

// CodexInstalled says what cairn init --codex did, and what Codex asks
// of the user before the hooks run.
func CodexInstalled(w io.Writer, project string, res *hooks.CodexResult) {
	installed(w, project, []*hooks.Edit{res.Hooks, res.Config}, "Codex hooks are in", "the cairn MCP server is registered in")
	if res.Config != nil {
		fmt.Fprintln(w, "Codex runs hooks it trusts: review and trust cairn's in Codex's /hooks (new or changed hooks are off until then)")
	}
}

// CodexRemoved says what cairn init --codex --remove did.
func CodexRemoved(w io.Writer, project string, res *hooks.CodexResult) {
	removed(w, project, []*hooks.Edit{res.Hooks, res.Config}, "cairn's hooks", "cairn's MCP server")
}

// installed says what was done to each file, what[i] to edits[i].
func installed(w io.Writer, project string, edits []*hooks.Edit, what ...string) {
	for i, what := range what {
		e := edits[i]
		switch {
		case e == nil:
			return
		case !e.Changed:
			fmt.Fprintf(w, "%s %s already; nothing changed\n", what, rel(project, e.File))
		case e.Backup != "":
			fmt.Fprintf(w, "%s %s (the file as it was is in %s)\n", what, rel(project, e.File), rel(project, e.Backup))
		default:
			fmt.Fprintf(w, "%s %s\n", what, rel(project, e.File))
		}
	}
}

// ClaudeRemoved says what cairn init --claude --remove did.
func ClaudeRemoved(w io.Writer, project string, res *hooks.ClaudeResult) {
	removed(w, project, []*hooks.Edit{res.Settings, res.MCP}, "cairn's hooks", "cairn's MCP server")
}

// removed says what was taken out of each file, what[i] of edits[i].
func removed(w io.Writer, project string, edits []*hooks.Edit, what ...string) {
	for i, what := range what {
		e := edits[i]
		switch {
		case e == nil:
			return
		case !e.Changed:
			fmt.Fprintf(w, "%s: none in %s\n", what, rel(project, e.File))
		case e.Backup != "":
			fmt.Fprintf(w, "removed %s from %s (the file before cairn first changed it is in %s)\n", what, rel(project, e.File), rel(project, e.Backup))
		default:
			fmt.Fprintf(w, "removed %s from %s\n", what, rel(project, e.File))
		}
	}
}

// InitText says what cairn init did to the memory in dir.
func InitText(w io.Writer, dir string, created bool, commit, excluded string) {
	if !created {
		fmt.Fprintf(w, "cairn memory already initialised in %s; nothing changed\n", dir)
		if excluded != "" {
			fmt.Fprintf(w, "added /.cairn/ to %s\n", excluded)
		}
		return
	}
	fmt.Fprintf(w, "Initialised cairn memory in %s (commit %s)\n", dir, Short(commit))
	if excluded != "" {
		fmt.Fprintf(w, "added /.cairn/ to %s so the project's git ignores it\n", excluded)
	}
}

// rel shows name relative to the project when it lies inside it.
func rel(project, name string) string {
	if r, err := filepath.Rel(project, name); err == nil && filepath.IsLocal(r) {
		return r
	}
	return name
}
