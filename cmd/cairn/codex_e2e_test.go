package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/hooks"
)

// codexSession plays the Codex CLI for the end-to-end tests: it runs the
// hook commands of the hooks.json cairn wired exactly as Codex does (sh -c
// COMMAND in the session's folder, the payload on stdin, hooks of one
// event side by side), while the session's rollout grows under
// $CODEX_HOME/sessions.
type codexSession struct {
	t                  *testing.T
	proj, home, id     string
	rollout, hooksFile string
	lines              []string
	clock              time.Time
	turn               int
}

func newCodexSession(t *testing.T, proj, codexHome, hooksFile, id string) *codexSession {
	t.Helper()
	t0 := time.Date(2026, 12, 2, 9, 30, 0, 0, time.UTC)
	s := &codexSession{t: t, proj: proj, home: codexHome, id: id, hooksFile: hooksFile, clock: t0}
	s.rollout = filepath.Join(codexHome, "sessions", "2026", "12", "02", "rollout-2026-12-02T09-30-00-"+id+".jsonl")
	s.add("session_meta", map[string]any{"id": id, "timestamp": t0.Format(time.RFC3339Nano), "cwd": proj, "originator": "codex_cli_rs",
		"cli_version": "0.63.0", "instructions": nil, "source": "cli", "model_provider": "openai",
		"git": map[string]any{"commit_hash": "4f1c2e0a9b8d7c6e5f4a3b2c1d0e9f8a7b6c5d4e", "branch": "main", "repository_url": "git@github.com:example/queue.git"}})
	s.item(map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text",
		"text": "<environment_context>\n  <cwd>" + proj + "</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <shell>bash</shell>\n</environment_context>"}}})
	return s
}

// add appends one rollout line, {timestamp, type, payload}.
func (s *codexSession) add(typ string, payload any) {
	s.clock = s.clock.Add(700 * time.Millisecond)
	b, err := json.Marshal(map[string]any{"timestamp": s.clock.Format("2006-01-02T15:04:05.000Z"), "type": typ, "payload": payload})
	if err != nil {
		s.t.Fatal(err)
	}
	s.lines = append(s.lines, string(b))
}

func (s *codexSession) item(payload any) { s.add("response_item", payload) }

