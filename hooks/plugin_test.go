package hooks

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/model"
)

// The Claude Code plugin (docs: code.claude.com/docs/en/plugins/
// marketplace-reference and manifest-reference): the repository is a
// marketplace, .claude-plugin/marketplace.json, listing one plugin in
// plugin/, whose manifest, hooks and MCP server are checked here.

var updatePlugin = flag.Bool("update-plugin", false, "rewrite plugin/hooks/hooks.json from the Plan")

const (
	marketplaceFile = "../.claude-plugin/marketplace.json"
	pluginDir       = "../plugin"
	pluginScript    = `sh "${CLAUDE_PLUGIN_ROOT}/scripts/cairn.sh"`
	installLine     = "go install github.com/cairn-mem/cairn/cmd/cairn@latest"
)

// pluginPlan is what the plugin registers: the hooks of cairn init
// --claude, each through the plugin's script. The prompt hook is always
// there (a plugin cannot follow cairn.yaml); it answers nothing unless
// hooks.prompt_context is on.
func pluginPlan() Plan {
	return Plan{
		Capture:       pluginScript + " hook capture",
		SessionStart:  pluginScript + " hook session-start",
		PromptContext: pluginScript + " hook user-prompt-submit",
	}
}

// kebab is the documented form of marketplace and plugin names.
var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// reserved are marketplace names only Anthropic's may use.
var reserved = []string{"claude-code-marketplace", "claude-code-plugins", "claude-plugins-official", "anthropic-marketplace",
	"anthropic-plugins", "agent-skills", "anthropic-agent-skills", "life-sciences", "knowledge-work-plugins"}

// jsonDoc reads a JSON object, refusing unknown shapes: duplicate-free,
// one value.
func jsonDoc(t *testing.T, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if d.More() {
		t.Fatalf("%s: more than one JSON value", name)
	}
	return v
}

// field checks that obj[key] has the type of want (string, object, list,
// number, bool) when present, and is present when required.
func field(t *testing.T, where string, obj map[string]any, key, want string, required bool) any {
	t.Helper()
	v, ok := obj[key]
	if !ok {
		if required {
			t.Errorf("%s: %q is required", where, key)
		}
		return nil
	}
	got := "?"
	switch v.(type) {
	case string:
		got = "string"
	case map[string]any:
		got = "object"
	case []any:
		got = "list"
	case float64:
		got = "number"
	case bool:
		got = "bool"
	}
	if got != want {
		t.Errorf("%s: %q is a %s, want a %s", where, key, got, want)
		return nil
	}
	return v
}

// known reports the keys of obj that the schema does not name: Claude
// Code ignores them, so a typo would load silently.
func known(t *testing.T, where string, obj map[string]any, keys ...string) {
	t.Helper()
	for k := range obj {
		if !slices.Contains(keys, k) {
			t.Errorf("%s: unknown key %q", where, k)
		}
	}
}

