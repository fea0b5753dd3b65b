package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// agentHooks runs the hook commands an agent registered, as the agent
// does: sh -c COMMAND in the project, the payload on stdin, the agent's
// environment. Every hook must exit 0 and print nothing but JSON.
type agentHooks struct {
	t    *testing.T
	proj string // where the commands run
	env  []string
	// commands by event, in the order the agent runs them
	commands map[string][]string
}

// run runs event's commands with payload; it returns what the cairn hook
// among them printed.
func (a *agentHooks) run(event string, payload map[string]any) string {
	a.t.Helper()
	in, _ := json.Marshal(payload)
	var last string
	if len(a.commands[event]) == 0 {
		a.t.Fatalf("no hook registered for %s", event)
	}
	for _, c := range a.commands[event] {
		cmd := exec.Command("sh", "-c", c)
		cmd.Dir = a.proj
		cmd.Env = append(os.Environ(), a.env...)
		cmd.Stdin = bytes.NewReader(in)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			a.t.Fatalf("%s hook %q: %v\n%s", event, c, err, errb.String())
		}
		if o := strings.TrimSpace(out.String()); o != "" && !json.Valid([]byte(o)) {
			a.t.Fatalf("%s hook %q printed what is not JSON: %q", event, c, o)
		}
		if strings.Contains(c, " hook ") {
			last = out.String()
			if errb.Len() > 0 {
				a.t.Logf("%s hook said: %s", event, errb.String())
			}
		}
	}
	return last
}

// initProc runs cairn init as a process of the binary the hooks name.
func initProc(t *testing.T, p string, args ...string) string {
	t.Helper()
	out, err := cairnProc(p, "", append([]string{"init"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("init %v: %v\n%s", args, err, out)
	}
	noAutostart(t, p) // the hooks' own path is under test, as in TestClaudeCodeSession
	return string(out)
}

// geminiHooks reads the commands of a Gemini CLI settings.json.
func geminiHooks(t *testing.T, proj string) *agentHooks {
	t.Helper()
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(proj, ".gemini", "settings.json")), &doc); err != nil {
		t.Fatal(err)
	}
	a := &agentHooks{t: t, proj: proj, commands: map[string][]string{},
		env: []string{"GEMINI_PROJECT_DIR=" + proj, "CLAUDE_PROJECT_DIR=" + proj, "CAIRN_DIR="}}
	for ev, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if strings.Contains(h.Command, " hook --agent gemini ") && h.Timeout < 1000 {
					t.Errorf("%s: timeout %d is not in milliseconds", ev, h.Timeout)
				}
				a.commands[ev] = append(a.commands[ev], h.Command)
			}
		}
	}
	return a
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// geminiChat writes a Gemini CLI chat file as Gemini does: JSON Lines,
// appended to, a message appended again whole each time it grows.
type geminiChat struct {
	t    *testing.T
	path string
}

func (c *geminiChat) add(records ...string) {
	c.t.Helper()
	f, err := os.OpenFile(c.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		c.t.Fatal(err)
	}
	defer f.Close()
	for _, r := range records {
		if !json.Valid([]byte(r)) {
			c.t.Fatalf("not a record: %s", r)
		}
		f.WriteString(r + "\n")
	}
}

// The user's settings.json as Gemini CLI writes it, with hooks and an MCP
// server of their own.
const userGeminiSettings = `{
  "theme": "GitHub",
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "run_shell_command",
        "hooks": [
          {
            "type": "command",
            "command": "./scripts/check-shell.sh",
            "timeout": 5000
          }
        ]
      }
    ],
    "AfterAgent": [
      {
        "hooks": [
          {
            "type": "command",
            "name": "log",
            "command": "cat >> /dev/null"
          }
        ]
      }
    ]
  },
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-github"
      ]
    }
  }
}
`

