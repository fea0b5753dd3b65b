package hooks

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/rollout"
)

// Codex says where and how cairn is wired into the Codex CLI (cairn init
// --codex): its hooks into a hooks.json, the project's or the user's, and
// its MCP server into the user's config.toml. Codex runs the hooks with
// Claude Code's payloads and reads their output the same way; every hook
// runs the cairn binary (cairn hook --agent codex), which tags what it
// captures as Codex's.
type Codex struct {
	Project string // the project's folder
	// Global wires the user's hooks.json instead of the project's
	// .codex/hooks.json.
	Global bool
	Home   string // the user's home folder
	// CodexHome is $CODEX_HOME, where Codex keeps its configuration when
	// set (else Home/.codex).
	CodexHome string
	// Self is how a hook command names the cairn binary (SelfCommand).
	Self string
	// PromptContext registers the user-prompt-submit hook too
	// (hooks.prompt_context in cairn.yaml).
	PromptContext bool
}

// NewCodex is the wiring of the project's memory into Codex for this
// cairn binary (SelfCommand), with the user's home and $CODEX_HOME read
// through getenv.
func NewCodex(project string, global, promptContext bool, getenv func(string) string) (Codex, error) {
	c := Codex{Project: project, Global: global, Home: getenv("HOME"), CodexHome: getenv("CODEX_HOME"), PromptContext: promptContext}
	if c.Home == "" && !filepath.IsAbs(c.CodexHome) {
		return c, errors.New("$HOME is not defined, nor $CODEX_HOME: cannot find Codex's folder")
	}
	var err error
	c.Self, err = SelfCommand()
	return c, err
}

// CodexFiles are the files cairn init --codex edits.
type CodexFiles struct {
	Hooks  string // .codex/hooks.json, the project's or the user's
	Config string // the user's config.toml
}

// CodexResult is what Codex.Install or Codex.Remove did to each file;
// nil when an error came first.
type CodexResult struct {
	Hooks, Config *Edit
}

// Dir is Codex's own folder: CodexHome, else Home/.codex (rollout.Home).
func (c Codex) Dir() string {
	return rollout.Home(c.CodexHome, c.Home)
}

// Files are the files c edits.
func (c Codex) Files() CodexFiles {
	f := CodexFiles{Hooks: filepath.Join(c.Project, ".codex", "hooks.json"), Config: filepath.Join(c.Dir(), "config.toml")}
	if c.Global {
		f.Hooks = filepath.Join(c.Dir(), "hooks.json")
	}
	return f
}

// codexCapture are the Codex events cairn captures. Codex has no
// SessionEnd: its sessions end when their rollout goes quiet.
var codexCapture = []string{model.HookUserPromptSubmit, model.HookPostToolUse, model.HookStop,
	model.HookSubagentStop, model.HookPreCompact, model.HookPostCompact}

// Groups are the hooks c registers, by event. Codex waits for each hook
// (capture only writes a file); a group without a matcher runs for every
// tool and every session start (startup, resume, clear).
func (c Codex) Groups() map[string]Group {
	self := ShellQuote(c.Self) + " hook --agent codex "
	out := map[string]Group{}
	for _, ev := range codexCapture {
		out[ev] = Group{Hooks: []Hook{{Type: "command", Command: self + "capture", Timeout: CaptureTimeout}}}
	}
	out[model.HookSessionStart] = Group{Hooks: []Hook{{Type: "command", Command: self + "session-start", Timeout: SessionStartTimeout}}}
	if c.PromptContext {
		g := out[model.HookUserPromptSubmit]
		g.Hooks = append(g.Hooks, Hook{Type: "command", Command: self + "user-prompt-submit", Timeout: PromptTimeout})
		out[model.HookUserPromptSubmit] = g
	}
	return out
}

// MCPTable is cairn's MCP server as config.toml declares it.
func (c Codex) MCPTable() TOMLTable {
	return TOMLTable{
		Path:    []string{"mcp_servers", MCPName},
		Comment: "cairn's memory (cairn init --codex; cairn init --codex --remove takes it out)",
		Keys:    []TOMLKey{{"command", c.Self}, {"args", []string{"mcp"}}},
	}
}

// Install wires the memory into Codex: the hooks into hooks.json, the
// MCP server into config.toml, each through EditJSON or EditTOML (a
// FILE.cairn-backup before the first change; a file that is not valid
// JSON or TOML is refused with its line and column, untouched). Doing it
// twice changes nothing.
func (c Codex) Install() (*CodexResult, error) {
	f := c.Files()
	res := &CodexResult{}
	groups := c.Groups()
	e, err := EditJSON(f.Hooks, func(data []byte) ([]byte, bool, error) { return MergeGroups(data, groups) })
	if err != nil {
		return res, err
	}
	res.Hooks = &e
	t := c.MCPTable()
	m, err := EditTOML(f.Config, func(data []byte) ([]byte, bool, error) { return MergeTOML(data, t) })
	if err != nil {
		return res, err
	}
	res.Config = &m
	return res, excludeBackups(c.Project, res.Hooks, res.Config)
}

// Remove takes cairn's hooks and MCP server out of Codex's files. Where
// cairn's wiring was the only change since the backup (the file is what
// Install makes of the backup), the backup's bytes come back as they
// were; otherwise only cairn's entries go. A project's .codex/ left empty
// goes too.
func (c Codex) Remove() (*CodexResult, error) {
	f := c.Files()
	res := &CodexResult{}
	groups := c.Groups()
	e, err := EditJSON(f.Hooks, restoring(f.Hooks, Remove, func(b []byte) ([]byte, bool, error) { return MergeGroups(b, groups) }))
	if err != nil {
		return res, err
	}
	res.Hooks = &e
	if !c.Global && e.Changed {
		if _, err := os.Lstat(f.Hooks); errors.Is(err, fs.ErrNotExist) {
			os.Remove(filepath.Dir(f.Hooks)) // only an empty folder goes
		}
	}
	t := c.MCPTable()
	m, err := EditTOML(f.Config, restoring(f.Config,
		func(b []byte) ([]byte, bool, error) { return RemoveTOML(b, t.Path) },
		func(b []byte) ([]byte, bool, error) { return MergeTOML(b, t) }))
	if err != nil {
		return res, err
	}
	res.Config = &m
	return res, excludeBackups(c.Project, res.Hooks, res.Config)
}

// restoring is an edit that removes cairn's entries (remove), or gives
// back the file's backup when the file is exactly what install makes of
// it: then cairn's was the only change, and the user gets their bytes.
func restoring(name string, remove, install func([]byte) ([]byte, bool, error)) func([]byte) ([]byte, bool, error) {
	return func(data []byte) ([]byte, bool, error) {
		out, changed, err := remove(data)
		if err != nil || !changed {
			return out, changed, err
		}
		if bak, err := os.ReadFile(name + BackupSuffix); err == nil {
			if made, ok, err := install(bak); err == nil && ok && bytes.Equal(made, data) {
				return bak, true, nil
			}
		}
		return out, changed, nil
	}
}