func TestPluginManifests(t *testing.T) {
	m := jsonDoc(t, marketplaceFile)
	known(t, "marketplace.json", m, "$schema", "name", "owner", "metadata", "plugins", "description", "version")
	if name, _ := field(t, "marketplace.json", m, "name", "string", true).(string); !kebab.MatchString(name) || slices.Contains(reserved, name) {
		t.Errorf("marketplace.json: name %q is not a kebab-case name of its own", name)
	}
	if owner, ok := field(t, "marketplace.json", m, "owner", "object", true).(map[string]any); ok {
		known(t, "marketplace.json owner", owner, "name", "email")
		field(t, "marketplace.json owner", owner, "name", "string", true)
		field(t, "marketplace.json owner", owner, "email", "string", false)
	}
	if meta, ok := field(t, "marketplace.json", m, "metadata", "object", false).(map[string]any); ok {
		known(t, "marketplace.json metadata", meta, "description", "version", "pluginRoot")
		field(t, "marketplace.json metadata", meta, "description", "string", false)
	}
	plugins, _ := field(t, "marketplace.json", m, "plugins", "list", true).([]any)
	if len(plugins) != 1 {
		t.Fatalf("marketplace.json: %d plugins, want cairn alone", len(plugins))
	}
	entry, ok := plugins[0].(map[string]any)
	if !ok {
		t.Fatalf("marketplace.json: plugins[0] is not an object")
	}
	const where = "marketplace.json plugins[0]"
	known(t, where, entry, "name", "source", "description", "version", "author", "homepage", "repository", "license", "keywords", "category", "tags", "strict")
	for _, k := range []string{"description", "homepage", "repository", "category"} {
		field(t, where, entry, k, "string", false)
	}
	field(t, where, entry, "keywords", "list", false)
	name, _ := field(t, where, entry, "name", "string", true).(string)
	if name != "cairn" {
		t.Errorf("%s: name %q, want cairn", where, name)
	}
	// A relative source starts with ./, stays inside the marketplace and
	// is resolved from the folder holding .claude-plugin/.
	source, _ := field(t, where, entry, "source", "string", true).(string)
	if !strings.HasPrefix(source, "./") || !filepath.IsLocal(filepath.Clean(source)) {
		t.Errorf("%s: source %q is not ./ and inside the repository", where, source)
	}
	if filepath.Join("..", source) != filepath.Clean(pluginDir) {
		t.Errorf("%s: source %q, want the plugin in %s", where, source, pluginDir)
	}

	p := jsonDoc(t, filepath.Join(pluginDir, ".claude-plugin", "plugin.json"))
	const pw = "plugin.json"
	known(t, pw, p, "$schema", "name", "version", "description", "author", "homepage", "repository", "license", "keywords",
		"commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers", "userConfig")
	// name is the only field the manifest requires.
	if n, _ := field(t, pw, p, "name", "string", true).(string); n != name || !kebab.MatchString(n) {
		t.Errorf("%s: name %q, want the marketplace entry's, %q", pw, n, name)
	}
	for _, k := range []string{"description", "homepage", "repository"} {
		field(t, pw, p, k, "string", false)
	}
	if a, ok := field(t, pw, p, "author", "object", false).(map[string]any); ok {
		known(t, pw+" author", a, "name", "email", "url")
		field(t, pw+" author", a, "name", "string", true)
	}
	if kw, ok := field(t, pw, p, "keywords", "list", false).([]any); ok {
		for i, k := range kw {
			if _, ok := k.(string); !ok {
				t.Errorf("%s: keywords[%d] is not a string", pw, i)
			}
		}
	}
	// hooks/hooks.json is read from its standard place: naming it again
	// in the manifest loads it twice.
	if _, ok := p["hooks"]; ok {
		t.Errorf("%s: hooks names the standard hooks/hooks.json", pw)
	}
	// The MCP server is in the plugin's .mcp.json, where Claude Code
	// looks by default (claude plugin details lists it from there).
	if _, ok := p["mcpServers"]; ok {
		t.Errorf("%s: mcpServers: cairn's server is in .mcp.json", pw)
	}
	mcp := jsonDoc(t, filepath.Join(pluginDir, ".mcp.json"))
	known(t, ".mcp.json", mcp, "mcpServers")
	servers, _ := field(t, ".mcp.json", mcp, "mcpServers", "object", true).(map[string]any)
	s, ok := servers[MCPName].(map[string]any)
	if !ok || len(servers) != 1 {
		t.Fatalf(".mcp.json: mcpServers %v, want %s alone", servers, MCPName)
	}
	sw := ".mcp.json mcpServers." + MCPName
	known(t, sw, s, "type", "command", "args", "env")
	if ty, _ := field(t, sw, s, "type", "string", false).(string); ty != "" && ty != "stdio" {
		t.Errorf("%s: type %q, want stdio", sw, ty)
	}
	cmd, _ := field(t, sw, s, "command", "string", true).(string)
	args, _ := field(t, sw, s, "args", "list", true).([]any)
	line := cmd
	for _, a := range args {
		str, ok := a.(string)
		if !ok {
			t.Errorf("%s: args holds %v, not a string", sw, a)
		}
		line += " " + str
	}
	if line != `sh ${CLAUDE_PLUGIN_ROOT}/scripts/cairn.sh mcp` {
		t.Errorf("%s: runs %q, want cairn mcp through the plugin's script", sw, line)
	}
}

