package hooks

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/internal/codegit"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// BackupSuffix names the copy of a settings file cairn makes before it
// first changes it.
const BackupSuffix = ".cairn-backup"

// Claude says where and how cairn is wired into Claude Code (cairn init
// --claude): the capture script into the memory's hooks/, cairn's hooks
// into settings.json and its MCP server into the project's .mcp.json.
type Claude struct {
	Project   string // the project's folder
	MemoryDir string // its memory, <project>/.cairn
	// Global wires the user's ~/.claude/settings.json instead of the
	// project's; the capture script then goes into ConfigHome (or
	// Home/.config) /cairn/hooks/, as the settings apply in every project.
	Global     bool
	Home       string // the user's home folder, for Global
	ConfigHome string // $XDG_CONFIG_HOME, for Global
	// Self is how a hook command names the cairn binary (SelfCommand).
	Self string
	// PromptContext registers the user-prompt-submit hook too
	// (hooks.prompt_context in cairn.yaml).
	PromptContext bool
}

// NewClaude is the wiring of the project's memory into Claude Code, with
// the user's home and $XDG_CONFIG_HOME read through getenv (for Global).
// cairn init (internal/agents) fills in the rest.
func NewClaude(project string, global bool, getenv func(string) string) (Claude, error) {
	c := Claude{Project: project, MemoryDir: filepath.Join(project, ".cairn"), Global: global}
	if global {
		if c.Home = getenv("HOME"); c.Home == "" {
			return c, errors.New("--global: $HOME is not defined")
		}
		c.ConfigHome = getenv("XDG_CONFIG_HOME")
	}
	return c, nil
}

// ClaudeFiles are the files cairn init --claude edits or writes.
type ClaudeFiles struct {
	Settings string // .claude/settings.json, the project's or the user's
	MCP      string // the project's .mcp.json
	Script   string // the capture script the hooks run, as installed
}

// Files are the files c edits.
func (c Claude) Files() ClaudeFiles {
	t := ClaudeFiles{
		Settings: filepath.Join(c.Project, ".claude", "settings.json"),
		MCP:      filepath.Join(c.Project, ".mcp.json"),
		Script:   filepath.Join(c.MemoryDir, "hooks", CaptureScript),
	}
	if c.Global {
		t.Settings = filepath.Join(c.Home, ".claude", "settings.json")
		t.Script = filepath.Join(c.globalHooksDir(), CaptureScript)
	}
	return t
}

// globalHooksDir is where Global installs the capture script: the user's
// settings apply in every project, so it cannot live in one.
func (c Claude) globalHooksDir() string {
	dir := c.ConfigHome
	if dir == "" || !filepath.IsAbs(dir) {
		dir = filepath.Join(c.Home, ".config")
	}
	return filepath.Join(dir, "cairn", "hooks")
}

// Plan is what c registers for Claude Code.
func (c Claude) Plan() Plan {
	capture := `sh "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"`
	if c.Global {
		capture = "sh " + ShellQuote(c.Files().Script)
	}
	p := Plan{Capture: capture, SessionStart: ShellQuote(c.Self) + " hook session-start"}
	if c.PromptContext {
		p.PromptContext = ShellQuote(c.Self) + " hook user-prompt-submit"
	}
	return p
}

// Edit is what wiring did to one file.
type Edit struct {
	File    string
	Changed bool
	Backup  string // the copy of the file before cairn first changed it, if any
}

// ClaudeResult is what Install or Remove did.
type ClaudeResult struct {
	Installed []string // the capture scripts written
	// What was done to settings.json and .mcp.json; nil when an error
	// came first.
	Settings, MCP *Edit
}

// Install wires the memory into Claude Code: the capture script into the
// memory's hooks/ (and, for Global, the user's), the hooks into
// settings.json and the MCP server into .mcp.json. The script is not
// committed: a sync would then bring a remote's version of a script this
// machine runs; every machine writes it from its own binary (here, and at
// each session start). Backups made inside the project are kept out of
// its git status. On an error, the result says what was done before it.
func (c Claude) Install() (*ClaudeResult, error) {
	t := c.Files()
	res := &ClaudeResult{}
	written, err := Install(filepath.Join(c.MemoryDir, "hooks"))
	if err != nil {
		return res, err
	}
	if len(written) > 0 {
		res.Installed = append(res.Installed, filepath.Join(c.MemoryDir, "hooks", CaptureScript))
	}
	if c.Global {
		w, err := Install(filepath.Dir(t.Script))
		if err != nil {
			return res, err
		}
		if len(w) > 0 {
			res.Installed = append(res.Installed, t.Script)
		}
	}
	plan := c.Plan()
	e, err := EditJSON(t.Settings, func(data []byte) ([]byte, bool, error) { return Merge(data, plan) })
	if err != nil {
		return res, err
	}
	res.Settings = &e
	m, err := EditJSON(t.MCP, func(data []byte) ([]byte, bool, error) {
		return MergeMCP(data, MCPServer{Type: "stdio", Command: c.Self, Args: []string{"mcp"}})
	})
	if err != nil {
		return res, err
	}
	res.MCP = &m
	return res, c.excludeBackups(res)
}

