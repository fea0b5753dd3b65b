package summarize

import "strings"

// op is what a tool does, as far as a summary cares.
type op int

const (
	opOther   op = iota
	opCommand    // runs a shell command
	opRead       // reads or searches files
	opEdit       // changes an existing file
	opWrite      // writes a whole file (often a new one)
)

// toolOp classifies the tools of Claude Code, Codex and the usual editor
// agents by name. Unknown tools count as neither reading nor changing.
func toolOp(name string) op {
	switch name {
	case "Bash", "bash", "shell", "exec_command", "local_shell", "container.exec", "run_terminal_cmd", "run_command":
		return opCommand
	case "Read", "NotebookRead", "Grep", "Glob", "LS", "view", "read_file", "list_dir", "grep_search", "file_search", "codebase_search", "find_files":
		return opRead
	case "Edit", "MultiEdit", "NotebookEdit", "apply_patch", "str_replace_based_edit_tool", "str_replace_editor", "edit_file", "replace_in_file", "search_replace":
		return opEdit
	case "Write", "write_file", "create_file", "write_to_file":
		return opWrite
	}
	return opOther
}

// input is the turn's Input without a leading "Tool: ".
func input(t Turn) string {
	in := strings.TrimSpace(t.Input)
	if t.Tool != "" && strings.HasPrefix(in, t.Tool+": ") {
		in = strings.TrimSpace(in[len(t.Tool)+2:])
	}
	return in
}

// paths are the files a file tool touched: its Paths, or the Input of a
// tool that takes a path, when it looks like one.
func paths(t Turn) []string {
	if len(t.Paths) > 0 {
		return t.Paths
	}
	switch t.Tool {
	case "Read", "NotebookRead", "view", "read_file", "Edit", "MultiEdit", "NotebookEdit", "edit_file",
		"replace_in_file", "search_replace", "Write", "write_file", "create_file", "write_to_file":
	default:
		return nil
	}
	in := input(t)
	if in == "" || strings.ContainsAny(in, " \t*?{}") {
		return nil
	}
	return []string{in}
}

// failed reports whether a tool turn failed.
func failed(t Turn) bool {
	return t.IsError || t.ExitCode != nil && *t.ExitCode != 0
}

// ShowsOutput reports whether a tool turn's output belongs in a summary's
// transcript: a command's, an unknown tool's or a failure's, not a file's
// contents.
func ShowsOutput(t Turn) bool {
	op := toolOp(t.Tool)
	return op == opCommand || op == opOther || failed(t)
}

// ToolInput is the turn's Input without a leading "Tool: ".
func ToolInput(t Turn) string { return input(t) }
