package hooks

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// CaptureScript is the file name of the capture hook.
const CaptureScript = "capture.sh"

//go:embed *.sh
var scripts embed.FS

// Script returns the embedded script called name.
func Script(name string) ([]byte, error) {
	return scripts.ReadFile(name)
}

// Scripts lists the embedded scripts.
func Scripts() []string {
	list, _ := fs.Glob(scripts, "*.sh")
	return list
}

// Install writes the embedded scripts into dir (created if needed), each
// executable, through a temporary file and a rename. Scripts already
// there with the same bytes are left alone; it returns the paths it wrote.
func Install(dir string) (written []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("install hooks: %w", err)
	}
	for _, name := range Scripts() {
		data, err := Script(name)
		if err != nil {
			return written, err
		}
		dst := filepath.Join(dir, name)
		if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, data) {
			if fi, err := os.Stat(dst); err == nil && fi.Mode().Perm()&0o111 != 0 {
				continue
			}
		}
		if err := safefile.Write(dst, data, 0o755); err != nil {
			return written, fmt.Errorf("install hooks: %w", err)
		}
		written = append(written, dst)
	}
	return written, nil
}

// Plan is what cairn registers in a Claude Code settings file.
type Plan struct {
	// Capture is the shell command that runs the capture script, for
	// every event of CaptureEvents.
	Capture string
	// SessionStart is the command that prints the context pack
	// (cairn hook session-start).
	SessionStart string
	// PromptContext, if set, is the command that adds memories to each
	// prompt (cairn hook user-prompt-submit).
	PromptContext string
}

// Hook is one command hook in a settings file.
type Hook struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
	Async   bool   `json:"async,omitempty"`
}

// Group is a matcher and its hooks: one element of an event's list.
type Group struct {
	Matcher string `json:"matcher,omitempty"`
	Hooks   []Hook `json:"hooks"`
}

// Timeouts of cairn's hooks, in seconds. Capture only writes a file;
// SessionStart may process a backlog of captured events when no daemon
// runs (it stops well before this and leaves the rest for later).
const (
	CaptureTimeout      = 10
	SessionStartTimeout = 30
	PromptTimeout       = 10
)

// Groups returns the groups the plan adds, by event. Tool events match
// every tool. Capture hooks run asynchronously (Claude Code does not
// wait for them) except on SessionEnd, where Claude Code may exit before
// an asynchronous hook has run.
func (p Plan) Groups() map[string]Group {
	out := map[string]Group{}
	for _, ev := range model.CaptureEvents() {
		g := Group{Hooks: []Hook{{Type: "command", Command: p.Capture, Timeout: CaptureTimeout, Async: ev != model.HookSessionEnd}}}
		if ev == model.HookPostToolUse || ev == model.HookPostToolUseFailure {
			g.Matcher = "*"
		}
		out[ev] = g
	}
	if p.SessionStart != "" {
		out[model.HookSessionStart] = Group{Hooks: []Hook{{Type: "command", Command: p.SessionStart, Timeout: SessionStartTimeout}}}
	}
	if p.PromptContext != "" {
		g := out[model.HookUserPromptSubmit]
		g.Hooks = append(g.Hooks, Hook{Type: "command", Command: p.PromptContext, Timeout: PromptTimeout})
		out[model.HookUserPromptSubmit] = g
	}
	return out
}

// events lists the events of groups in the order Claude Code runs them
// in a session, for a stable settings file.
func events(groups map[string]Group) []string {
	order := []string{model.HookSessionStart, model.HookUserPromptSubmit, model.HookPostToolUse, model.HookPostToolUseFailure,
		model.HookStop, model.HookSubagentStop, model.HookPreCompact, model.HookPostCompact, model.HookSessionEnd}
	var out []string
	for _, ev := range order {
		if _, ok := groups[ev]; ok {
			out = append(out, ev)
		}
	}
	return out
}

// cairnCommand matches `cairn hook EVENT`, the binary named cairn (or
// cairn.exe, or a test build, cairn.test) by any path, quoted or not; and
// a build under another name that starts cairn- or cairn_ (cairn-dev)
// when it runs one of the hooks init registers (session-start,
// user-prompt-submit, capture, or any event of an agent named with
// --agent), so that running init again replaces them rather than adding
// more. Flags (-C DIR, --agent NAME) may come between hook and the event.
var cairnCommand = lazyre.New(`(^|[\s/'"])cairn((\.[A-Za-z0-9]+)?['"]?\s+hook` + hookFlags + `(\s+[A-Za-z-]+)?` +
	`|[-_][A-Za-z0-9._-]*['"]?\s+hook(` + hookFlags + `\s+(session-start|user-prompt-submit|capture)` +
	`|` + hookFlags + `\s+--agent(=|\s+)[a-z]+` + hookFlags + `\s+[A-Za-z-]+))\s*$`)

const hookFlags = `(\s+(-C|--dir|--agent)(=|\s+)('[^']*'|"[^"]*"|[^\s'"-]\S*))*`

// IsCairn reports whether a hook command is one of cairn's: it runs a
// capture script from a cairn hooks folder, or `cairn hook EVENT`, or
// this very program's hook under whatever name it was built (a trial's
// build as trial-cairn added its session-start hook again at every init,
// and --remove left them all).
func IsCairn(command string) bool {
	return strings.Contains(command, "cairn/hooks/") || cairnCommand.MatchString(command) || runsSelf(command)
}

// runsSelf reports whether command runs this program's hook subcommand,
// by the path it was started from.
func runsSelf(command string) bool {
	exe, err := os.Executable()
	if err != nil || exe == "" {
		return false
	}
	for _, p := range []string{exe, ShellQuote(exe)} {
		if rest, ok := strings.CutPrefix(command, p+" hook"); ok && (rest == "" || rest[0] == ' ') {
			return true
		}
	}
	return false
}

// ShellQuote quotes s for a POSIX shell when it needs it.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@+,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