// TestPluginHooksJSON checks plugin/hooks/hooks.json against the schema
// of a hooks file and against the Plan: the same events, matchers,
// timeouts and async flags as cairn init --claude registers.
func TestPluginHooksJSON(t *testing.T) {
	name := filepath.Join(pluginDir, "hooks", "hooks.json")
	// What init --claude would merge into a settings file.
	want, _, err := Merge([]byte(`{"description": "cairn: capture every session into the project's memory, and start each with what it holds"}`), pluginPlan())
	if err != nil {
		t.Fatal(err)
	}
	if *updatePlugin {
		if err := os.WriteFile(name, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not the Plan's hooks (go test ./hooks -run TestPluginHooksJSON -update-plugin)\ngot:\n%s\nwant:\n%s", name, got, want)
	}

	doc := jsonDoc(t, name)
	known(t, "hooks.json", doc, "description", "hooks")
	field(t, "hooks.json", doc, "description", "string", false)
	evs, _ := field(t, "hooks.json", doc, "hooks", "object", true).(map[string]any)
	claude := Claude{Self: "cairn", PromptContext: true}.Plan().Groups()
	for ev, v := range evs {
		if _, ok := claude[ev]; !ok {
			t.Errorf("hooks.json: %s is not an event init --claude registers", ev)
		}
		groups, ok := v.([]any)
		if !ok {
			t.Errorf("hooks.json: %s is not a list", ev)
			continue
		}
		for i, g := range groups {
			gw := fmt.Sprintf("hooks.json %s[%d]", ev, i)
			gm, ok := g.(map[string]any)
			if !ok {
				t.Errorf("%s: not an object", gw)
				continue
			}
			known(t, gw, gm, "matcher", "hooks")
			field(t, gw, gm, "matcher", "string", false)
			hs, _ := field(t, gw, gm, "hooks", "list", true).([]any)
			for j, h := range hs {
				hw := fmt.Sprintf("%s.hooks[%d]", gw, j)
				hm, ok := h.(map[string]any)
				if !ok {
					t.Errorf("%s: not an object", hw)
					continue
				}
				known(t, hw, hm, "type", "command", "timeout", "async")
				if ty, _ := field(t, hw, hm, "type", "string", true).(string); ty != "command" {
					t.Errorf("%s: type %q", hw, ty)
				}
				c, _ := field(t, hw, hm, "command", "string", true).(string)
				if !strings.HasPrefix(c, pluginScript+" ") {
					t.Errorf("%s: %q does not run the plugin's script", hw, c)
				}
				if n, ok := field(t, hw, hm, "timeout", "number", false).(float64); ok && (n <= 0 || n > 60) {
					t.Errorf("%s: timeout %v s", hw, n)
				}
				field(t, hw, hm, "async", "bool", false)
			}
		}
	}
	if len(evs) != len(claude) {
		t.Errorf("hooks.json: %d events, init --claude registers %d", len(evs), len(claude))
	}
}

// pluginCommands are the commands the plugin registers, by event, with
// ${CLAUDE_PLUGIN_ROOT} left for the shell (Claude Code also sets it in
// the hook's environment).
func pluginCommands(t *testing.T) map[string][]string {
	t.Helper()
	var doc struct {
		Hooks map[string][]Group `json:"hooks"`
	}
	b, err := os.ReadFile(filepath.Join(pluginDir, "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for ev, gs := range doc.Hooks {
		for _, g := range gs {
			for _, h := range g.Hooks {
				out[ev] = append(out[ev], h.Command)
			}
		}
	}
	return out
}

// buildCairn builds the cairn command into a folder of its own, which a
// test puts on PATH.
func buildCairn(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds cairn")
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "cairn"), "../cmd/cairn").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// hookRun is one run of a plugin command, as Claude Code runs it.
type hookRun struct {
	stdout, stderr string
	err            error
}

func runPlugin(t *testing.T, command, proj string, env []string, stdin string) hookRun {
	t.Helper()
	root, err := filepath.Abs(pluginDir)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = proj
	cmd.Env = append([]string{"CLAUDE_PLUGIN_ROOT=" + root, "CLAUDE_PROJECT_DIR=" + proj}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		err = fmt.Errorf("%q still running after 30 s", command)
	}
	return hookRun{o.String(), e.String(), err}
}

func payload(ev, session, proj string, extra string) string {
	return fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":%q,"hook_event_name":%q%s}`,
		session, filepath.Join(proj, session+".jsonl"), proj, ev, extra)
}

