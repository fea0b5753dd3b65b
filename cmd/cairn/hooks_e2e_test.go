package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/capture/follow"
)

// claudeSession plays Claude Code for the end-to-end tests: it runs the
// hook commands of the project's .claude/settings.json exactly as
// Claude Code does (sh -c COMMAND in the project, the payload on stdin,
// CLAUDE_PROJECT_DIR set) while a transcript grows on disk.
type claudeSession struct {
	t        *testing.T
	proj     string
	settings map[string][]struct {
		Matcher string `json:"matcher"`
		Hooks   []struct {
			Command string `json:"command"`
			Async   bool   `json:"async"`
		} `json:"hooks"`
	}
	w          *claudeWriter
	transcript string
}

func newClaudeSession(t *testing.T, proj, id string) *claudeSession {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(proj, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	stopDaemon(t, proj)
	s := &claudeSession{t: t, proj: proj}
	var doc struct {
		Hooks json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(doc.Hooks, &s.settings); err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	s.w = &claudeWriter{session: id, cwd: proj, t0: time.Now().Add(-time.Hour)}
	s.transcript = filepath.Join(home, ".claude", "projects", follow.ClaudeProjectName(proj), id+".jsonl")
	return s
}

// flush writes the transcript as it stands.
func (s *claudeSession) flush() { s.w.write(s.t, s.transcript) }

// fire runs the hooks registered for event with the payload (the common
// fields are added) and returns what the last one printed on stdout. Every
// hook must exit 0 and print nothing but JSON.
func (s *claudeSession) fire(event, tool string, fields map[string]any) string {
	s.t.Helper()
	payload := map[string]any{
		"session_id":      s.w.session,
		"transcript_path": s.transcript,
		"cwd":             s.proj,
		"permission_mode": "default",
		"hook_event_name": event,
	}
	for k, v := range fields {
		payload[k] = v
	}
	in, _ := json.Marshal(payload)
	var last string
	ran := 0
	for _, g := range s.settings[event] {
		if g.Matcher != "" && g.Matcher != "*" && g.Matcher != tool {
			continue
		}
		for _, h := range g.Hooks {
			cmd := exec.Command("sh", "-c", h.Command)
			cmd.Dir = s.proj
			cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+s.proj, "CAIRN_DIR=")
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
		s.t.Fatalf("no hook registered for %s", event)
	}
	return last
}

// settle waits until the queue takes the hook files in the inbox: a
// dropped file once it has not changed for two seconds. (Ageing them by
// hand would put them before the jobs queued meanwhile.)
func settle(t *testing.T, proj string) int {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(proj, ".cairn", "inbox", "hook-*.json"))
	var newest time.Time
	for _, n := range names {
		if fi, err := os.Stat(n); err == nil && fi.ModTime().After(newest) {
			newest = fi.ModTime()
		}
	}
	if wait := time.Until(newest.Add(2*time.Second + 50*time.Millisecond)); wait > 0 {
		time.Sleep(wait)
	}
	return len(names)
}

func sessionStartOutput(t *testing.T, out string) (context, systemMessage string) {
	t.Helper()
	var o struct {
		Specific *struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
		SystemMessage string `json:"systemMessage"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatalf("session-start printed %q: %v", out, err)
	}
	if o.Specific != nil {
		if o.Specific.Event != "SessionStart" {
			t.Errorf("hookEventName %q", o.Specific.Event)
		}
		context = o.Specific.Context
	}
	if n := len([]rune(context)); n >= 10000 {
		t.Errorf("additionalContext has %d characters", n)
	}
	return context, o.SystemMessage
}

// A whole Claude Code session, played through the installed hooks with no
// daemon, becomes memory; the next session starts with it.
func TestClaudeCodeSession(t *testing.T) {
	t.Parallel()
	p := project(t)
	if out, err := cairnProc(p, "", "init", "--claude").CombinedOutput(); err != nil {
		t.Fatalf("init --claude: %v\n%s", err, out)
	}
	checkGit(t, p)
	noAutostart(t, p)
	const id = "5e1d2c3b-0000-4000-8000-00000000e2e1"
	s := newClaudeSession(t, p, id)

	_, msg := sessionStartOutput(t, s.fire("SessionStart", "", map[string]any{"source": "startup", "model": "claude-sonnet-4-5"}))
	if !strings.Contains(msg, "not running") || !strings.Contains(msg, "cairn daemon start") {
		t.Errorf("no word of the missing daemon: %q", msg)
	}

	prompt := "Why does TestQueueDrain fail on CI but pass locally?"
	s.w.prompt(prompt)
	s.flush()
	s.fire("UserPromptSubmit", "", map[string]any{"prompt": prompt})

	s.w.bash("go test ./queue/", "--- FAIL: TestQueueDrain (5.00s)\n    drain_test.go:31: queue not drained after 10ms\nFAIL", 1)
	s.flush()
	s.fire("PostToolUseFailure", "Bash", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "go test ./queue/"},
		"tool_use_id": "toolu_fail", "error": "Exit code 1\n--- FAIL: TestQueueDrain (5.00s)\n    drain_test.go:31: queue not drained after 10ms\nFAIL", "is_interrupt": false})

	s.w.bash("go test -count=3 ./queue/", "ok  \texample.com/queue\t0.31s", 0)
	s.flush()
	s.fire("PostToolUse", "Bash", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "go test -count=3 ./queue/"},
		"tool_use_id": "toolu_ok", "tool_response": map[string]any{"stdout": "ok  \texample.com/queue\t0.31s", "stderr": "", "interrupted": false}})

	answer := "Fixed. We decided to wait on q.Done() with a 5s deadline instead of a fixed 10ms sleep, because the CI runners are slower than laptops."
	s.w.say(answer)
	s.flush()
	s.fire("Stop", "", map[string]any{"stop_hook_active": false, "last_assistant_message": answer})

	s.fire("PreCompact", "", map[string]any{"trigger": "manual", "custom_instructions": ""})
	summary := "The user asked why TestQueueDrain failed on CI. The test slept 10ms; it now waits on q.Done() with a 5s deadline."
	s.w.line("system", nil, `,"subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"manual","preTokens":48213}`)
	s.w.line("user", map[string]any{"role": "user", "content": "This session is being continued from a previous conversation. Summary:\n" + summary}, `,"isCompactSummary":true`)
	s.flush()
	s.fire("PostCompact", "", map[string]any{"trigger": "manual", "compact_summary": summary})
	s.fire("SessionEnd", "", map[string]any{"reason": "prompt_input_exit"})

	// Capture only wrote files: nothing is committed yet.
	if n := settle(t, p); n != 7 {
		t.Fatalf("%d payloads in the inbox, want 7", n)
	}
	mem := filepath.Join(p, ".cairn")
	if _, err := os.Stat(filepath.Join(mem, "sessions", id)); err == nil {
		t.Error("the session was recorded before any queue work")
	}

	// The next session starts: the backlog is processed first, and the
	// pack shows what the first session learned.
	s2 := newClaudeSession(t, p, "5e1d2c3b-0000-4000-8000-00000000e2e2")
	ctxText, msg := sessionStartOutput(t, s2.fire("SessionStart", "", map[string]any{"source": "startup"}))
	// The first session's start and its seven captured events.
	if !strings.Contains(msg, "8 queued events processed now") {
		t.Errorf("systemMessage %q", msg)
	}
	if left, _ := filepath.Glob(filepath.Join(mem, "inbox", "hook-*")); len(left) != 0 {
		t.Errorf("inbox not drained: %v", left)
	}
	checkGit(t, p)
	files := headFiles(t, p)
	dir := "sessions/" + id + "/"
	for _, f := range []string{"session.yaml", "prompts.md", "transcript.md", "observations.md", "summary.md"} {
		if !files[dir+f] {
			t.Errorf("%s%s not committed", dir, f)
		}
	}
	show := func(f string) string { return gitc(t, mem, "show", "HEAD:"+dir+f) }
	if y := show("session.yaml"); !strings.Contains(y, "status: suspended") || !strings.Contains(y, "prompts: 1") {
		t.Errorf("session.yaml:\n%s", y)
	}
	if pr := show("prompts.md"); strings.Count(pr, prompt) != 1 {
		t.Errorf("prompts.md:\n%s", pr)
	}
	tr := show("transcript.md")
	for _, want := range []string{"queue not drained after 10ms", "go test -count=3 ./queue/", answer, "Compaction summary:"} {
		if !strings.Contains(tr, want) {
			t.Errorf("transcript.md lacks %q:\n%s", want, tr)
		}
	}
	if strings.Count(tr, answer) != 1 {
		t.Errorf("the answer is in transcript.md %d times", strings.Count(tr, answer))
	}
	if obs := show("observations.md"); !strings.Contains(obs, "go test ./queue/") || !strings.Contains(obs, "exit 1") {
		t.Errorf("observations.md:\n%s", obs)
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
	// The first job caught up the whole transcript; the later ones found
	// nothing new but SessionEnd, which suspended the session.
	log := gitc(t, mem, "log", "--format=%s%n%b", "--", dir)
	for _, want := range []string{"Cairn-Session: " + id, "Cairn-Event: session-end", "Cairn-Event: session-start"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if !strings.Contains(ctxText, "q.Done()") || !strings.Contains(ctxText, "5e1d2c3b") {
		t.Errorf("the second session's context does not carry the first's:\n%s", ctxText)
	}
	// The second session's start waits in the queue.
	if st := ok(t, p, "queue", "status", "--json"); !strings.Contains(st, `"failed": 0`) || !strings.Contains(st, `"pending": 1`) {
		t.Errorf("queue: %s", st)
	}
	ok(t, p, "queue", "run")
	if !headFiles(t, p)["sessions/5e1d2c3b-0000-4000-8000-00000000e2e2/session.yaml"] {
		t.Error("the second session was not recorded")
	}

	// The second session's agent reads back what it was told: its
	// summary keeps what it did, not the recap.
	prompt = "Remind me what we did about the queue test, then make the deadline configurable."
	s2.w.prompt(prompt)
	recap := "From memory: TestQueueDrain waits on q.Done() with a 5s deadline instead of a fixed 10ms sleep, because the CI runners are slower than laptops."
	did := "I added QUEUE_DRAIN_DEADLINE, read in drain_test.go, defaulting to 5s."
	s2.w.say(recap + "\n\n" + did)
	s2.flush()
	s2.fire("Stop", "", map[string]any{"stop_hook_active": false, "last_assistant_message": did})
	s2.fire("SessionEnd", "", map[string]any{"reason": "prompt_input_exit"})
	settle(t, p)
	ok(t, p, "queue", "run")
	sum := gitc(t, mem, "show", "HEAD:sessions/5e1d2c3b-0000-4000-8000-00000000e2e2/summary.md")
	if strings.Contains(sum, "From memory") || !strings.Contains(sum, "QUEUE_DRAIN_DEADLINE") {
		t.Errorf("the second session's summary:\n%s", sum)
	}
	// What it was told is kept until it ended, not after.
	if _, err := os.Stat(filepath.Join(mem, ".state", "capture", "sessions", "5e1d2c3b-0000-4000-8000-00000000e2e2.told.md")); !os.IsNotExist(err) {
		t.Errorf("the told record outlived the session: %v", err)
	}
}

// With the queue worked after every hook, as a running daemon does, each
// event is its own checkpoint; a Stop that arrives before the last
// answer is in the transcript loses nothing.
func TestClaudeCodeSessionLive(t *testing.T) {
	t.Parallel()
	p := project(t)
	if out, err := cairnProc(p, "", "init", "--claude").CombinedOutput(); err != nil {
		t.Fatalf("init --claude: %v\n%s", err, out)
	}
	noAutostart(t, p) // the queue is worked here, as a daemon would
	const id = "5e1d2c3b-0000-4000-8000-0000000011fe"
	s := newClaudeSession(t, p, id)
	work := func() {
		t.Helper()
		settle(t, p)
		if out, err := cairnProc(p, "", "queue", "run").CombinedOutput(); err != nil {
			t.Fatalf("queue run: %v\n%s", err, out)
		}
	}
	s.fire("SessionStart", "", map[string]any{"source": "startup"})
	work()
	prompt := "Make the build reproducible"
	s.w.prompt(prompt)
	s.flush()
	s.fire("UserPromptSubmit", "", map[string]any{"prompt": prompt})
	work()
	s.w.bash("make release", "make: *** [release] Error 2", 2)
	s.flush()
	s.fire("PostToolUseFailure", "Bash", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "make release"},
		"tool_use_id": "toolu_x", "error": "Exit code 2\nmake: *** [release] Error 2"})
	work()
	// Stop comes before the answer reaches the transcript.
	answer := "We decided to pin the Go toolchain in go.mod so that every build uses go1.26."
	s.fire("Stop", "", map[string]any{"last_assistant_message": answer})
	work()
	s.w.say(answer)
	s.flush()
	s.fire("SessionEnd", "", map[string]any{"reason": "clear"})
	work()

	mem := filepath.Join(p, ".cairn")
	dir := "sessions/" + id + "/"
	log := gitc(t, mem, "log", "--format=%b", "--", dir)
	// The tool's call and result are taken once the assistant's message
	// is known to be whole: at the Stop.
	for _, want := range []string{"Cairn-Event: prompt", "Cairn-Event: stop", "Cairn-Event: session-end"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	tr := gitc(t, mem, "show", "HEAD:"+dir+"transcript.md")
	if strings.Count(tr, answer) != 1 || !strings.Contains(tr, "make: *** [release] Error 2") {
		t.Errorf("transcript.md:\n%s", tr)
	}
	if y := gitc(t, mem, "show", "HEAD:"+dir+"session.yaml"); !strings.Contains(y, "status: suspended") {
		t.Errorf("session.yaml:\n%s", y)
	}
	checkGit(t, p)
}

// Without a transcript cairn may read, the hooks' own payloads are the
// record: the failure, the last answer, the compaction summary, the end.
func TestClaudeCodeHooksWithoutTranscript(t *testing.T) {
	t.Parallel()
	p := project(t)
	if out, err := cairnProc(p, "", "init", "--claude").CombinedOutput(); err != nil {
		t.Fatalf("init --claude: %v\n%s", err, out)
	}
	const id = "5e1d2c3b-0000-4000-8000-0000000000aa"
	s := newClaudeSession(t, p, id)
	s.transcript = filepath.Join(t.TempDir(), "elsewhere.jsonl") // not one cairn follows
	s.fire("UserPromptSubmit", "", map[string]any{"prompt": "Deploy the staging stack"})
	s.fire("PostToolUseFailure", "Bash", map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "terraform apply"},
		"tool_use_id": "toolu_tf", "error": "Exit code 1\nError: state lock held by another run", "is_interrupt": false})
	s.fire("Stop", "", map[string]any{"last_assistant_message": "The deploy is blocked: the terraform state lock is held by another run."})
	s.fire("PreCompact", "", map[string]any{"trigger": "auto"})
	s.fire("PostCompact", "", map[string]any{"trigger": "auto", "compact_summary": "Staging deploy blocked by a held terraform state lock."})
	s.fire("SessionEnd", "", map[string]any{"reason": "logout"})
	settle(t, p)
	if out, err := cairnProc(p, "", "queue", "run").CombinedOutput(); err != nil {
		t.Fatalf("queue run: %v\n%s", err, out)
	}
	mem := filepath.Join(p, ".cairn")
	dir := "sessions/" + id + "/"
	tr := gitc(t, mem, "show", "HEAD:"+dir+"transcript.md")
	for _, want := range []string{"Deploy the staging stack", "`Bash: terraform apply` → **failed** (exit 1)", "state lock held by another run",
		"**Assistant:** The deploy is blocked", "Context compacted (auto)", "**Compaction summary:** Staging deploy blocked", "Session ended (logout)"} {
		if !strings.Contains(tr, want) {
			t.Errorf("transcript.md lacks %q:\n%s", want, tr)
		}
	}
	log := gitc(t, mem, "log", "--format=%b", "--", dir)
	for _, ev := range []string{"prompt", "tool-failure", "stop", "pre-compact", "post-compact", "session-end"} {
		if !strings.Contains(log, "Cairn-Event: "+ev+"\n") {
			t.Errorf("no %s checkpoint:\n%s", ev, log)
		}
	}
	if sum := gitc(t, mem, "show", "HEAD:"+dir+"summary.md"); !strings.Contains(sum, "terraform") {
		t.Errorf("summary.md:\n%s", sum)
	}
	if y := gitc(t, mem, "show", "HEAD:"+dir+"session.yaml"); !strings.Contains(y, "status: suspended") {
		t.Errorf("session.yaml:\n%s", y)
	}
	checkGit(t, p)
}
