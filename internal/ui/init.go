package ui

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/cairn-mem/cairn/hooks"
)

// claudeInstalled says what cairn init --claude did: the scripts it
// installed, then each file it edited (up to the one an error stopped
// at), with paths inside the project shown relative to it.
func claudeInstalled(w io.Writer, project string, res *hooks.ClaudeResult) {
	for _, s := range res.Installed {
		fmt.Fprintf(w, "installed %s\n", rel(project, s))
	}
	if res.Settings != nil {
		edited(w, project, "Claude Code hooks are in", res.Settings)
		edited(w, project, "the cairn MCP server is registered in", res.MCP)
	}
}

// claudeRemoved says what cairn init --claude --remove did.
func claudeRemoved(w io.Writer, project string, res *hooks.ClaudeResult) {
	if res.Settings != nil {
		removed(w, project, "cairn's hooks", res.Settings)
		removed(w, project, "cairn's MCP server", res.MCP)
	}
}

// codexInstalled says what cairn init --codex did, and what Codex asks
// of the user before the hooks run.
func codexInstalled(w io.Writer, project string, res *hooks.CodexResult) {
	if res.Hooks == nil {
		return
	}
	edited(w, project, "Codex hooks are in", res.Hooks)
	edited(w, project, "the cairn MCP server is registered in", res.Config)
	if res.Config != nil {
		fmt.Fprintln(w, "Codex runs hooks it trusts: review and trust cairn's in Codex's /hooks (new or changed hooks are off until then)")
	}
}

// codexRemoved says what cairn init --codex --remove did.
func codexRemoved(w io.Writer, project string, res *hooks.CodexResult) {
	if res.Hooks != nil {
		removed(w, project, "cairn's hooks", res.Hooks)
		removed(w, project, "cairn's MCP server", res.Config)
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

// edited says what was done to one file an init wired: "Gemini CLI hooks
// and the cairn MCP server are in .gemini/settings.json".
func edited(w io.Writer, project, what string, e *hooks.Edit) {
	switch {
	case e == nil:
	case !e.Changed:
		fmt.Fprintf(w, "%s %s already; nothing changed\n", what, rel(project, e.File))
	case e.Backup != "":
		fmt.Fprintf(w, "%s %s (the file as it was is in %s)\n", what, rel(project, e.File), rel(project, e.Backup))
	default:
		fmt.Fprintf(w, "%s %s\n", what, rel(project, e.File))
	}
}

// removed says what a --remove did to one file.
func removed(w io.Writer, project, what string, e *hooks.Edit) {
	switch {
	case e == nil:
	case !e.Changed:
		fmt.Fprintf(w, "%s: none in %s\n", what, rel(project, e.File))
	case e.Backup != "":
		fmt.Fprintf(w, "removed %s from %s (the file before cairn first changed it is in %s)\n", what, rel(project, e.File), rel(project, e.Backup))
	default:
		fmt.Fprintf(w, "removed %s from %s\n", what, rel(project, e.File))
	}
}

// Wired says what cairn init did to the agents' files (remove: --remove):
// c, cx, gm and cu are what it did for Claude Code, Codex, Gemini CLI and
// Cursor, nil for an agent not named.
func Wired(w io.Writer, project string, remove bool, c *hooks.ClaudeResult, cx *hooks.CodexResult, gm *hooks.GeminiResult, cu *hooks.CursorResult) {
	switch {
	case c == nil:
	case remove:
		claudeRemoved(w, project, c)
	default:
		claudeInstalled(w, project, c)
	}
	switch {
	case cx == nil:
	case remove:
		codexRemoved(w, project, cx)
	default:
		codexInstalled(w, project, cx)
	}
	if gm != nil && remove {
		removed(w, project, "cairn's hooks and MCP server", gm.Settings)
	} else if gm != nil {
		edited(w, project, "Gemini CLI hooks and the cairn MCP server are in", gm.Settings)
	}
	if cu == nil {
		return
	}
	rules := rel(project, hooks.CursorRulesFile(project))
	switch {
	case remove:
		removed(w, project, "cairn's hooks", cu.Hooks)
		removed(w, project, "cairn's MCP server", cu.MCP)
		if cu.Rules {
			fmt.Fprintf(w, "removed %s\n", rules)
		}
	default:
		edited(w, project, "Cursor hooks are in", cu.Hooks)
		edited(w, project, "the cairn MCP server is registered in", cu.MCP)
		if cu.Rules {
			fmt.Fprintf(w, "wrote the context for Cursor into %s (the stop hook keeps it current; git ignores it)\n", rules)
		}
	}
}