// TestPluginHookCommands runs every command the plugin registers, as
// Claude Code would (sh -c, the payload on stdin, CLAUDE_PLUGIN_ROOT and
// CLAUDE_PROJECT_DIR set), with the real cairn on PATH and without it.
func TestPluginHookCommands(t *testing.T) {
	bin := buildCairn(t)
	cmds := pluginCommands(t)
	home := t.TempDir()
	base := []string{"HOME=" + home, "GOPATH=" + home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Dev", "GIT_AUTHOR_EMAIL=dev@example.com", "GIT_COMMITTER_NAME=Dev", "GIT_COMMITTER_EMAIL=dev@example.com"}
	withCairn := append([]string{"PATH=" + bin + ":/usr/bin:/bin"}, base...)
	without := append([]string{"PATH=/usr/bin:/bin"}, base...)
	for _, dir := range []string{"/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"} {
		if _, err := os.Stat(filepath.Join(dir, "cairn")); err == nil {
			t.Fatalf("%s/cairn exists: the test cannot run without cairn", dir)
		}
	}

	proj := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = proj, append(os.Environ(), base...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	const sid = "5e1d2c3b-0000-4000-8000-00000000a001"

	t.Run("no memory", func(t *testing.T) {
		r := runPlugin(t, cmds[model.HookSessionStart][0], proj, withCairn, payload(model.HookSessionStart, sid, proj, `,"source":"startup"`))
		if r.err != nil || !strings.Contains(r.stdout, "cairn init") || !json.Valid([]byte(r.stdout)) {
			t.Errorf("session start outside a memory: %v, stdout %q", r.err, r.stdout)
		}
	})

	for _, args := range [][]string{{"init"}, {"remember", "--kind", "fact", "--title", "Job queue", "The job queue uses PostgreSQL."}} {
		cmd := exec.Command(filepath.Join(bin, "cairn"), args...)
		cmd.Dir, cmd.Env = proj, append(os.Environ(), base...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("cairn %v: %v\n%s", args, err, out)
		}
	}
	mem := filepath.Join(proj, ".cairn")
	t.Cleanup(func() {
		c := exec.Command(filepath.Join(bin, "cairn"), "-C", proj, "daemon", "stop")
		c.Env = append(os.Environ(), base...)
		c.Run()
	})

	t.Run("with cairn", func(t *testing.T) {
		r := runPlugin(t, cmds[model.HookSessionStart][0], proj, withCairn, payload(model.HookSessionStart, sid, proj, `,"source":"startup"`))
		var out Output
		if r.err != nil || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("session-start: %v, stdout %q, stderr %q", r.err, r.stdout, r.stderr)
		}
		if out.Specific == nil || out.Specific.HookEventName != model.HookSessionStart || !strings.Contains(out.Specific.AdditionalContext, "PostgreSQL") ||
			!strings.Contains(out.SystemMessage, "started the memory sidecar") {
			t.Errorf("session-start printed %q", r.stdout)
		}
		captured := 0
		for _, ev := range model.CaptureEvents() {
			for _, c := range cmds[ev] {
				if strings.HasSuffix(c, "user-prompt-submit") {
					// hooks.prompt_context is off: nothing to add.
					r := runPlugin(t, c, proj, withCairn, payload(ev, sid, proj, `,"prompt":"why does the queue stall?"`))
					if r.err != nil || r.stdout != "" {
						t.Errorf("%s: %v, stdout %q, stderr %q", c, r.err, r.stdout, r.stderr)
					}
					continue
				}
				r := runPlugin(t, c, proj, withCairn, payload(ev, sid, proj, `,"tool_name":"Bash","tool_input":{"command":"go test ./..."}`))
				if r.err != nil || r.stdout != "" || r.stderr != "" {
					t.Errorf("%s %s: %v, stdout %q, stderr %q", ev, c, r.err, r.stdout, r.stderr)
				}
				captured++
			}
		}
		// With CAIRN_DIR set, capture goes through cairn hook capture.
		if r := runPlugin(t, cmds[model.HookStop][0], proj, append([]string{"CAIRN_DIR=" + mem}, withCairn...), payload(model.HookStop, sid, proj, "")); r.err != nil || r.stdout != "" || r.stderr != "" {
			t.Errorf("capture through cairn: %v, stdout %q, stderr %q", r.err, r.stdout, r.stderr)
		}
		captured++

		// The daemon the session start ran takes the payloads from the
		// inbox: the session becomes memory.
		rec := filepath.Join(mem, "sessions", sid, "session.yaml")
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if _, err := os.Stat(rec); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("%d events captured, no %s after 20 s; inbox %v", captured, rec, inbox(t, mem))
				break
			}
		}

		// The MCP server answers an initialize request.
		srv := jsonDoc(t, filepath.Join(pluginDir, ".mcp.json"))["mcpServers"].(map[string]any)[MCPName].(map[string]any)
		line := srv["command"].(string)
		for _, a := range srv["args"].([]any) {
			line += " " + `"` + a.(string) + `"`
		}
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude-code","version":"2.1"}}}` + "\n"
		root, _ := filepath.Abs(pluginDir)
		mcp := exec.Command("sh", "-c", line)
		mcp.Dir, mcp.Env = proj, append([]string{"CLAUDE_PLUGIN_ROOT=" + root}, withCairn...)
		in, _ := mcp.StdinPipe()
		outp, _ := mcp.StdoutPipe()
		if err := mcp.Start(); err != nil {
			t.Fatal(err)
		}
		io.WriteString(in, init)
		answer := make(chan string, 1)
		go func() {
			l, _ := bufio.NewReader(outp).ReadString('\n')
			answer <- l
		}()
		select {
		case l := <-answer:
			if !strings.Contains(l, `"serverInfo"`) {
				t.Errorf("mcp answered %q", l)
			}
		case <-time.After(20 * time.Second):
			t.Error("mcp: no answer to initialize in 20 s")
		}
		in.Close()
		if err := mcp.Wait(); err != nil {
			t.Errorf("mcp: %v", err)
		}
	})

	t.Run("without cairn", func(t *testing.T) {
		for ev, cs := range cmds {
			for _, c := range cs {
				r := runPlugin(t, c, proj, without, payload(ev, sid, proj, `,"source":"startup"`))
				if strings.HasSuffix(c, " hook capture") {
					// The memory's capture script needs no cairn.
					if r.err != nil || r.stdout != "" || r.stderr != "" {
						t.Errorf("%s without cairn, in a memory: %v, stdout %q, stderr %q", c, r.err, r.stdout, r.stderr)
					}
					continue
				}
				if r.err != nil || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, installLine) {
					t.Errorf("%s without cairn: %v, stderr %q", c, r.err, r.stderr)
				}
				var out Output
				if ev == model.HookSessionStart && (json.Unmarshal([]byte(r.stdout), &out) != nil || !strings.Contains(out.SystemMessage, installLine)) {
					t.Errorf("session-start without cairn printed %q", r.stdout)
				}
				if ev != model.HookSessionStart && r.stdout != "" {
					t.Errorf("%s without cairn printed %q", c, r.stdout)
				}
			}
		}
		outside := t.TempDir()
		// Outside a memory, capture has nothing to do, with or without
		// cairn (the session start says how to start one).
		for _, env := range [][]string{without, withCairn} {
			if r := runPlugin(t, cmds[model.HookStop][0], outside, env, payload(model.HookStop, sid, outside, "")); r.err != nil || r.stdout != "" || r.stderr != "" {
				t.Errorf("capture outside a memory: %v, stdout %q, stderr %q", r.err, r.stdout, r.stderr)
			}
		}
		r := runPlugin(t, `sh "${CLAUDE_PLUGIN_ROOT}/scripts/cairn.sh" mcp`, proj, without, "")
		if r.err != nil || !strings.Contains(r.stderr, installLine) {
			t.Errorf("mcp without cairn: %v, stderr %q", r.err, r.stderr)
		}
	})
}

func TestPluginShellcheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed")
	}
	if out, err := exec.Command(sc, "-s", "sh", filepath.Join(pluginDir, "scripts", "cairn.sh")).CombinedOutput(); err != nil {
		t.Errorf("shellcheck: %v\n%s", err, out)
	}
}