// A Gemini CLI session, played through the hooks cairn init --gemini
// installed next to the user's, with its chat file growing where Gemini
// keeps it, becomes memory; the next session starts with it.
func TestGeminiSession(t *testing.T) {
	t.Parallel()
	p := project(t)
	settings := filepath.Join(p, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(userGeminiSettings), 0o644)

	out := initProc(t, p, "--gemini")
	if !strings.Contains(out, "Gemini CLI hooks and the cairn MCP server are in .gemini/settings.json") {
		t.Errorf("init --gemini said:\n%s", out)
	}
	installed := readFile(t, settings)
	var doc struct {
		Theme      string                     `json:"theme"`
		Hooks      map[string]json.RawMessage `json:"hooks"`
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(installed, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Theme != "GitHub" || doc.MCPServers["github"].Command != "npx" || strings.Join(doc.MCPServers["cairn"].Args, " ") != "mcp" {
		t.Errorf("settings.json:\n%s", installed)
	}
	for _, ev := range []string{"SessionStart", "BeforeAgent", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd", "BeforeTool"} {
		if doc.Hooks[ev] == nil {
			t.Errorf("no %s hooks:\n%s", ev, installed)
		}
	}
	if !strings.Contains(string(doc.Hooks["AfterAgent"]), "cat >> /dev/null") || !strings.Contains(string(doc.Hooks["BeforeTool"]), "check-shell.sh") {
		t.Errorf("the user's hooks are gone:\n%s", installed)
	}
	if initProc(t, p, "--gemini"); !bytes.Equal(readFile(t, settings), installed) {
		t.Error("a second init --gemini changed settings.json")
	}

	const id = "3f2a9c1e-7b4d-4e2a-9c1e-5d6f7a8b9c0d"
	home, _ := os.UserHomeDir()
	sum := sha256.Sum256([]byte(p))
	chat := &geminiChat{t: t, path: filepath.Join(home, ".gemini", "tmp", hex.EncodeToString(sum[:]), "chats", "session-2026-12-01T23-55-3f2a9c1e.jsonl")}
	os.MkdirAll(filepath.Dir(chat.path), 0o755)
	h := geminiHooks(t, p)
	fire := func(event string, fields map[string]any) string {
		t.Helper()
		payload := map[string]any{"session_id": id, "transcript_path": chat.path, "cwd": p,
			"hook_event_name": event, "timestamp": time.Now().UTC().Format(time.RFC3339Nano)}
		for k, v := range fields {
			payload[k] = v
		}
		return h.run(event, payload)
	}

	chat.add(`{"sessionId":"` + id + `","projectHash":"` + hex.EncodeToString(sum[:]) + `","startTime":"2026-12-01T23:55:02.113Z","lastUpdated":"2026-12-01T23:55:02.113Z","kind":"main"}`)
	ctxText, msg := geminiStart(t, fire("SessionStart", map[string]any{"source": "startup"}))
	if ctxText != "" || !strings.Contains(msg, "cairn daemon start") {
		t.Errorf("first start: context %q, message %q", ctxText, msg)
	}
	prompt := "Why does TestQueueDrain fail on CI but pass locally?"
	fire("BeforeAgent", map[string]any{"prompt": prompt})
	chat.add(`{"id":"u1","timestamp":"2026-12-01T23:55:10.402Z","type":"user","content":[{"text":"`+prompt+`"}]}`,
		`{"$set":{"lastUpdated":"2026-12-01T23:55:10.402Z"}}`)
	testOut := "Command: go test ./queue/\nDirectory: (root)\nOutput: --- FAIL: TestQueueDrain (5.00s)\n    drain_test.go:31: queue not drained after 10ms\nFAIL\nError: (none)\nExit Code: 1"
	call := `{"id":"g1","timestamp":"2026-12-01T23:55:14.977Z","type":"gemini","content":"","toolCalls":[{"id":"run_shell_command-1","name":"run_shell_command","args":{"command":"go test ./queue/"},%s"timestamp":"2026-12-01T23:55:14.977Z","displayName":"Shell"}],"model":"gemini-2.5-pro"}`
	chat.add(strings.Replace(call, "%s", `"status":"executing",`, 1))
	chat.add(strings.Replace(call, "%s", `"result":[{"functionResponse":{"id":"run_shell_command-1","name":"run_shell_command","response":{"output":`+jsonString(testOut)+`}}}],"status":"success",`, 1))
	fire("AfterTool", map[string]any{"tool_name": "run_shell_command", "tool_input": map[string]any{"command": "go test ./queue/"},
		"tool_response": map[string]any{"llmContent": testOut, "returnDisplay": "--- FAIL: TestQueueDrain (5.00s)"}})
	editErr := "Failed to edit, 0 occurrences found for old_string in " + p + "/queue/drain_test.go. No edits made."
	chat.add(`{"id":"g2","timestamp":"2026-12-01T23:55:24.310Z","type":"gemini","content":"","toolCalls":[{"id":"replace-1","name":"replace","args":{"file_path":"` + p + `/queue/drain_test.go","old_string":"time.Sleep(10 * time.Millisecond)","new_string":"<-q.Done()"},"result":[{"functionResponse":{"id":"replace-1","name":"replace","response":{"error":` + jsonString(editErr) + `}}}],"status":"error","timestamp":"2026-12-01T23:55:24.402Z"}],"model":"gemini-2.5-pro"}`)
	fire("AfterTool", map[string]any{"tool_name": "replace", "tool_input": map[string]any{"file_path": p + "/queue/drain_test.go"},
		"tool_response": map[string]any{"llmContent": editErr, "returnDisplay": "Error: Failed to edit", "error": map[string]any{"message": editErr, "type": "edit_no_occurrence_found"}}})
	answer := "Fixed. We decided to wait on q.Done() with a 5s deadline instead of a fixed 10ms sleep, because the CI runners are slower than laptops."
	chat.add(`{"id":"g3","timestamp":"2026-12-01T23:55:31.866Z","type":"gemini","content":`+jsonString(answer)+`,"tokens":{"input":18790,"output":48,"cached":16384,"thoughts":0,"tool":0,"total":18838},"model":"gemini-2.5-pro"}`,
		`{"$set":{"lastUpdated":"2026-12-01T23:55:31.866Z"}}`)
	fire("AfterAgent", map[string]any{"prompt": prompt, "prompt_response": answer, "stop_hook_active": false})
	fire("PreCompress", map[string]any{"trigger": "manual"})
	fire("SessionEnd", map[string]any{"reason": "exit"})

	if n := settle(t, p); n != 6 {
		t.Fatalf("%d payloads in the inbox, want 6", n)
	}
	// The next session starts: the backlog is processed first, and the
	// context carries what the first session learned.
	ctxText, msg = geminiStart(t, h.run("SessionStart", map[string]any{"session_id": "5e1d2c3b-0000-4000-8000-0000000000e2",
		"transcript_path": "", "cwd": p, "hook_event_name": "SessionStart", "timestamp": "2026-12-02T09:00:00Z", "source": "startup"}))
	if !strings.Contains(msg, "7 queued events processed now") {
		t.Errorf("systemMessage %q", msg)
	}
	if !strings.Contains(ctxText, "q.Done()") || !strings.Contains(ctxText, "3f2a9c1e") {
		t.Errorf("the second session's context does not carry the first's:\n%s", ctxText)
	}
	checkGit(t, p)
	mem := filepath.Join(p, ".cairn")
	dir := "sessions/" + id + "/"
	show := func(f string) string { return gitc(t, mem, "show", "HEAD:"+dir+f) }
	if y := show("session.yaml"); !strings.Contains(y, "agent: gemini") || !strings.Contains(y, "status: suspended") || !strings.Contains(y, "prompts: 1") {
		t.Errorf("session.yaml:\n%s", y)
	}
	tr := show("transcript.md")
	for _, want := range []string{prompt, "run_shell_command: go test ./queue/", "queue not drained after 10ms", "0 occurrences found", answer} {
		if !strings.Contains(tr, want) {
			t.Errorf("transcript.md lacks %q:\n%s", want, tr)
		}
	}
	if strings.Count(tr, answer) != 1 || strings.Count(tr, "run_shell_command: go test ./queue/") != 1 {
		t.Errorf("transcript.md repeats what the chat file and the hooks both said:\n%s", tr)
	}
	if sum := show("summary.md"); !strings.Contains(sum, "TestQueueDrain") {
		t.Errorf("summary.md:\n%s", sum)
	}
	checkCore(t, p, "q.Done()")
	log := gitc(t, mem, "log", "--format=%s%n%b", "--", dir)
	for _, want := range []string{"Cairn-Session: " + id, "Cairn-Event: session-end"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}

	// --remove gives the user's file back, byte for byte.
	if out := initProc(t, p, "--gemini", "--remove"); !strings.Contains(out, "removed cairn's hooks and MCP server from .gemini/settings.json") {
		t.Errorf("--remove said:\n%s", out)
	}
	if got := readFile(t, settings); string(got) != userGeminiSettings {
		t.Errorf("settings.json after --remove:\n%s", got)
	}
}

// geminiStart reads what a Gemini SessionStart hook printed.
func geminiStart(t *testing.T, out string) (context, systemMessage string) {
	t.Helper()
	var o struct {
		Specific *struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
		SystemMessage string `json:"systemMessage"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("SessionStart printed %q: %v", out, err)
	}
	if o.Specific != nil {
		if o.Specific.Event != "SessionStart" {
			t.Errorf("hookEventName %q", o.Specific.Event)
		}
		context = o.Specific.Context
	}
	return context, o.SystemMessage
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// checkCore asserts that a core item of the memory holds want.
func checkCore(t *testing.T, proj, want string) {
	t.Helper()
	core := ""
	for f := range headFiles(t, proj) {
		if strings.HasPrefix(f, "core/") {
			core += gitc(t, filepath.Join(proj, ".cairn"), "show", "HEAD:"+f)
		}
	}
	if !strings.Contains(core, want) {
		t.Errorf("no core item holds %q; core:\n%s", want, core)
	}
}

// The user's Cursor files, with hooks and an MCP server of their own.
const (
	userCursorHooks = `{
  "version": 1,
  "hooks": {
    "afterFileEdit": [
      {
        "command": "cat > /dev/null"
      }
    ],
    "beforeShellExecution": [
      {
        "command": "./.cursor/guard.sh"
      }
    ]
  }
}
`
	userCursorMCP = `{
  "mcpServers": {
    "postgres": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-postgres",
        "postgresql://localhost/shop"
      ]
    }
  }
}
`
)

// cursorHooks reads the commands of a Cursor hooks.json.
func cursorHooks(t *testing.T, proj string) *agentHooks {
	t.Helper()
	var doc struct {
		Version int                                   `json:"version"`
		Hooks   map[string][]struct{ Command string } `json:"hooks"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(proj, ".cursor", "hooks.json")), &doc); err != nil || doc.Version != 1 {
		t.Fatalf("hooks.json: version %d, %v", doc.Version, err)
	}
	// Run from elsewhere: the payload's workspace_roots finds the memory.
	a := &agentHooks{t: t, proj: t.TempDir(), commands: map[string][]string{}, env: []string{"CURSOR_VERSION=1.7.46", "CAIRN_DIR="}}
	for ev, list := range doc.Hooks {
		for _, h := range list {
			a.commands[ev] = append(a.commands[ev], h.Command)
		}
	}
	return a
}

