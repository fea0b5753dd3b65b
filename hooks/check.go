package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/internal/model"
)

// Level says how much a finding matters.
type Level int

const (
	OK   Level = iota // wired, and what it names exists
	Warn              // works, but less well than it could
	Fail              // broken: sessions are not captured, or cairn cannot be reached
)

// Finding is one thing Check or CheckMCP found about how cairn is wired
// into Claude Code.
type Finding struct {
	Level  Level
	Detail string // what was found, naming the file
	Fix    string // the command or edit that fixes it; "" when nothing needs fixing
}

// CheckOptions is what Check compares Claude Code's settings with.
type CheckOptions struct {
	// MemoryDir is the memory's folder; its hooks/ folder should hold the
	// capture script this binary carries.
	MemoryDir string
	// PromptContext is hooks.prompt_context of cairn.yaml: whether the
	// UserPromptSubmit hook that adds memories to prompts should be there.
	PromptContext bool
	// Getenv is the user's environment: HOME names the user's settings
	// file, and hook commands may name other variables. Nil means
	// os.Getenv.
	Getenv func(string) string
}

// settingsFiles are the Claude Code settings files that apply to the
// project, most specific first.
func settingsFiles(project string, getenv func(string) string) []string {
	files := []string{
		filepath.Join(project, ".claude", "settings.local.json"),
		filepath.Join(project, ".claude", "settings.json"),
	}
	if home := getenv("HOME"); home != "" {
		files = append(files, filepath.Join(home, ".claude", "settings.json"))
	}
	return files
}

// Check reads the settings files that apply to project and says whether
// cairn's hooks are there for every event, whether the scripts and
// binaries they run exist, whether the installed capture script is the
// one this binary carries, and whether the prompt hook agrees with
// cairn.yaml. Files it cannot read or parse are findings too: Claude Code
// cannot read them either.
func Check(project string, opts CheckOptions) []Finding {
	var out []Finding
	add := func(l Level, detail, fix string) { out = append(out, Finding{l, detail, fix}) }
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	var found []Registered
	var where []string
	for _, name := range settingsFiles(project, getenv) {
		data, err := os.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			add(Fail, err.Error(), "")
			continue
		}
		regs, err := Find(data)
		var se *SyntaxError
		if errors.As(err, &se) {
			add(Fail, fmt.Sprintf("%s:%d:%d: %s (Claude Code cannot read it either)", name, se.Line, se.Column, se.Msg), "fix the JSON at that place")
			continue
		}
		if err != nil {
			add(Fail, fmt.Sprintf("%s: %v", name, err), "fix the file, then cairn init --claude")
			continue
		}
		if len(regs) > 0 {
			where = append(where, rel(project, name))
		}
		found = append(found, regs...)
	}
	if len(found) == 0 {
		if where := pluginEnabled(project, getenv); where != "" {
			add(OK, "the cairn plugin is enabled in "+where+": its hooks run cairn through plugin/scripts/cairn.sh", "")
			return out
		}
		add(Fail, "no cairn hooks in Claude Code's settings: sessions are not captured", "cairn init --claude")
		return out
	}
	events := map[string]bool{}
	problems := map[string][]string{} // problem -> events
	for _, h := range found {
		events[h.Event] = true
		if why := commandProblem(h.Command, project, getenv); why != "" {
			problems[why] = append(problems[why], h.Event)
		}
	}
	var broken []string
	for why, evs := range problems {
		sort.Strings(evs)
		broken = append(broken, fmt.Sprintf("%s (%s)", why, strings.Join(evs, ", ")))
	}
	var missing []string
	for _, ev := range append(model.CaptureEvents(), model.HookSessionStart) {
		if !events[ev] {
			missing = append(missing, ev)
		}
	}
	switch {
	case len(broken) > 0:
		sort.Strings(broken)
		add(Fail, strings.Join(broken, "; "), "cairn init --claude (again, with the cairn binary you use now)")
	case len(missing) > 0:
		add(Fail, "no cairn hook for "+strings.Join(missing, ", "), "cairn init --claude")
	default:
		add(OK, fmt.Sprintf("%d hooks in %s", len(found), strings.Join(where, ", ")), "")
	}
	// The installed script is the one this binary carries.
	script := filepath.Join(opts.MemoryDir, "hooks", CaptureScript)
	want, _ := Script(CaptureScript)
	if got, err := os.ReadFile(script); err == nil && !bytes.Equal(got, want) {
		add(Warn, rel(project, script)+" differs from this cairn's capture script", "cairn init --claude")
	}
	if opts.PromptContext != hasPromptHook(found) {
		state := "on"
		if !opts.PromptContext {
			state = "off"
		}
		add(Warn, "hooks.prompt_context is "+state+" in cairn.yaml but the UserPromptSubmit hook says otherwise", "cairn init --claude")
	}
	return out
}