// Remove takes cairn's hooks and MCP server out of Claude Code's files.
// The memory and the scripts in its hooks/ stay. A project's .claude/
// left empty (cairn made it, with the settings file it removed) goes too.
func (c Claude) Remove() (*ClaudeResult, error) {
	t := c.Files()
	res := &ClaudeResult{}
	e, err := EditJSON(t.Settings, Remove)
	if err != nil {
		return res, err
	}
	res.Settings = &e
	if !c.Global && e.Changed {
		if _, err := os.Lstat(t.Settings); errors.Is(err, fs.ErrNotExist) {
			// Only an empty folder is removed; anything else in it stays.
			os.Remove(filepath.Dir(t.Settings))
		}
	}
	m, err := EditJSON(t.MCP, RemoveMCP)
	if err != nil {
		return res, err
	}
	res.MCP = &m
	return res, c.excludeBackups(res)
}

// excludeBackups keeps the backups made inside the project out of its
// git status, as .cairn/ is: through .git/info/exclude.
func (c Claude) excludeBackups(res *ClaudeResult) error {
	return excludeBackups(c.Project, res.Settings, res.MCP)
}

func excludeBackups(project string, edits ...*Edit) error {
	for _, e := range edits {
		if e == nil || e.Backup == "" {
			continue
		}
		if r, err := filepath.Rel(project, e.Backup); err != nil || !filepath.IsLocal(r) {
			continue
		}
		_, err := codegit.Exclude(project, []string{"*" + BackupSuffix}, "# cairn's copies of the files it changed (cairn init)")
		return err
	}
	return nil
}

// SelfCommand is how a hook command names this cairn binary: "cairn"
// when that is what PATH finds, else its absolute path.
func SelfCommand() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the cairn binary: %w", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	if p, err := exec.LookPath("cairn"); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil && r == exe {
			return "cairn", nil
		}
	}
	return exe, nil
}

// EditJSON applies edit to a JSON file the user owns. A file that is not
// valid JSON is refused with its line and column, untouched. Before the
// first change of a file that exists, a copy goes to name.cairn-backup
// (never overwritten: it keeps the file as it was before cairn). A file
// that cairn created and that holds nothing after the edit is removed.
func EditJSON(name string, edit func([]byte) ([]byte, bool, error)) (Edit, error) {
	return editFile(name, edit, Empty)
}

// EditTOML is EditJSON for a TOML file: a file cairn made that holds only
// blank lines after the edit is removed.
func EditTOML(name string, edit func([]byte) ([]byte, bool, error)) (Edit, error) {
	return editFile(name, edit, func(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 })
}

// editFile is EditJSON with empty saying when a file holds nothing.
func editFile(name string, edit func([]byte) ([]byte, bool, error), empty func([]byte) bool) (Edit, error) {
	res := Edit{File: name}
	data, err := os.ReadFile(name)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, err
	}
	out, changed, err := edit(data)
	if err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return res, fmt.Errorf("%s:%d:%d: %s; cairn did not change it (fix it, then run the command again)", name, se.Line, se.Column, se.Msg)
		}
		return res, fmt.Errorf("%s: %w; cairn did not change it", name, err)
	}
	bak := name + BackupSuffix
	_, berr := os.Stat(bak)
	hadBackup := berr == nil
	if hadBackup {
		res.Backup = bak
	}
	if !changed {
		return res, nil
	}
	if exists && empty(out) && !hadBackup {
		// cairn made this file: leave no trace.
		if err := os.Remove(name); err != nil {
			return res, err
		}
		res.Changed = true
		return res, nil
	}
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(name); err == nil {
		perm = fi.Mode().Perm()
	}
	// A settings file is often a link into a dotfiles repository: write
	// the file it points at, not a new file in the link's place.
	if real, err := filepath.EvalSymlinks(name); err == nil {
		name = real
	}
	if exists && !hadBackup {
		if err := safefile.Write(bak, data, perm); err != nil {
			return res, fmt.Errorf("back up %s: %w", name, err)
		}
		res.Backup = bak
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return res, err
	}
	if err := safefile.Write(name, out, perm); err != nil {
		return res, err
	}
	res.Changed = true
	return res, nil
}

// IgnoreScripts makes sure the memory's .gitignore keeps hooks/ out of
// its commits (memories made before it did not have the line) and deletes
// the scripts an earlier cairn committed (committed says which repository
// paths are in the history's tip). It returns the paths whose change the
// caller commits, none when nothing changed; the caller writes the
// scripts again from its binary, ignored from then on.
func IgnoreScripts(memoryDir string, committed func(path string) bool) ([]string, error) {
	name := filepath.Join(memoryDir, ".gitignore")
	data, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	paths := []string{".gitignore"}
	ignored := false
	for line := range strings.Lines(string(data)) {
		if l := strings.TrimSpace(line); l == "/hooks/" || l == "hooks/" {
			ignored = true
		}
	}
	if !ignored {
		if len(data) > 0 && !strings.HasSuffix(string(data), "\n") {
			data = append(data, '\n')
		}
		data = append(data, "# The agent hook scripts: written by cairn, never synced.\n/hooks/\n"...)
		if err := safefile.Write(name, data, 0o644); err != nil {
			return nil, err
		}
	}
	for _, s := range Scripts() {
		p := "hooks/" + s
		if committed(p) {
			if err := os.Remove(filepath.Join(memoryDir, "hooks", s)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
			paths = append(paths, p)
		}
	}
	if ignored && len(paths) == 1 {
		return nil, nil
	}
	return paths, nil
}