// A Cursor conversation, played through the hooks cairn init --cursor
// installed next to the user's, becomes memory; the rules file Cursor
// reads carries what was learned once the next conversation's turn ends.
func TestCursorSession(t *testing.T) {
	t.Parallel()
	p := project(t)
	hooksFile, mcpFile := filepath.Join(p, ".cursor", "hooks.json"), filepath.Join(p, ".cursor", "mcp.json")
	os.MkdirAll(filepath.Dir(hooksFile), 0o755)
	os.WriteFile(hooksFile, []byte(userCursorHooks), 0o644)
	os.WriteFile(mcpFile, []byte(userCursorMCP), 0o644)
	gitc(t, p, "add", ".cursor")
	gitc(t, p, "commit", "-qm", "cursor settings")

	out := initProc(t, p, "--cursor")
	rules := filepath.Join(p, ".cursor", "rules", "cairn.mdc")
	for _, want := range []string{"Cursor hooks are in .cursor/hooks.json", "the cairn MCP server is registered in .cursor/mcp.json", "into .cursor/rules/cairn.mdc"} {
		if !strings.Contains(out, want) {
			t.Errorf("init --cursor said:\n%s", out)
		}
	}
	r := string(readFile(t, rules))
	if !strings.HasPrefix(r, "---\n") || !strings.Contains(r, "alwaysApply: true") || !strings.Contains(r, "Generated by cairn") {
		t.Errorf("rules file:\n%s", r)
	}
	// The rules file and the backups stay out of the project's git.
	if st := gitc(t, p, "status", "--porcelain"); strings.Contains(st, "rules") || strings.Contains(st, "backup") || !strings.Contains(st, ".cursor/hooks.json") {
		t.Errorf("git status:\n%s", st)
	}
	installed, installedMCP := readFile(t, hooksFile), readFile(t, mcpFile)
	if !strings.Contains(string(installed), "cat > /dev/null") || !strings.Contains(string(installed), "guard.sh") || !strings.Contains(string(installedMCP), "server-postgres") {
		t.Errorf("the user's hooks or servers are gone:\n%s\n%s", installed, installedMCP)
	}
	initProc(t, p, "--cursor")
	if !bytes.Equal(readFile(t, hooksFile), installed) || !bytes.Equal(readFile(t, mcpFile), installedMCP) {
		t.Error("a second init --cursor changed hooks.json or mcp.json")
	}

	h := cursorHooks(t, p)
	const conv = "c0a1b2c3-d4e5-4f60-8172-93a4b5c6d7e8"
	fire := func(conv, event string, fields map[string]any) string {
		t.Helper()
		payload := map[string]any{"conversation_id": conv, "generation_id": "gen-" + event, "hook_event_name": event,
			"workspace_roots": []string{p}, "model": "claude-4.5-sonnet", "cursor_version": "1.7.46", "user_email": "dev@example.com"}
		for k, v := range fields {
			payload[k] = v
		}
		return h.run(event, payload)
	}
	prompt := "Why does TestQueueDrain fail on CI but pass locally?"
	if out := fire(conv, "beforeSubmitPrompt", map[string]any{"prompt": prompt, "attachments": []any{}}); strings.TrimSpace(out) != `{"continue":true}` {
		t.Errorf("beforeSubmitPrompt printed %q", out)
	}
	fire(conv, "afterShellExecution", map[string]any{"command": "go test ./queue/", "cwd": p, "duration": 5120,
		"output": "--- FAIL: TestQueueDrain (5.00s)\n    drain_test.go:31: queue not drained after 10ms\nFAIL"})
	fire(conv, "afterFileEdit", map[string]any{"file_path": p + "/queue/drain_test.go",
		"edits": []map[string]string{{"old_string": "time.Sleep(10 * time.Millisecond)", "new_string": "<-q.Done()"}}})
	fire(conv, "afterShellExecution", map[string]any{"command": "go test -count=3 ./queue/", "cwd": p, "duration": 910, "output": "ok  \texample.com/queue\t0.31s"})
	answer := "Fixed. We decided to wait on q.Done() with a 5s deadline instead of a fixed 10ms sleep, because the CI runners are slower than laptops."
	fire(conv, "afterAgentResponse", map[string]any{"text": answer})
	if out := fire(conv, "stop", map[string]any{"status": "completed", "loop_count": 0}); strings.TrimSpace(out) != "{}" {
		t.Errorf("stop printed %q", out)
	}
	// The stop hook may have captured some of the payloads already; the
	// rest wait in the inbox.
	settle(t, p)

	// A turn of the next conversation ends: what the first one left is
	// captured, it is taken for ended (quiet), and the rules file carries
	// what it learned.
	time.Sleep(1100 * time.Millisecond)
	fire("d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6", "beforeSubmitPrompt", map[string]any{"prompt": "Where were we?"})
	fire("d1e2f3a4-b5c6-4d7e-8f90-a1b2c3d4e5f6", "stop", map[string]any{"status": "completed", "loop_count": 0})
	r = string(readFile(t, rules))
	if !strings.Contains(r, "q.Done()") || !strings.HasPrefix(r, "---\n") {
		t.Errorf("the rules file does not carry the first conversation:\n%s", r)
	}
	checkGit(t, p)
	mem := filepath.Join(p, ".cairn")
	dir := "sessions/" + conv + "/"
	show := func(f string) string { return gitc(t, mem, "show", "HEAD:"+dir+f) }
	if y := show("session.yaml"); !strings.Contains(y, "agent: cursor") || !strings.Contains(y, "prompts: 1") {
		t.Errorf("session.yaml:\n%s", y)
	}
	tr := show("transcript.md")
	// Cursor says no exit code: the shell commands are calls that ran.
	for _, want := range []string{prompt, "`Shell: go test ./queue/` → ok", "`Edit: queue/drain_test.go` → ok", "`Shell: go test -count=3 ./queue/` → ok", answer} {
		if strings.Count(tr, want) != 1 {
			t.Errorf("transcript.md has %q %d times:\n%s", want, strings.Count(tr, want), tr)
		}
	}
	if sum := show("summary.md"); !strings.Contains(sum, "TestQueueDrain") {
		t.Errorf("summary.md:\n%s", sum)
	}
	checkCore(t, p, "q.Done()")
	if log := gitc(t, mem, "log", "--format=%b", "--", dir); !strings.Contains(log, "Cairn-Session: "+conv) {
		t.Errorf("log:\n%s", log)
	}

	// --remove gives the user's files back and takes the rules file away.
	out = initProc(t, p, "--cursor", "--remove")
	if string(readFile(t, hooksFile)) != userCursorHooks || string(readFile(t, mcpFile)) != userCursorMCP {
		t.Errorf("after --remove:\n%s\n%s", readFile(t, hooksFile), readFile(t, mcpFile))
	}
	if _, err := os.Stat(rules); err == nil || !strings.Contains(out, "removed .cursor/rules/cairn.mdc") {
		t.Errorf("the rules file is still there; --remove said:\n%s", out)
	}
}

