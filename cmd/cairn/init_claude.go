package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// backupSuffix names the copy of a settings file cairn makes before it
// first changes it.
const backupSuffix = ".cairn-backup"

// claudeTargets are the files cairn init --claude edits.
type claudeTargets struct {
	settings string // .claude/settings.json, the project's or the user's
	mcp      string // the project's .mcp.json
	script   string // the capture script the hooks run, as installed
}

func claudeFiles(g *globals, project string, global bool) (claudeTargets, error) {
	t := claudeTargets{
		settings: filepath.Join(project, ".claude", "settings.json"),
		mcp:      filepath.Join(project, ".mcp.json"),
		script:   filepath.Join(project, memory.DirName, "hooks", hooks.CaptureScript),
	}
	if global {
		home, err := g.home()
		if err != nil {
			return t, fmt.Errorf("--global: %w", err)
		}
		t.settings = filepath.Join(home, ".claude", "settings.json")
		t.script = filepath.Join(globalHooksDir(g, home), hooks.CaptureScript)
	}
	return t, nil
}

// globalHooksDir is where --global installs the capture script: the
// user's settings apply in every project, so it cannot live in one.
func globalHooksDir(g *globals, home string) string {
	dir := g.getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "cairn", "hooks")
}

// selfCommand is how a hook command names this cairn binary: "cairn"
// when that is what PATH finds, else its absolute path.
func selfCommand() (string, error) {
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

// claudePlan is what cairn registers for Claude Code.
func claudePlan(m *memory.Memory, t claudeTargets, global bool, self string) hooks.Plan {
	capture := `sh "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"`
	if global {
		capture = "sh " + hooks.ShellQuote(t.script)
	}
	p := hooks.Plan{Capture: capture, SessionStart: hooks.ShellQuote(self) + " hook session-start"}
	if m.Config.Hooks.PromptContext {
		p.PromptContext = hooks.ShellQuote(self) + " hook user-prompt-submit"
	}
	return p
}

// initClaude wires the memory m into Claude Code: the capture script into
// .cairn/hooks/, the hooks into settings.json and the MCP server into
// .mcp.json. The script is not committed: a sync would then bring a
// remote's version of a script this machine runs. Every machine writes it
// from its own binary (here, and at each session start).
func initClaude(ctx context.Context, g *globals, m *memory.Memory, global bool) error {
	project := filepath.Dir(m.Dir)
	t, err := claudeFiles(g, project, global)
	if err != nil {
		return err
	}
	self, err := selfCommand()
	if err != nil {
		return err
	}
	if err := ignoreHooks(ctx, m); err != nil {
		return err
	}
	written, err := hooks.Install(filepath.Join(m.Dir, "hooks"))
	if err != nil {
		return err
	}
	if len(written) > 0 {
		fmt.Fprintf(g.stdout, "installed %s\n", rel(project, filepath.Join(m.Dir, "hooks", hooks.CaptureScript)))
	}
	if global {
		w, err := hooks.Install(filepath.Dir(t.script))
		if err != nil {
			return err
		}
		if len(w) > 0 {
			fmt.Fprintf(g.stdout, "installed %s\n", t.script)
		}
	}
	plan := claudePlan(m, t, global, self)
	changed, backup, err := editJSONFile(t.settings, func(data []byte) ([]byte, bool, error) { return hooks.Merge(data, plan) })
	if err != nil {
		return err
	}
	reportEdit(g, project, t.settings, "Claude Code hooks are in", changed, backup)
	changed, backup, err = editJSONFile(t.mcp, func(data []byte) ([]byte, bool, error) {
		return hooks.MergeMCP(data, hooks.MCPServer{Type: "stdio", Command: self, Args: []string{"mcp"}})
	})
	if err != nil {
		return err
	}
	reportEdit(g, project, t.mcp, "the cairn MCP server is registered in", changed, backup)
	return nil
}

// removeClaude takes cairn's hooks and MCP server out of Claude Code's
// files. The memory and the scripts in .cairn/hooks/ stay.
func removeClaude(g *globals, project string, global bool) error {
	t, err := claudeFiles(g, project, global)
	if err != nil {
		return err
	}
	changed, backup, err := editJSONFile(t.settings, hooks.Remove)
	if err != nil {
		return err
	}
	reportRemove(g, project, t.settings, "cairn's hooks", changed, backup)
	changed, backup, err = editJSONFile(t.mcp, hooks.RemoveMCP)
	if err != nil {
		return err
	}
	reportRemove(g, project, t.mcp, "cairn's MCP server", changed, backup)
	return nil
}

func reportEdit(g *globals, project, name, what string, changed bool, backup string) {
	switch {
	case !changed:
		fmt.Fprintf(g.stdout, "%s %s already; nothing changed\n", what, rel(project, name))
	case backup != "":
		fmt.Fprintf(g.stdout, "%s %s (the file as it was is in %s)\n", what, rel(project, name), rel(project, backup))
	default:
		fmt.Fprintf(g.stdout, "%s %s\n", what, rel(project, name))
	}
}

func reportRemove(g *globals, project, name, what string, changed bool, backup string) {
	switch {
	case !changed:
		fmt.Fprintf(g.stdout, "%s: none in %s\n", what, rel(project, name))
	case backup != "":
		fmt.Fprintf(g.stdout, "removed %s from %s (the file before cairn first changed it is in %s)\n", what, rel(project, name), rel(project, backup))
	default:
		fmt.Fprintf(g.stdout, "removed %s from %s\n", what, rel(project, name))
	}
}

// rel shows name relative to the project when it lies inside it.
func rel(project, name string) string {
	if r, err := filepath.Rel(project, name); err == nil && filepath.IsLocal(r) {
		return r
	}
	return name
}

// editJSONFile applies edit to a JSON file the user owns. A file that is
// not valid JSON is refused with its line and column, untouched. Before
// the first change of a file that exists, a copy goes to
// name.cairn-backup (never overwritten: it keeps the file as it was
// before cairn). A file that cairn created and that holds nothing after
// the edit is removed. It returns whether the file changed and the
// backup, if there is one.
func editJSONFile(name string, edit func([]byte) ([]byte, bool, error)) (changed bool, backup string, err error) {
	data, err := os.ReadFile(name)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, "", err
	}
	out, changed, err := edit(data)
	if err != nil {
		var se *hooks.SyntaxError
		if errors.As(err, &se) {
			return false, "", fmt.Errorf("%s:%d:%d: %s; cairn did not change it (fix it, then run the command again)", name, se.Line, se.Column, se.Msg)
		}
		return false, "", fmt.Errorf("%s: %w; cairn did not change it", name, err)
	}
	bak := name + backupSuffix
	_, berr := os.Stat(bak)
	hadBackup := berr == nil
	if hadBackup {
		backup = bak
	}
	if !changed {
		return false, backup, nil
	}
	if exists && hooks.Empty(out) && !hadBackup {
		// cairn made this file: leave no trace.
		if err := os.Remove(name); err != nil {
			return false, "", err
		}
		return true, "", nil
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
			return false, "", fmt.Errorf("back up %s: %w", name, err)
		}
		backup = bak
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return false, backup, err
	}
	if err := safefile.Write(name, out, perm); err != nil {
		return false, backup, err
	}
	return true, backup, nil
}

// ignoreHooks makes sure the memory's .gitignore keeps hooks/ out of its
// commits (memories made before it did not have the line) and that no
// script an earlier cairn committed stays in the history's tip: those are
// deleted and the deletion committed; the caller writes them again from
// this binary, ignored from then on.
func ignoreHooks(ctx context.Context, m *memory.Memory) error {
	name := filepath.Join(m.Dir, ".gitignore")
	data, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
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
			return err
		}
	}
	for _, s := range hooks.Scripts() {
		p := "hooks/" + s
		if _, err := m.History().ReadFileAt(ctx, "HEAD", p); err == nil {
			if err := os.Remove(filepath.Join(m.Dir, "hooks", s)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			paths = append(paths, p)
		}
	}
	if ignored && len(paths) == 1 {
		return nil
	}
	_, err = m.Checkpoint(ctx, memory.CheckpointOptions{Message: "hooks: keep the agent hook scripts out of the memory's history", Event: "init", Paths: paths})
	if err != nil && !errors.Is(err, memory.ErrNothingToDo) {
		return err
	}
	return nil
}
