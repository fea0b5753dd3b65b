package transcript

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
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

// maxReplaced bounds one side of a replacement Replacements reports, in
// bytes: a setting's line, not a block of code.
const maxReplaced = 160

// Replacements are the one-line replacements an edit tool call makes, old
// and new: "maximumPoolSize = 10" became "maximumPoolSize = 20". What a
// setting was and became is in the call, whatever the agent says of it.
// Multi-line replacements (code) are left out.
func Replacements(name string, input json.RawMessage) [][2]string {
	if len(input) == 0 || input[0] != '{' {
		return nil
	}
	type edit struct {
		Old    string `json:"old_string"`
		New    string `json:"new_string"`
		OldStr string `json:"old_str"`
		NewStr string `json:"new_str"`
	}
	var in struct {
		edit
		Edits []edit `json:"edits"`
	}
	switch name {
	case "Edit", "MultiEdit", "str_replace_based_edit_tool", "str_replace_editor", "search_replace":
	default:
		return nil
	}
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	var out [][2]string
	for _, e := range append([]edit{in.edit}, in.Edits...) {
		was, now := firstOf(e.Old, e.OldStr), firstOf(e.New, e.NewStr)
		o, n, ok := changedLine(was, now)
		if !ok {
			// A block of settings edited whole ("executor:
			// 'ramping-vus'" and its stages became "executor:
			// 'constant-arrival-rate'" and a rate) changes the
			// settings its keys pair up.
			if strings.Count(was, "\n") < maxBlockLines && strings.Count(now, "\n") < maxBlockLines {
				out = append(out, WriteReplacements(was, now)...)
			}
			continue
		}
		if len(o) > maxReplaced || len(n) > maxReplaced {
			continue
		}
		out = append(out, [2]string{o, n})
	}
	return out
}

// maxBlockLines bounds the lines of an edit whose settings Replacements
// pairs by key: a scenario's options, not a function.
const maxBlockLines = 30

// maxWriteLines bounds the lines of a file WriteReplacements compares:
// a config, not a source tree.
const maxWriteLines = 400

// WriteReplacements are the settings a whole-file write gave another
// value, old line then new, against what the file held before (was):
// "compatibility_date = \"2024-09-23\"" became "compatibility_date =
// \"2025-03-10\"" when the agent wrote wrangler.toml anew. A line is a
// setting when it starts with a key and "=" or ":"; one whose key is on
// one line only on each side is paired. Keys said twice (a TOML table's
// "name" in each of its sections) are left out: which one changed is not
// known.
func WriteReplacements(was, now string) [][2]string {
	a, b := settingLines(was), settingLines(now)
	if a == nil || b == nil {
		return nil
	}
	var out [][2]string
	for k, o := range a {
		n, ok := b[k]
		if !ok || o == "" || n == "" || o == n || len(o) > maxReplaced || len(n) > maxReplaced {
			continue
		}
		out = append(out, [2]string{o, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// settingLines are a file's lines that set a key, by key; "" for a key
// set on more than one line. nil for a file too long to be a config.
func settingLines(text string) map[string]string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if len(lines) > maxWriteLines {
		return nil
	}
	out := map[string]string{}
	for _, l := range lines {
		l = strings.TrimSpace(l)
		m := settingLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if _, seen := out[m[1]]; seen {
			out[m[1]] = ""
			continue
		}
		out[m[1]] = l
	}
	return out
}

// settingLine is a key given a value on one line: "port = 8790",
// "compatibility_date = \"2024-09-23\"", "replicas: 3", "\"lodash\":
// \"^4.17.21\",".
var settingLine = lazyre.New(`^["']?([A-Za-z_][\w.-]{0,60})["']?\s*[=:]\s*\S`)

// ReadContent is a file's text as Claude Code's Read tool shows it, each
// line after its number and a tab or an arrow ("3\tport = 8790", "
// 3→port = 8790"); "" when the output is not such a listing.
func ReadContent(output string) string {
	lines := strings.Split(output, "\n")
	var b strings.Builder
	for _, l := range lines {
		m := numbered.FindStringSubmatchIndex(l)
		if m == nil {
			if strings.TrimSpace(l) == "" {
				continue
			}
			return ""
		}
		b.WriteString(l[m[1]:])
		b.WriteByte('\n')
	}
	return b.String()
}

var numbered = lazyre.New(`^\s*\d+(?:\t|→)`)

// changedLine is the one line an edit changed: the whole replacement when
// it is one line, or the only line that differs when old and new have as
// many lines (an edit often carries a line around it to be unique).
func changedLine(old, new string) (o, n string, ok bool) {
	ol := strings.Split(strings.ReplaceAll(strings.TrimSpace(old), "\r\n", "\n"), "\n")
	nl := strings.Split(strings.ReplaceAll(strings.TrimSpace(new), "\r\n", "\n"), "\n")
	if len(ol) != len(nl) {
		return "", "", false
	}
	for i := range ol {
		a, b := strings.TrimSpace(ol[i]), strings.TrimSpace(nl[i])
		if a == b {
			continue
		}
		if o != "" || a == "" || b == "" {
			return "", "", false // more than one line changed: code, not a value
		}
		o, n = a, b
	}
	return o, n, o != ""
}