// CheckMCP reads the project's .mcp.json and says whether cairn's MCP
// server is registered there with a command that exists; getenv is the
// user's environment (nil means os.Getenv).
func CheckMCP(project string, getenv func(string) string) Finding {
	if getenv == nil {
		getenv = os.Getenv
	}
	name := filepath.Join(project, ".mcp.json")
	data, err := os.ReadFile(name)
	if where := pluginEnabled(project, getenv); err != nil && where != "" {
		return Finding{OK, "the cairn plugin's server (enabled in " + where + ")", ""}
	}
	if err != nil {
		return Finding{Warn, "no .mcp.json: the agent cannot search memory itself", "cairn init --claude"}
	}
	var doc struct {
		Servers map[string]MCPServer `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return Finding{Fail, fmt.Sprintf("%s: %v", name, err), "fix the JSON"}
	}
	s, ok := doc.Servers[MCPName]
	if !ok {
		return Finding{Warn, "cairn is not registered in .mcp.json", "cairn init --claude"}
	}
	if why := commandProblem(ShellQuote(s.Command), project, getenv); why != "" {
		return Finding{Fail, "the MCP server's command: " + why, "cairn init --claude"}
	}
	return Finding{OK, fmt.Sprintf("%s %s", s.Command, strings.Join(s.Args, " ")), ""}
}

// pluginEnabled names the settings file that enables the cairn plugin
// (enabledPlugins: {"cairn@MARKETPLACE": true}), or is "".
func pluginEnabled(project string, getenv func(string) string) string {
	for _, name := range settingsFiles(project, getenv) {
		var doc struct {
			Enabled map[string]any `json:"enabledPlugins"`
		}
		if data, err := os.ReadFile(name); err != nil || json.Unmarshal(data, &doc) != nil {
			continue
		}
		for id, on := range doc.Enabled {
			if strings.HasPrefix(id, "cairn@") && on == true {
				return rel(project, name)
			}
		}
	}
	return ""
}

func hasPromptHook(found []Registered) bool {
	for _, h := range found {
		if strings.Contains(h.Command, "hook user-prompt-submit") {
			return true
		}
	}
	return false
}

// commandProblem says why a hook command of cairn's cannot run: the
// script or the binary it names is missing.
func commandProblem(command, project string, getenv func(string) string) string {
	words := shellWords(command)
	if len(words) == 0 {
		return "empty command"
	}
	for _, w := range words {
		if strings.HasSuffix(w, CaptureScript) {
			p := expandHookVars(w, project, getenv)
			if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
				return p + " does not exist"
			}
			return ""
		}
	}
	exe := expandHookVars(words[0], project, getenv)
	if !strings.Contains(exe, "/") {
		if _, err := exec.LookPath(exe); err != nil {
			return exe + " is not on PATH"
		}
		return ""
	}
	if fi, err := os.Stat(exe); err != nil || fi.Mode().Perm()&0o111 == 0 {
		return exe + " does not exist or is not executable"
	}
	return ""
}

// shellWords splits a command line the way sh would for the simple
// commands cairn writes: blanks separate words, quotes group them.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// expandHookVars expands what Claude Code's environment gives a hook;
// getenv is the user's environment.
func expandHookVars(s, project string, getenv func(string) string) string {
	home := getenv("HOME")
	return os.Expand(s, func(v string) string {
		name, def, _ := strings.Cut(v, ":-")
		switch name {
		case "CLAUDE_PROJECT_DIR":
			return project
		case "HOME":
			return home
		}
		if val := getenv(name); val != "" {
			return val
		}
		return def
	})
}

// rel shows name relative to the project when it lies inside it.
func rel(project, name string) string {
	if r, err := filepath.Rel(project, name); err == nil && filepath.IsLocal(r) {
		return r
	}
	return name
}
