package hooks

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

func copyFile(t *testing.T, from, to string) []byte {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return data
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestCodexInstallRemove wires a realistic Codex configuration (other
// hooks, other MCP servers, comments and a multi-line string in TOML),
// twice, then takes cairn out: the files come back byte for byte.
func TestCodexInstallRemove(t *testing.T) {
	for _, global := range []bool{false, true} {
		t.Run(map[bool]string{false: "project", true: "global"}[global], func(t *testing.T) {
			dir := t.TempDir()
			c := Codex{Project: filepath.Join(dir, "proj"), Home: filepath.Join(dir, "home"), CodexHome: filepath.Join(dir, "codexhome"), Global: global, Self: "/opt/cairn/bin/cairn"}
			f := c.Files()
			hooksBefore := copyFile(t, "testdata/codex/hooks.json", f.Hooks)
			configBefore := copyFile(t, "testdata/codex/config.toml", f.Config)

			res, err := c.Install()
			if err != nil {
				t.Fatal(err)
			}
			if !res.Hooks.Changed || !res.Config.Changed || res.Hooks.Backup == "" || res.Config.Backup == "" {
				t.Fatalf("install: %+v %+v", res.Hooks, res.Config)
			}
			hooksAfter, configAfter := readFile(t, f.Hooks), readFile(t, f.Config)
			checkCodexHooks(t, hooksAfter)
			if !strings.HasPrefix(string(configAfter), string(configBefore)) {
				t.Errorf("config.toml: the user's text changed:\n%s", configAfter)
			}
			want := "\n[mcp_servers.cairn]\n# cairn's memory (cairn init --codex; cairn init --codex --remove takes it out)\ncommand = \"/opt/cairn/bin/cairn\"\nargs = [\"mcp\"]\n"
			if got := strings.TrimPrefix(string(configAfter), string(configBefore)); got != want {
				t.Errorf("config.toml gained\n%q\nwant\n%q", got, want)
			}
			var cfg struct {
				MCPServers map[string]struct {
					Command string
					Args    []string
				} `toml:"mcp_servers"`
			}
			if err := toml.Unmarshal(configAfter, &cfg); err != nil {
				t.Fatal(err)
			}
			if len(cfg.MCPServers) != 3 || cfg.MCPServers["cairn"].Command != c.Self {
				t.Errorf("mcp_servers = %+v", cfg.MCPServers)
			}

			again, err := c.Install()
			if err != nil {
				t.Fatal(err)
			}
			if again.Hooks.Changed || again.Config.Changed {
				t.Errorf("second install changed something: %+v %+v", again.Hooks, again.Config)
			}
			if string(readFile(t, f.Hooks)) != string(hooksAfter) || string(readFile(t, f.Config)) != string(configAfter) {
				t.Error("second install changed the files")
			}

			if _, err := c.Remove(); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, f.Hooks); string(got) != string(hooksBefore) {
				t.Errorf("hooks.json after remove:\n%s", got)
			}
			if got := readFile(t, f.Config); string(got) != string(configBefore) {
				t.Errorf("config.toml after remove:\n%s", got)
			}
		})
	}
}

// checkCodexHooks checks a hooks.json against what Codex reads (its
// HooksFile: one "hooks" key; groups of {matcher, hooks: [{type,
// command, timeout, statusMessage}]}), and that cairn's hooks are there
// after the user's.
func checkCodexHooks(t *testing.T, data []byte) {
	t.Helper()
	var file struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type          string `json:"type"`
				Command       string `json:"command"`
				Timeout       int    `json:"timeout"`
				StatusMessage string `json:"statusMessage"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		t.Fatalf("hooks.json is not what Codex reads: %v\n%s", err, data)
	}
	known := map[string]bool{"PreToolUse": true, "PermissionRequest": true, "PostToolUse": true, "PreCompact": true, "PostCompact": true,
		"SessionStart": true, "UserPromptSubmit": true, "SubagentStart": true, "SubagentStop": true, "Stop": true}
	cmd := regexp.MustCompile(`^/opt/cairn/bin/cairn hook --agent codex (capture|session-start)$`)
	for ev, groups := range file.Hooks {
		if !known[ev] {
			t.Errorf("event %s is not one Codex knows", ev)
		}
		n := 0
		for _, g := range groups {
			for _, h := range g.Hooks {
				if IsCairn(h.Command) {
					n++
					if !cmd.MatchString(h.Command) || h.Type != "command" || h.Timeout == 0 || g.Matcher != nil {
						t.Errorf("%s: cairn's hook %+v (matcher %v)", ev, h, g.Matcher)
					}
				}
			}
		}
		if _, ours := (Codex{}).Groups()[ev]; ours != (n == 1) {
			t.Errorf("%s: %d cairn hooks, want 1", ev, n)
		}
	}
	if len(file.Hooks["SessionStart"]) != 2 || len(file.Hooks["Stop"]) != 2 || len(file.Hooks["PreToolUse"]) != 1 {
		t.Errorf("the user's hooks are not kept: %s", data)
	}
}

// TestCodexBadFiles: a malformed hooks.json or config.toml is refused
// with file:line:col and left as it was.
func TestCodexBadFiles(t *testing.T) {
	for _, tc := range []struct{ file, where string }{
		{"bad.json", "hooks.json:5:5: "},
		{"bad.toml", "config.toml:4:1"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			dir := t.TempDir()
			c := Codex{Project: dir, Home: dir, Self: "cairn"}
			f := c.Files()
			name := f.Hooks
			if strings.HasSuffix(tc.file, ".toml") {
				name = f.Config
			}
			before := copyFile(t, "testdata/codex/"+tc.file, name)
			_, err := c.Install()
			if err == nil || !strings.Contains(err.Error(), tc.where) {
				t.Fatalf("err = %v, want one at %s", err, tc.where)
			}
			if got := readFile(t, name); string(got) != string(before) {
				t.Error("the file changed")
			}
			if _, err := os.Stat(name + BackupSuffix); err == nil {
				t.Error("a backup was made of a file cairn did not change")
			}
		})
	}
}

func TestMergeTOML(t *testing.T) {
	table := TOMLTable{Path: []string{"mcp_servers", "cairn"}, Keys: []TOMLKey{{"command", "cairn"}, {"args", []string{"mcp"}}}}
	for _, tc := range []struct {
		name, in, out string
		changed       bool
		err           string
	}{
		{"empty", "", "[mcp_servers.cairn]\ncommand = \"cairn\"\nargs = [\"mcp\"]\n", true, ""},
		{"no final newline", "a = 1", "a = 1\n\n[mcp_servers.cairn]\ncommand = \"cairn\"\nargs = [\"mcp\"]\n", true, ""},
		{"same, with more", "[mcp_servers.cairn] # mine\ncommand = \"cairn\"\nargs = [\"mcp\"]\nstartup_timeout_sec = 20\n", "", false, ""},
		{"older, replaced in place",
			"[mcp_servers.\"cairn\"]\ncommand = \"/old/cairn\"\n\n[mcp_servers.cairn.env]\nX = \"1\"\n\n# next\n[other]\nk = 2\n",
			"[mcp_servers.cairn]\ncommand = \"cairn\"\nargs = [\"mcp\"]\n\n# next\n[other]\nk = 2\n", true, ""},
		{"inline", "mcp_servers = { cairn = { command = \"x\" } }\n", "", false, "a form cairn does not edit"},
		{"dotted", "[mcp_servers]\ncairn.command = \"x\"\n", "", false, "a form cairn does not edit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := MergeTOML([]byte(tc.in), table)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if changed != tc.changed {
				t.Errorf("changed = %v", changed)
			}
			if !changed {
				tc.out = tc.in
			}
			if string(out) != tc.out {
				t.Errorf("got\n%s\nwant\n%s", out, tc.out)
			}
		})
	}
}

func TestTOMLSyntaxError(t *testing.T) {
	_, _, err := MergeTOML([]byte("a = 1\nb = [1,\n  2\nc = 3\n"), TOMLTable{Path: []string{"x"}})
	se, ok := err.(*SyntaxError)
	if !ok || se.Line != 4 {
		t.Fatalf("err = %#v", err)
	}
}

func TestTagAgent(t *testing.T) {
	for _, tc := range []struct{ agent, in, out string }{
		{"codex", `{"session_id":"s"}`, `{"cairn_agent":"codex","session_id":"s"}`},
		{"codex", " \n{ \n \"a\":1}", " \n{\"cairn_agent\":\"codex\",\"a\":1}"},
		{"gemini", `{}`, `{"cairn_agent":"gemini"}`},
		{"codex", `{ }`, `{"cairn_agent":"codex"}`},
		{"codex", `[1]`, `[1]`},
		{"codex", ``, ``},
		{"claude-code", `{"a":1}`, `{"a":1}`},
		{"", `{"a":1}`, `{"a":1}`},
	} {
		var b strings.Builder
		if _, err := io.Copy(&b, TagAgent(strings.NewReader(tc.in), tc.agent)); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.out {
			t.Errorf("TagAgent(%q, %s) = %q, want %q", tc.in, tc.agent, b.String(), tc.out)
		}
	}
}