// A settings file cairn cannot read is refused with where it breaks, and
// left as it is: Gemini's comments, a Cursor hooks.json cut short.
func TestAgentSettingsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		flag, file, data, where string
	}{
		{"--gemini", ".gemini/settings.json", "{\n  \"theme\": \"GitHub\",\n  // the user's note\n  \"mcpServers\": {}\n}\n", ".gemini/settings.json:3:3: a comment"},
		{"--gemini", ".gemini/settings.json", "{\n  \"hooks\": {\"SessionStart\": [}\n}\n", ".gemini/settings.json:2:30: invalid JSON"},
		{"--cursor", ".cursor/hooks.json", "{\n  \"version\": 1,\n  \"hooks\": {\n", ".cursor/hooks.json:4:1: invalid JSON"},
	} {
		p := project(t)
		name := filepath.Join(p, tc.file)
		os.MkdirAll(filepath.Dir(name), 0o755)
		os.WriteFile(name, []byte(tc.data), 0o644)
		r := cairnEnv(t, nil, p, "", "init", tc.flag)
		if r.code == 0 || !strings.Contains(r.stderr, tc.where) || !strings.Contains(r.stderr, "cairn did not change it") {
			t.Errorf("init %s on %q: exit %d\n%s", tc.flag, tc.data, r.code, r.stderr)
		}
		if got := string(readFile(t, name)); got != tc.data {
			t.Errorf("%s changed:\n%s", tc.file, got)
		}
		if _, err := os.Stat(name + ".cairn-backup"); err == nil {
			t.Errorf("%s: a backup of a file cairn did not change", tc.file)
		}
	}
}

