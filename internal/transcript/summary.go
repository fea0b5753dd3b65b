package transcript

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/internal/shellcmd"
)

// summaryLen bounds the argument part of a tool call's summary, in runes.
const summaryLen = 100

// callArgs holds the fields of tool inputs that say what a call is about,
// across Claude Code's and Codex's tools.
type callArgs struct {
	Command      json.RawMessage `json:"command"` // a string, or argv (Codex shell)
	Cmd          json.RawMessage `json:"cmd"`     // Codex exec_command
	FilePath     string          `json:"file_path"`
	NotebookPath string          `json:"notebook_path"`
	Path         string          `json:"path"`
	Pattern      string          `json:"pattern"`
	URL          string          `json:"url"`
	Query        string          `json:"query"`
	Description  string          `json:"description"`
	SubagentType string          `json:"subagent_type"`
	Prompt       string          `json:"prompt"`
	Skill        string          `json:"skill"`
	Input        string          `json:"input"` // Codex apply_patch as a function
	Todos        []any           `json:"todos"`
	Plan         []any           `json:"plan"`
}

// summarize describes a tool call in one short line: "Bash: go test ./...",
// "Edit: internal/app.go". Paths under cwd are shown relative to it.
func summarize(name string, input json.RawMessage, cwd string) string {
	var in callArgs
	if len(input) > 0 && input[0] == '{' {
		_ = json.Unmarshal(input, &in) // a field of another type leaves it empty
	} else if len(input) > 0 && input[0] == '"' {
		_ = json.Unmarshal(input, &in.Input) // Codex custom tools take raw text
	}
	arg := ""
	switch name {
	case "Bash", "shell", "exec_command", "local_shell", "container.exec":
		arg = command(in.Command)
		if arg == "" {
			arg = command(in.Cmd)
		}
		// A script's later lines that change files are what it did
		// ("cat > heartbeat.py <<'PY' && … && sed -i 's/900/1800/' config.py").
		arg = shellcmd.OneLine(arg)
	case "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "NotebookRead":
		arg = relPath(firstOf(in.FilePath, in.NotebookPath, in.Path), cwd)
	case "Glob", "Grep":
		arg = in.Pattern
		if p := relPath(in.Path, cwd); p != "" && p != "." {
			arg += " in " + p
		}
	case "LS":
		arg = relPath(in.Path, cwd)
	case "WebFetch":
		arg = in.URL
	case "WebSearch", "web_search":
		arg = in.Query
	case "Task", "Agent":
		arg = in.Description
		if in.SubagentType != "" {
			arg += " (" + in.SubagentType + ")"
		}
	case "TodoWrite":
		arg = fmt.Sprintf("%d items", len(in.Todos))
	case "update_plan":
		arg = fmt.Sprintf("%d steps", len(in.Plan))
	case "Skill":
		arg = in.Skill
	case "apply_patch":
		arg = patchFiles(in.Input, cwd)
	default:
		arg = firstOf(relPath(firstOf(in.FilePath, in.Path), cwd), command(in.Command), in.Pattern, in.Query, in.URL, in.Description, in.Prompt)
	}
	if e := shellcmd.Elide(arg, summaryLen); (e != arg || shellcmd.Elided(arg)) && !strings.Contains(e, "\n") {
		arg = firstLine(e, 2*summaryLen) // edits a cut would drop keep their place
	} else {
		arg = firstLine(arg, summaryLen)
	}
	if arg == "" {
		return name
	}
	return name + ": " + arg
}

// command renders a command given as a string or as argv, taking the script
// out of a "bash -lc SCRIPT" wrapper.
func command(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(raw, &argv) != nil {
		return ""
	}
	if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") {
		switch filepath.Base(argv[0]) {
		case "bash", "sh", "zsh", "dash":
			return argv[2]
		}
	}
	return strings.Join(argv, " ")
}

// patchFiles lists the files an apply_patch envelope touches.
func patchFiles(patch, cwd string) string {
	var files []string
	for line := range strings.SplitSeq(patch, "\n") {
		for _, p := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: "} {
			if f, ok := strings.CutPrefix(line, p); ok {
				files = append(files, relPath(strings.TrimSpace(f), cwd))
			}
		}
	}
	return strings.Join(files, ", ")
}

// relPath shows p relative to cwd when it lies inside it.
func relPath(p, cwd string) string {
	if p == "" || cwd == "" || !filepath.IsAbs(p) {
		return p
	}
	rel, err := filepath.Rel(cwd, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return p
	}
	return rel
}

// firstOf returns the first of ss that is not empty.
func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