func (s *codexSession) prompt(text string) {
	s.turn++
	s.add("turn_context", map[string]any{"cwd": s.proj, "approval_policy": "on-request",
		"sandbox_policy": map[string]any{"type": "workspace-write", "network_access": false}, "model": "gpt-5-codex", "effort": "medium", "summary": "auto"})
	s.item(map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": text}}})
	s.add("event_msg", map[string]any{"type": "user_message", "message": text, "images": []any{}})
}

// shell records a shell_command call and its output as Codex writes them.
func (s *codexSession) shell(command, output string, exit int) string {
	id := fmt.Sprintf("call_%d%s", len(s.lines), strings.Repeat("x", 8))
	s.item(map[string]any{"type": "reasoning", "summary": []any{map[string]any{"type": "summary_text", "text": "**Running the tests**"}},
		"content": nil, "encrypted_content": "gAAAAABpLm9vZ2xlLW5vdC1yZWFsLWVuY3J5cHRlZC1jb250ZW50"})
	args, _ := json.Marshal(map[string]any{"command": command, "workdir": s.proj, "timeout_ms": 120000})
	s.item(map[string]any{"type": "function_call", "name": "shell_command", "arguments": string(args), "call_id": id})
	s.item(map[string]any{"type": "function_call_output", "call_id": id,
		"output": fmt.Sprintf("Exit code: %d\nWall time: 1.2 seconds\nOutput:\n%s\n", exit, output)})
	return id
}

func (s *codexSession) say(text string) {
	s.item(map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": text}}})
	s.add("event_msg", map[string]any{"type": "agent_message", "message": text})
	s.add("event_msg", map[string]any{"type": "token_count", "info": map[string]any{"total_token_usage": map[string]any{"input_tokens": 9120, "output_tokens": 412}}})
}

// flush writes the rollout as it stands.
func (s *codexSession) flush() {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(s.rollout), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(s.rollout, []byte(strings.Join(s.lines, "\n")+"\n"), 0o600); err != nil {
		s.t.Fatal(err)
	}
}

// fire runs cairn's hooks registered for event in hooks.json with the
// payload Codex sends (its common fields added) and returns what the
// last one printed. The user's own hooks in the file are theirs (scripts
// this test does not have) and are not run.
func (s *codexSession) fire(event string, fields map[string]any) string {
	s.t.Helper()
	data, err := os.ReadFile(s.hooksFile)
	if err != nil {
		s.t.Fatal(err)
	}
	var file struct {
		Hooks map[string][]hooks.Group `json:"hooks"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		s.t.Fatal(err)
	}
	payload := map[string]any{"session_id": s.id, "transcript_path": s.rollout, "cwd": s.proj, "hook_event_name": event,
		"model": "gpt-5-codex", "permission_mode": "default"}
	if event != "SessionStart" {
		payload["turn_id"] = fmt.Sprintf("%d", s.turn)
	}
	for k, v := range fields {
		payload[k] = v
	}
	in, _ := json.Marshal(payload)
	var last string
	ran := 0
	for _, g := range file.Hooks[event] {
		for _, h := range g.Hooks {
			if !hooks.IsCairn(h.Command) {
				continue
			}
			cmd := exec.Command("sh", "-c", h.Command)
			cmd.Dir = s.proj
			cmd.Env = append(os.Environ(), "CODEX_HOME="+s.home, "CAIRN_DIR=")
			cmd.Stdin = bytes.NewReader(in)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			if err := cmd.Run(); err != nil {
				s.t.Fatalf("%s hook %q: %v\n%s", event, h.Command, err, errb.String())
			}
			if o := strings.TrimSpace(out.String()); o != "" && !json.Valid([]byte(o)) {
				s.t.Fatalf("%s hook %q printed what is not JSON: %q", event, h.Command, o)
			}
			last = out.String()
			ran++
		}
	}
	if ran == 0 {
		s.t.Fatalf("no cairn hook registered for %s", event)
	}
	return last
}

// codexCmd runs the cairn binary in dir with $CODEX_HOME set.
func codexCmd(t *testing.T, dir, codexHome string, args ...string) (string, error) {
	t.Helper()
	cmd := cairnProc(dir, "", args...)
	cmd.Env = append(os.Environ(), "CODEX_HOME="+codexHome)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// codexConfig writes a user's existing Codex configuration: config.toml
// with comments, settings and other MCP servers, and the project's
// hooks.json with hooks of its own.
func codexConfig(t *testing.T, proj, codexHome string) (config, hooksFile string, configBefore, hooksBefore []byte) {
	t.Helper()
	config, hooksFile = filepath.Join(codexHome, "config.toml"), filepath.Join(proj, ".codex", "hooks.json")
	for from, to := range map[string]string{"config.toml": config, "hooks.json": hooksFile} {
		data, err := os.ReadFile(filepath.Join("..", "..", "hooks", "testdata", "codex", from))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(to), 0o755)
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	configBefore, _ = os.ReadFile(config)
	hooksBefore, _ = os.ReadFile(hooksFile)
	return config, hooksFile, configBefore, hooksBefore
}

// A Codex session, wired by cairn init --codex into a configuration the
// user already had and played through the installed hooks with no
// daemon, becomes memory; the next session starts with it. Installing
// twice changes nothing, and --remove gives the user's files back.
func TestCodexSession(t *testing.T) {
	t.Parallel()
	p := project(t)
	codexHome := filepath.Join(t.TempDir(), "codex-home")
	config, hooksFile, configBefore, hooksBefore := codexConfig(t, p, codexHome)

	out, err := codexCmd(t, p, codexHome, "init", "--codex")
	if err != nil {
		t.Fatalf("init --codex: %v\n%s", err, out)
	}
	noAutostart(t, p) // the hooks' own path is under test, as in TestClaudeCodeSession
	for _, want := range []string{"Codex hooks are in .codex/hooks.json (the file as it was is in .codex/hooks.json.cairn-backup)",
		"the cairn MCP server is registered in " + config, "/hooks"} {
		if !strings.Contains(out, want) {
			t.Errorf("init --codex said\n%s\nwithout %q", out, want)
		}
	}
	configAfter, _ := os.ReadFile(config)
	hooksAfter, _ := os.ReadFile(hooksFile)
	if !bytes.HasPrefix(configAfter, configBefore) || !bytes.Contains(configAfter, []byte("\n[mcp_servers.cairn]\n")) ||
		!bytes.Contains(configAfter, []byte("args = [\"mcp\"]\n")) {
		t.Errorf("config.toml:\n%s", configAfter)
	}
	if st := gitc(t, p, "status", "--porcelain"); strings.Contains(st, "cairn-backup") {
		t.Errorf("a backup shows in the project's git status:\n%s", st)
	}
	checkGit(t, p)

	const id = "019ad6e1-5c2b-7e30-9a41-c0de0e2e0001"
	s := newCodexSession(t, p, codexHome, hooksFile, id)
	s.flush()
	if _, msg := sessionStartOutput(t, s.fire("SessionStart", map[string]any{"source": "startup"})); !strings.Contains(msg, "not running") {
		t.Errorf("first session start: message %q", msg)
	}

	prompt := "Why does TestQueueDrain fail on CI but pass locally?"
	s.prompt(prompt)
	s.flush()
	s.fire("UserPromptSubmit", map[string]any{"prompt": prompt})
	fail := "--- FAIL: TestQueueDrain (5.00s)\n    drain_test.go:31: queue not drained after 10ms\nFAIL"
	call := s.shell("go test ./queue/", fail, 1)
	s.flush()
	s.fire("PostToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": call, "tool_input": map[string]any{"command": "go test ./queue/"},
		"tool_response": "Exit code: 1\n" + fail})
	call = s.shell("go test -count=3 ./queue/", "ok  \texample.com/queue\t0.31s", 0)
	s.flush()
	s.fire("PostToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": call, "tool_input": map[string]any{"command": "go test -count=3 ./queue/"},
		"tool_response": "ok  \texample.com/queue\t0.31s"})
	answer := "Fixed. We decided to wait on q.Done() with a 5s deadline instead of a fixed 10ms sleep, because the CI runners are slower than laptops."
	s.say(answer)
	s.add("event_msg", map[string]any{"type": "task_complete", "last_agent_message": answer})
	s.flush()
	s.fire("Stop", map[string]any{"stop_hook_active": false, "last_assistant_message": answer})

	// Capture only dropped the payloads, tagged as Codex's.
	if n := settle(t, p); n != 4 {
		t.Fatalf("%d payloads in the inbox, want 4", n)
	}
	mem := filepath.Join(p, ".cairn")
	names, _ := filepath.Glob(filepath.Join(mem, "inbox", "hook-*.json"))
	for _, n := range names {
		if data, _ := os.ReadFile(n); !bytes.HasPrefix(data, []byte(`{"cairn_agent":"codex",`)) {
			t.Errorf("%s: %.80s", n, data)
		}
	}

	// Another project's Codex session, quiet for a while, lies in the same
	// tree: the start that ends the sessions nobody ended leaves it alone.
	other := newCodexSession(t, filepath.Join(filepath.Dir(p), "other"), codexHome, hooksFile, "019ad6e1-5c2b-7e30-9a41-c0de0e2e00ff")
	other.prompt("Deploy the other thing")
	other.flush()
	past := time.Now().Add(-2 * time.Second) // quiet, but changed since the first start looked
	os.Chtimes(other.rollout, past, past)

	// The next session starts: the backlog is processed (the first job
	// reads the whole rollout; the later ones find nothing new), and the
	// pack shows what the first session learned.
	s2 := newCodexSession(t, p, codexHome, hooksFile, "019ad6e1-5c2b-7e30-9a41-c0de0e2e0002")
	s2.flush()
	ctxText, _ := sessionStartOutput(t, s2.fire("SessionStart", map[string]any{"source": "startup"}))
	checkGit(t, p)
	files := headFiles(t, p)
	dir := "sessions/" + id + "/"
	for _, f := range []string{"session.yaml", "prompts.md", "transcript.md", "summary.md"} {
		if !files[dir+f] {
			t.Errorf("%s%s not committed", dir, f)
		}
	}
	show := func(f string) string { return gitc(t, mem, "show", "HEAD:"+dir+f) }
	if y := show("session.yaml"); !strings.Contains(y, "agent: codex") || !strings.Contains(y, "prompts: 1") || !strings.Contains(y, "format: codex") {
		t.Errorf("session.yaml:\n%s", y)
	}
	tr := show("transcript.md")
	for _, want := range []string{prompt, "queue not drained after 10ms", "go test -count=3 ./queue/", answer} {
		if !strings.Contains(tr, want) {
			t.Errorf("transcript.md lacks %q:\n%s", want, tr)
		}
	}
	if strings.Contains(tr, "environment_context") || strings.Count(tr, answer) != 1 || strings.Count(tr, prompt) != 1 {
		t.Errorf("transcript.md holds Codex's context or a repeat:\n%s", tr)
	}
	if sum := show("summary.md"); !strings.Contains(sum, "TestQueueDrain") {
		t.Errorf("summary.md:\n%s", sum)
	}
	core := ""
	for f := range files {
		if strings.HasPrefix(f, "core/") {
			core += gitc(t, mem, "show", "HEAD:"+f)
		}
	}
	if !strings.Contains(core, "q.Done()") {
		t.Errorf("no core item holds the decision; core:\n%s", core)
	}
	log := gitc(t, mem, "log", "--format=%s%n%b", "--", dir)
	for _, want := range []string{"Cairn-Session: " + id, "Cairn-Event: session-start", "(7 events, 1 prompt)"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if files["sessions/"+other.id+"/session.yaml"] {
		t.Error("another project's rollout was captured")
	}
	if !strings.Contains(ctxText, "q.Done()") {
		t.Errorf("the second session's context does not carry the first's:\n%s", ctxText)
	}

	// Twice: nothing changes.
	out, err = codexCmd(t, p, codexHome, "init", "--codex")
	if err != nil || strings.Count(out, "nothing changed") != 3 {
		t.Errorf("init --codex again: %v\n%s", err, out)
	}
	if c, _ := os.ReadFile(config); !bytes.Equal(c, configAfter) {
		t.Errorf("config.toml changed:\n%s", c)
	}
	if h, _ := os.ReadFile(hooksFile); !bytes.Equal(h, hooksAfter) {
		t.Errorf("hooks.json changed:\n%s", h)
	}

	// --remove: the user's files come back byte for byte.
	if out, err := codexCmd(t, p, codexHome, "init", "--codex", "--remove"); err != nil {
		t.Fatalf("init --codex --remove: %v\n%s", err, out)
	}
	if c, _ := os.ReadFile(config); !bytes.Equal(c, configBefore) {
		t.Errorf("config.toml after --remove:\n%s", c)
	}
	if h, _ := os.ReadFile(hooksFile); !bytes.Equal(h, hooksBefore) {
		t.Errorf("hooks.json after --remove:\n%s", h)
	}
}

// A malformed config.toml or hooks.json is refused with file:line:col and
// left as it was; nothing else is half done.
func TestCodexInitBadFiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, file, data, where string }{
		{"toml", "config.toml", "model = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs-mcp\"\n", "config.toml:5:"},
		{"json", "hooks.json", "{\n  \"hooks\": {\n    \"Stop\": [\n      {\"hooks\": [{\"type\": \"command\", \"command\": \"x\"}]},\n    ]\n  }\n}\n", "hooks.json:5:5: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := project(t)
			codexHome := filepath.Join(t.TempDir(), "codex-home")
			name := filepath.Join(codexHome, tc.file)
			if tc.file == "hooks.json" {
				name = filepath.Join(p, ".codex", tc.file)
			}
			os.MkdirAll(filepath.Dir(name), 0o755)
			os.WriteFile(name, []byte(tc.data), 0o644)
			out, err := codexCmd(t, p, codexHome, "init", "--codex")
			if err == nil || !strings.Contains(out, name[len(filepath.Dir(name))+1:]) || !strings.Contains(out, tc.where) {
				t.Fatalf("init --codex: %v\n%s", err, out)
			}
			if got, _ := os.ReadFile(name); string(got) != tc.data {
				t.Errorf("the file changed:\n%s", got)
			}
			if _, err := os.Stat(name + hooks.BackupSuffix); err == nil {
				t.Error("a backup of an unchanged file")
			}
		})
	}
}

// With the queue worked after every hook, as a running daemon does, each
// Codex event is read from the rollout as it grows; a Stop that comes
// before the last answer is in the rollout loses nothing, and the next
// start ends the session with it.
func TestCodexSessionLive(t *testing.T) {
	t.Parallel()
	p := project(t)
	codexHome := filepath.Join(t.TempDir(), "codex-home")
	if out, err := codexCmd(t, p, codexHome, "init", "--codex"); err != nil {
		t.Fatalf("init --codex: %v\n%s", err, out)
	}
	noAutostart(t, p)
	hooksFile := filepath.Join(p, ".codex", "hooks.json")
	const id = "019ad6e1-5c2b-7e30-9a41-c0de0e2e1001"
	s := newCodexSession(t, p, codexHome, hooksFile, id)
	work := func() {
		t.Helper()
		settle(t, p)
		if out, err := codexCmd(t, p, codexHome, "queue", "run"); err != nil {
			t.Fatalf("queue run: %v\n%s", err, out)
		}
	}
	s.flush()
	s.fire("SessionStart", map[string]any{"source": "startup"})
	work()
	prompt := "Make the build reproducible"
	s.prompt(prompt)
	s.flush()
	s.fire("UserPromptSubmit", map[string]any{"prompt": prompt})
	work()
	call := s.shell("make release", "make: *** [release] Error 2", 2)
	s.flush()
	s.fire("PostToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": call, "tool_input": map[string]any{"command": "make release"},
		"tool_response": "make: *** [release] Error 2"})
	work()
	// Stop comes before the answer reaches the rollout.
	answer := "We decided to pin the Go toolchain in go.mod so that every build uses go1.26."
	s.fire("Stop", map[string]any{"stop_hook_active": false, "last_assistant_message": answer})
	work()
	s.say(answer)
	s.flush()
	past := time.Now().Add(-2 * time.Second)
	os.Chtimes(s.rollout, past, past)

	s2 := newCodexSession(t, p, codexHome, hooksFile, "019ad6e1-5c2b-7e30-9a41-c0de0e2e1002")
	s2.flush()
	ctxText, _ := sessionStartOutput(t, s2.fire("SessionStart", map[string]any{"source": "startup"}))

	mem := filepath.Join(p, ".cairn")
	dir := "sessions/" + id + "/"
	log := gitc(t, mem, "log", "--format=%b", "--", dir)
	// The tool's call and result are whole in the rollout at PostToolUse;
	// the Stop finds nothing new; the next start takes the answer.
	for _, want := range []string{"Cairn-Event: session-start", "Cairn-Event: prompt", "Cairn-Event: tool\n", "Cairn-Event: catch-up"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	tr := gitc(t, mem, "show", "HEAD:"+dir+"transcript.md")
	if strings.Count(tr, answer) != 1 || !strings.Contains(tr, "make: *** [release] Error 2") {
		t.Errorf("transcript.md:\n%s", tr)
	}
	if y := gitc(t, mem, "show", "HEAD:"+dir+"session.yaml"); !strings.Contains(y, "status: suspended") || !strings.Contains(y, "agent: codex") {
		t.Errorf("session.yaml:\n%s", y)
	}
	if !strings.Contains(ctxText, "go1.26") {
		t.Errorf("the next session's context lacks the decision:\n%s", ctxText)
	}
	checkGit(t, p)
}

// Claude Code and Codex on one project at once share one memory: each
// session records its agent, and the next start of either packs what
// both learned.
func TestClaudeAndCodexOneMemory(t *testing.T) {
	t.Parallel()
	p := project(t)
	codexHome := filepath.Join(t.TempDir(), "codex-home")
	if out, err := codexCmd(t, p, codexHome, "init", "--claude", "--codex"); err != nil {
		t.Fatalf("init --claude --codex: %v\n%s", err, out)
	}
	const cid, xid = "5e1d2c3b-0000-4000-8000-00000000c1a1", "019ad6e1-5c2b-7e30-9a41-c0de0e2e2001"
	c := newClaudeSession(t, p, cid)
	x := newCodexSession(t, p, codexHome, filepath.Join(p, ".codex", "hooks.json"), xid)
	x.flush()
	c.fire("SessionStart", "", map[string]any{"source": "startup"})
	x.fire("SessionStart", map[string]any{"source": "startup"})

	cp, xp := "How should the API version its routes?", "Which database does the job queue use?"
	c.w.prompt(cp)
	c.flush()
	c.fire("UserPromptSubmit", "", map[string]any{"prompt": cp})
	x.prompt(xp)
	x.flush()
	x.fire("UserPromptSubmit", map[string]any{"prompt": xp})
	ca := "We decided to version the API in the path (/v2/...) because the gateway routes on it."
	xa := "We decided to keep the job queue on PostgreSQL with SKIP LOCKED because it already runs there."
	c.w.say(ca)
	c.flush()
	c.fire("Stop", "", map[string]any{"last_assistant_message": ca})
	x.say(xa)
	x.flush()
	x.fire("Stop", map[string]any{"stop_hook_active": false, "last_assistant_message": xa})
	c.fire("SessionEnd", "", map[string]any{"reason": "prompt_input_exit"})
	settle(t, p)

	x2 := newCodexSession(t, p, codexHome, filepath.Join(p, ".codex", "hooks.json"), "019ad6e1-5c2b-7e30-9a41-c0de0e2e2002")
	x2.flush()
	ctxText, _ := sessionStartOutput(t, x2.fire("SessionStart", map[string]any{"source": "startup"}))
	mem := filepath.Join(p, ".cairn")
	for id, agent := range map[string]string{cid: "agent: claude-code", xid: "agent: codex"} {
		if y := gitc(t, mem, "show", "HEAD:sessions/"+id+"/session.yaml"); !strings.Contains(y, agent) {
			t.Errorf("session %s:\n%s", id, y)
		}
	}
	for _, want := range []string{"/v2/", "SKIP LOCKED"} {
		if !strings.Contains(ctxText, want) {
			t.Errorf("the next start's context lacks %q:\n%s", want, ctxText)
		}
	}
	checkGitQuiet(t, p)
}

// cairn hook --agent NAME tags what it captures; an unknown name is
// warned about and taken as Claude Code's, and the hook still exits 0.
// (Gemini CLI's and Cursor's payloads have shapes of their own:
// agents_e2e_test.go.)
// TestHookNotJSON: a capture hook's payload that is not JSON is kept in
// the inbox (the queue moves it to its failed jobs with the reason), and
// the hook says so on stderr, exiting 0.
func TestHookNotJSON(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	r := cairn(t, p, `{"session_id":"s1","hook_event_name":"Stop"`, "hook", "stop")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "hook stop: the payload (") || !strings.Contains(r.stderr, "bytes) is not JSON") {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if got, _ := filepath.Glob(filepath.Join(p, ".cairn", "inbox", "hook-*.json")); len(got) != 1 {
		t.Errorf("inbox: %v, want the payload kept", got)
	}
}

func TestHookAgentFlag(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	payload := `{"session_id":"s1","hook_event_name":"Stop","last_assistant_message":"done"}`
	inbox := filepath.Join(p, ".cairn", "inbox")
	for _, tc := range []struct {
		args       []string
		head, warn string
	}{
		{[]string{"hook", "--agent", "codex", "stop"}, `{"cairn_agent":"codex","session_id"`, ""},
		{[]string{"hook", "--agent=codex", "stop"}, `{"cairn_agent":"codex","session_id"`, ""},
		{[]string{"hook", "--agent", "vim", "stop"}, `{"session_id"`, `unknown agent "vim"`},
		{[]string{"hook", "stop"}, `{"session_id"`, ""},
		// Any other event is captured as given, in silence: the
		// plugin's and Codex's hooks say "capture".
		{[]string{"hook", "bogus-event"}, `{"session_id"`, ""},
		{[]string{"hook", "capture"}, `{"session_id"`, ""},
		{[]string{"hook", "Stop"}, `{"session_id"`, ""},
		{[]string{"hook", "post-tool-use"}, `{"session_id"`, ""},
	} {
		before, _ := filepath.Glob(filepath.Join(inbox, "hook-*.json"))
		r := cairn(t, p, payload, tc.args...)
		if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, tc.warn) || tc.warn == "" && r.stderr != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, r.code, r.stdout, r.stderr)
		}
		after, _ := filepath.Glob(filepath.Join(inbox, "hook-*.json"))
		if len(after) != len(before)+1 {
			t.Fatalf("%v: %d payloads in the inbox, want %d", tc.args, len(after), len(before)+1)
		}
		for _, n := range after {
			if !slices.Contains(before, n) {
				if data, _ := os.ReadFile(n); !strings.HasPrefix(string(data), tc.head) {
					t.Errorf("%v: payload %s", tc.args, data)
				}
			}
		}
	}
}