// One memory serves Claude Code, Codex, Gemini CLI and Cursor in one
// project at once: one init wires all four, each session records its
// agent, and one --remove takes cairn out of every file.
func TestAgentsShareOneMemory(t *testing.T) {
	t.Parallel()
	p := project(t)
	codexHome := filepath.Join(t.TempDir(), "codex-home")
	config, hooksFile, configBefore, hooksBefore := codexConfig(t, p, codexHome)
	all := []string{"init", "--claude", "--codex", "--gemini", "--cursor"}
	out, err := codexCmd(t, p, codexHome, all...)
	if err != nil {
		t.Fatalf("%v: %v\n%s", all, err, out)
	}
	noAutostart(t, p)
	for _, want := range []string{".claude/settings.json", ".mcp.json", ".codex/hooks.json", config, ".gemini/settings.json", ".cursor/hooks.json", ".cursor/rules/cairn.mdc"} {
		if !strings.Contains(out, want) {
			t.Errorf("init said nothing of %s:\n%s", want, out)
		}
	}
	g, c := geminiHooks(t, p), cursorHooks(t, p)
	const gid, cid = "6a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d", "7b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e"
	g.run("BeforeAgent", map[string]any{"session_id": gid, "cwd": p, "hook_event_name": "BeforeAgent", "prompt": "Add a retry to the uploader"})
	g.run("AfterAgent", map[string]any{"session_id": gid, "cwd": p, "hook_event_name": "AfterAgent", "prompt_response": "We decided to retry uploads three times with backoff."})
	c.run("beforeSubmitPrompt", map[string]any{"conversation_id": cid, "workspace_roots": []string{p}, "hook_event_name": "beforeSubmitPrompt", "prompt": "Rename the uploader package"})
	const xid = "019ad6e1-5c2b-7e30-9a41-c0de0e2e2003"
	if r := cairn(t, p, `{"session_id":"`+xid+`","cwd":`+jsonString(p)+`,"hook_event_name":"UserPromptSubmit","prompt":"Bump the uploader's timeout"}`, "hook", "--agent", "codex", "capture"); r.code != 0 || r.stderr != "" {
		t.Errorf("codex capture: exit %d, stderr %q", r.code, r.stderr)
	}
	settle(t, p)
	ok(t, p, "queue", "run")
	mem := filepath.Join(p, ".cairn")
	for id, agent := range map[string]string{gid: "gemini", cid: "cursor", xid: "codex"} {
		if y := gitc(t, mem, "show", "HEAD:sessions/"+id+"/session.yaml"); !strings.Contains(y, "agent: "+agent) {
			t.Errorf("session %s:\n%s", id, y)
		}
	}
	if out, err := codexCmd(t, p, codexHome, append(all, "--remove")...); err != nil {
		t.Fatalf("--remove: %v\n%s", err, out)
	}
	for _, f := range []string{".claude", ".mcp.json", ".gemini", ".cursor"} {
		if _, err := os.Stat(filepath.Join(p, f)); err == nil {
			t.Errorf("%s is left after --remove", f)
		}
	}
	for f, before := range map[string][]byte{config: configBefore, hooksFile: hooksBefore} {
		if after, _ := os.ReadFile(f); !bytes.Equal(after, before) {
			t.Errorf("%s after --remove:\n%s", f, after)
		}
	}
	checkGit(t, p)
}
