package hooks

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestShellWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   ", nil},
		{"cairn hook session-start", []string{"cairn", "hook", "session-start"}},
		{"  a\t b  ", []string{"a", "b"}},
		{`sh "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"`, []string{"sh", "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"}},
		{`'/opt/my tools/cairn' hook stop`, []string{"/opt/my tools/cairn", "hook", "stop"}},
		{`a"b c"d`, []string{"ab cd"}},
		// Backslashes are kept as they are, unlike sh: a path with a quote
		// in it, which ShellQuote writes as '\'', is not read back whole.
		{`'it'\''s'`, []string{`it\s`}},
		{`""`, []string{""}},
		{`x "unclosed`, []string{"x", "unclosed"}},
	} {
		if got := shellWords(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("shellWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestExpandHookVars(t *testing.T) {
	t.Parallel()
	env := map[string]string{"HOME": "/home/u", "CAIRN_TEST_SET": "/set", "CAIRN_TEST_EMPTY": ""}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct{ in, want string }{
		{"plain/path", "plain/path"},
		{"${CLAUDE_PROJECT_DIR}/.cairn/hooks/capture.sh", "/p/.cairn/hooks/capture.sh"},
		{"${CLAUDE_PROJECT_DIR:-.}/x", "/p/x"},
		{"$CLAUDE_PROJECT_DIR/x", "/p/x"},
		{"$HOME/.cairn/hooks/capture.sh", "/home/u/.cairn/hooks/capture.sh"},
		{"${CAIRN_TEST_SET:-/default}", "/set"},
		{"${CAIRN_TEST_EMPTY:-/default}", "/default"},
		{"${CAIRN_TEST_UNSET:-/default}/x", "/default/x"},
		{"${CAIRN_TEST_UNSET}/x", "/x"},
	} {
		if got := expandHookVars(tc.in, "/p", getenv); got != tc.want {
			t.Errorf("expandHookVars(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// wiring is a project with an installed capture script and an
// executable that stands for the cairn binary.
type wiring struct {
	project, memory, script, exe string
	home                         string // the user's, empty: no ~/.claude/settings.json of the user's
}

// getenv is the user's environment, with w's home.
func (w wiring) getenv(name string) string {
	if name == "HOME" {
		return w.home
	}
	return os.Getenv(name)
}

func newWiring(t *testing.T) wiring {
	t.Helper()
	w := wiring{project: t.TempDir(), home: t.TempDir()}
	w.memory = filepath.Join(w.project, ".cairn")
	if _, err := Install(filepath.Join(w.memory, "hooks")); err != nil {
		t.Fatal(err)
	}
	w.script = filepath.Join(w.memory, "hooks", CaptureScript)
	w.exe = filepath.Join(t.TempDir(), "cairn")
	if err := os.WriteFile(w.exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

func TestCommandProblem(t *testing.T) {
	t.Parallel()
	w := newWiring(t)
	notExec := filepath.Join(t.TempDir(), "cairn")
	os.WriteFile(notExec, []byte("x"), 0o644)
	for _, tc := range []struct{ command, want string }{
		{`sh "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"`, ""},
		{"sh " + ShellQuote(w.script), ""},
		{"sh /nowhere/.cairn/hooks/capture.sh", "/nowhere/.cairn/hooks/capture.sh does not exist"},
		{`sh "$CLAUDE_PROJECT_DIR/.cairn/hooks/capture.sh" `, ""},
		{ShellQuote(w.exe) + " hook session-start", ""},
		{"sh -c true", ""}, // on PATH
		{"cairn-not-installed-anywhere hook session-start", "cairn-not-installed-anywhere is not on PATH"},
		{"/nowhere/cairn hook session-start", "/nowhere/cairn does not exist or is not executable"},
		{notExec + " hook session-start", notExec + " does not exist or is not executable"},
		{"  ", "empty command"},
	} {
		if got := commandProblem(tc.command, w.project, w.getenv); got != tc.want {
			t.Errorf("commandProblem(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
	// A folder where the script should be is not the script.
	os.Remove(w.script)
	os.Mkdir(w.script, 0o755)
	if got, want := commandProblem("sh "+w.script, w.project, w.getenv), w.script+" does not exist"; got != want {
		t.Errorf("script is a folder: %q, want %q", got, want)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	settings := filepath.Join(".claude", "settings.json")
	for _, tc := range []struct {
		name string
		// setup writes the project's settings (and more) and returns the
		// options to check with.
		setup func(t *testing.T, w wiring) CheckOptions
		// want's Detail is a part of the detail, with HOME and EXE for
		// the home folder and the binary.
		want []Finding
	}{
		{
			name:  "nothing installed",
			setup: func(t *testing.T, w wiring) CheckOptions { return CheckOptions{MemoryDir: w.memory} },
			want:  []Finding{{Fail, "no cairn hooks in Claude Code's settings", "cairn init --claude"}},
		},
		{
			name: "the plugin",
			setup: func(t *testing.T, w wiring) CheckOptions {
				writeFile(t, filepath.Join(w.home, ".claude", "settings.json"), `{"enabledPlugins": {"cairn@cairn": true, "other@x": true}}`)
				return CheckOptions{MemoryDir: w.memory}
			},
			want: []Finding{{OK, "the cairn plugin is enabled in HOME/.claude/settings.json", ""}},
		},
		{
			name: "the plugin disabled",
			setup: func(t *testing.T, w wiring) CheckOptions {
				writeFile(t, filepath.Join(w.home, ".claude", "settings.json"), `{"enabledPlugins": {"cairn@cairn": false}}`)
				return CheckOptions{MemoryDir: w.memory}
			},
			want: []Finding{{Fail, "no cairn hooks in Claude Code's settings", "cairn init --claude"}},
		},
		{
			name: "all there",
			setup: func(t *testing.T, w wiring) CheckOptions {
				writeSettings(t, w, settings, w.plan(false))
				return CheckOptions{MemoryDir: w.memory}
			},
			want: []Finding{{OK, "9 hooks in " + settings, ""}},
		},
		{
			name: "settings.local.json counts, and is named first",
			setup: func(t *testing.T, w wiring) CheckOptions {
				local := `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": ` + strconv.Quote(w.plan(true).PromptContext) + `}]}]}}`
				writeFile(t, filepath.Join(w.project, ".claude", "settings.local.json"), local)
				writeSettings(t, w, settings, w.plan(false))
				return CheckOptions{MemoryDir: w.memory, PromptContext: true}
			},
			want: []Finding{{OK, "10 hooks in .claude/settings.local.json, " + settings, ""}},
		},
		{
			name: "user's settings.json in the home folder",
			setup: func(t *testing.T, w wiring) CheckOptions {
				writeSettings(t, wiring{project: w.home}, settings, w.plan(false))
				return CheckOptions{MemoryDir: w.memory}
			},
			want: []Finding{{OK, "9 hooks in " + filepath.Join("HOME", settings), ""}},
		},
		{
			name: "script removed",
			setup: func(t *testing.T, w wiring) CheckOptions {
				writeSettings(t, w, settings, w.plan(false))
				os.Remove(w.script)
				return CheckOptions{MemoryDir: w.memory}
			},
			want: []Finding{{Fail, "capture.sh does not exist (PostCompact, PostToolUse, PostToolUseFailure, PreCompact, SessionEnd, Stop, SubagentStop, UserPromptSubmit)", "cairn init --claude (again, with the cairn binary you use now)"}},
		},
		{
			name: "binary gone",
			setup: func(t *testing.T, w wiring) CheckOptions {
				writeSettings(t, w, settings, w.plan(false))
				os.Remove(w.exe)
				return CheckOptions{MemoryDir: w.memory}
			},
			want: []Finding{{Fail, "EXE does not exist or is not executable (SessionStart)", "cairn init --claude (again, with the cairn binary you use now)"}},
		},
		{
			name: "an event missing",
			setup: func(t *testing.T, w wiring) CheckOptions {
				p := w.plan(false)
				p.SessionStart = ""
				writeSettings(t, w, settings, p)
				return CheckOptions{MemoryDir: w.memory}
			},
			want: []Finding{{Fail, "no cairn hook for SessionStart", "cairn init --claude"}},
		},
		{
			name: "invalid JSON",
			setup: func(t *testing.T, w wiring) CheckOptions {
				writeFile(t, filepath.Join(w.project, settings), "{\n  \"a\": [1,]\n}\n")
				return CheckOptions{MemoryDir: w.memory}
			},
			want: []Finding{
				{Fail, settings + ":2:11: invalid JSON", "fix the JSON at that place"},
				{Fail, "no cairn hooks", "cairn init --claude"},
			},
		},
		{
			name: "hooks not an object",
			setup: func(t *testing.T, w wiring) CheckOptions {
				writeFile(t, filepath.Join(w.project, settings), `{"hooks": []}`)
				return CheckOptions{MemoryDir: w.memory}
			},
			want: []Finding{
				{Fail, settings + `: "hooks" is not an object`, "fix the file, then cairn init --claude"},
				{Fail, "no cairn hooks", "cairn init --claude"},
			},
		},
		{
			name: "old capture script",
			setup: func(t *testing.T, w wiring) CheckOptions {
				writeSettings(t, w, settings, w.plan(false))
				writeFile(t, w.script, "#!/bin/sh\nexit 0\n")
				return CheckOptions{MemoryDir: w.memory}
			},
			want: []Finding{
				{OK, "9 hooks", ""},
				{Warn, filepath.Join(".cairn", "hooks", CaptureScript) + " differs from this cairn's capture script", "cairn init --claude"},
			},
		},
		{
			name: "prompt context on in cairn.yaml, no hook",
			setup: func(t *testing.T, w wiring) CheckOptions {
				writeSettings(t, w, settings, w.plan(false))
				return CheckOptions{MemoryDir: w.memory, PromptContext: true}
			},
			want: []Finding{
				{OK, "9 hooks", ""},
				{Warn, "hooks.prompt_context is on in cairn.yaml but the UserPromptSubmit hook says otherwise", "cairn init --claude"},
			},
		},
		{
			name: "prompt hook, prompt context off",
			setup: func(t *testing.T, w wiring) CheckOptions {
				writeSettings(t, w, settings, w.plan(true))
				return CheckOptions{MemoryDir: w.memory}
			},
			want: []Finding{
				{OK, "10 hooks", ""},
				{Warn, "hooks.prompt_context is off in cairn.yaml", "cairn init --claude"},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWiring(t)
			opts := tc.setup(t, w)
			opts.Getenv = w.getenv
			got := Check(w.project, opts)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, f := range got {
				want := tc.want[i]
				want.Detail = strings.NewReplacer("HOME", w.home, "EXE", w.exe).Replace(want.Detail)
				if f.Level != want.Level || !strings.Contains(f.Detail, want.Detail) || f.Fix != want.Fix {
					t.Errorf("finding %d: %+v\nwant     %+v", i, f, want)
				}
			}
		})
	}
}

// plan is what cairn init --claude registers in w, with the prompt hook
// or without.
func (w wiring) plan(prompt bool) Plan {
	p := Plan{
		Capture:      `sh "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"`,
		SessionStart: ShellQuote(w.exe) + " hook session-start",
	}
	if prompt {
		p.PromptContext = ShellQuote(w.exe) + " hook user-prompt-submit"
	}
	return p
}

func writeSettings(t *testing.T, w wiring, name string, p Plan) {
	t.Helper()
	data, _, err := Merge(nil, p)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(w.project, name), string(data))
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheckMCP(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		mcp  string // .mcp.json; "" for none; EXE is the binary
		want Finding
	}{
		{"none", "", Finding{Warn, "no .mcp.json: the agent cannot search memory itself", "cairn init --claude"}},
		{"invalid", "{", Finding{Fail, ".mcp.json: unexpected end of JSON input", "fix the JSON"}},
		{"other servers only", `{"mcpServers": {"other": {"command": "x"}}}`, Finding{Warn, "cairn is not registered in .mcp.json", "cairn init --claude"}},
		{"binary gone", `{"mcpServers": {"cairn": {"type": "stdio", "command": "/nowhere/cairn", "args": ["mcp"]}}}`,
			Finding{Fail, "the MCP server's command: /nowhere/cairn does not exist or is not executable", "cairn init --claude"}},
		{"registered", `{"mcpServers": {"cairn": {"type": "stdio", "command": "EXE", "args": ["mcp"]}}}`, Finding{OK, "EXE mcp", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWiring(t)
			if tc.mcp != "" {
				writeFile(t, filepath.Join(w.project, ".mcp.json"), strings.ReplaceAll(tc.mcp, "EXE", w.exe))
			}
			want := tc.want
			want.Detail = strings.ReplaceAll(want.Detail, "EXE", w.exe)
			if got := CheckMCP(w.project, w.getenv); got.Level != want.Level || !strings.HasSuffix(got.Detail, want.Detail) || got.Fix != want.Fix {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}
