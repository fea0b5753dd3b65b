package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/model"
)

// hookProc runs `cairn hook ARGS` as Claude Code would, in dir with
// CLAUDE_PROJECT_DIR=dir, and checks what every hook must do: exit 0
// and print nothing on stdout but one JSON object.
func hookProc(t *testing.T, dir string, stdin []byte, args ...string) (stdout, stderr string) {
	t.Helper()
	stopDaemon(t, dir)
	cmd := exec.Command(binary, append([]string{"hook"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+dir, "CAIRN_DIR=")
	cmd.Stdin = bytes.NewReader(stdin)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("cairn hook %v with %.60q: %v\n%s", args, stdin, err, e.String())
	}
	checkHookStdout(t, o.String(), args)
	return o.String(), e.String()
}

func checkHookStdout(t *testing.T, out string, args []string) {
	t.Helper()
	if out == "" {
		return
	}
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("cairn hook %v: stdout is not one line: %q", args, out)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Errorf("cairn hook %v: stdout is not a JSON object: %q", args, out)
	}
}

// badPayloads are hook payloads no hook should choke on.
func badPayloads(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{
		"empty":         nil,
		"blank":         []byte("  \n"),
		"null":          []byte("null"),
		"array":         []byte(`[{"hook_event_name":"Stop"}]`),
		"truncated":     []byte(`{"session_id":"5e1d2c3b-aaaa","hook_event_name":"Sto`),
		"not utf-8":     []byte("{\"session_id\":\"s\xff\xfe\",\"hook_event_name\":\"Stop\"}"),
		"nul":           []byte("{\"session_id\":\"a\x00b\",\"hook_event_name\":\"Stop\"}"),
		"unknown event": []byte(`{"session_id":"5e1d2c3b-bbbb","hook_event_name":"TeleportAgent"}`),
		"wrong types":   []byte(`{"session_id":42,"hook_event_name":["Stop"],"prompt":{"x":1}}`),
		"huge":          []byte(`{"session_id":"5e1d2c3b-cccc","hook_event_name":"UserPromptSubmit","prompt":"` + strings.Repeat("very long prompt ", 200000) + `"}`),
	}
	for i, id := range []string{"../../../../tmp/cairn-escape", "a/b", "/etc/passwd", "..", `x\u0000y`, strings.Repeat("a", 300), "sessions/../../core"} {
		out[fmt.Sprintf("session id %d", i)] = []byte(fmt.Sprintf(`{"session_id":%q,"hook_event_name":"Stop","last_assistant_message":"escape"}`, id))
	}
	files, _ := filepath.Glob("../../testdata/hooks/bad/*.json")
	files = append(files, "../../testdata/hooks/future-fields.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = data
	}
	return out
}

// No payload makes a hook fail, print anything but JSON, or write
// outside its session's folder; bad ones end in failed/, never lost.
func TestHookBadInput(t *testing.T) {
	t.Parallel()
	p := project(t)
	if out, err := cairnProc(p, "", "init", "--claude").CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	os.WriteFile(filepath.Join(p, ".cairn", "cairn.yaml"), []byte("hooks:\n  prompt_context: true\n"), 0o644)
	ok(t, p, "checkpoint")
	ok(t, p, "remember", "--kind", "fact", "--title", "Staging deploys", "Staging deploys go through terraform in infra/staging.")
	mem := filepath.Join(p, ".cairn")
	payloads := badPayloads(t)
	for name, data := range payloads {
		// In process, for speed; whole processes below and in the
		// end-to-end tests.
		for _, ev := range []string{"session-start", "user-prompt-submit", "TeleportAgent"} {
			t0 := time.Now()
			r := cairn(t, p, string(data), "hook", ev)
			if d := time.Since(t0); d > 200*time.Millisecond {
				t.Logf("%s %s: %v", name, ev, d)
			}
			if r.code != 0 || strings.Contains(r.stderr, "internal error") {
				t.Errorf("%s: cairn hook %s: exit %d, stderr %q", name, ev, r.code, r.stderr)
			}
			checkHookStdout(t, r.stdout, []string{ev, name})
		}
		// The capture script too.
		cmd := exec.Command("sh", "-c", `sh "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"`)
		cmd.Dir, cmd.Stdin = p, bytes.NewReader(data)
		cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+p)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
			t.Errorf("%s: capture script: %v %q", name, err, out)
		}
	}
	for _, name := range []string{"truncated", "session id 0", "huge", "not-an-object.json"} {
		hookProc(t, p, payloads[name], "session-start")
	}
	// Flags and arguments never make a usage error (exit 2).
	for _, args := range [][]string{{}, {"--bogus"}, {"session-start", "--json", "extra"}, {"-C"}, {"-C", "/nonexistent", "stop"}} {
		hookProc(t, p, []byte(`{"session_id":"s","hook_event_name":"Stop"}`), args...)
	}
	// Outside any memory: nothing to do, exit 0.
	out, errs := hookProc(t, t.TempDir(), []byte(`{"session_id":"s","hook_event_name":"SessionStart"}`), "session-start")
	if out != "" || !strings.Contains(errs, "no cairn memory") {
		t.Errorf("outside a memory: %q %q", out, errs)
	}

	// A session start works the queue: every bad payload is processed
	// or kept in failed/, and nothing escaped. The first session start
	// above ran the daemon (daemon.autostart), which works the queue from
	// then on, beside the test: the session start has it catch up, then
	// queues the new session's record, which the daemon takes at once
	// (capture.EnqueueHook). So what is left in the inbox when the hook
	// returns, and whether the daemon is writing that record while git
	// status looks, depends on the machine's load; the state to wait for
	// is the queue worked, the record of the session that just began
	// captured.
	old := time.Now().Add(-time.Minute)
	for _, f := range mustGlob(t, filepath.Join(mem, "inbox", "*")) {
		os.Chtimes(f, old, old)
	}
	hookProc(t, p, []byte(`{"session_id":"5e1d2c3b-dddd","hook_event_name":"SessionStart","source":"startup"}`), "session-start")
	queueWorked(t, p)
	if _, err := os.Stat(filepath.Join(mem, "sessions", "5e1d2c3b-dddd", "session.yaml")); err != nil {
		t.Errorf("the record of the session that just began: %v", err)
	}
	if left := mustGlob(t, filepath.Join(mem, "inbox", "*")); len(left) != 0 {
		t.Errorf("inbox not worked: %v", left)
	}
	failed := mustGlob(t, filepath.Join(mem, ".state", "queue", "failed", "*"))
	if len(failed) < 10 {
		t.Errorf("only %d jobs in failed/", len(failed))
	}
	if _, err := os.Stat("/tmp/cairn-escape"); err == nil {
		t.Error("a session id escaped to /tmp")
	}
	filepath.WalkDir(mem, func(path string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(mem, path)
		if d != nil && d.IsDir() && (d.Name() == "etc" || d.Name() == "passwd" || strings.HasPrefix(rel, "sessions/sessions")) {
			t.Errorf("a folder from a session id: %s", rel)
		}
		return nil
	})
	for _, e := range mustGlob(t, filepath.Join(mem, "sessions", "*")) {
		if name := filepath.Base(e); !strings.HasPrefix(name, "5e1d2c3b-") && !strings.HasPrefix(name, "3f1c9a52-") && name != "s" {
			t.Errorf("unexpected session folder %s", name)
		}
	}
	checkGit(t, p)
	// The failed jobs keep their payloads: nothing is lost. An event of
	// a newer Claude Code is no failure: it is ignored, not kept to warn
	// about at every session start.
	r := cairn(t, p, "", "queue", "list", "--state", "failed", "--json")
	if r.code != 0 || !strings.Contains(r.stdout, "neither a hook payload nor a transcript") || strings.Contains(r.stdout, "TeleportAgent") {
		t.Errorf("queue list failed: %d\n%.2000s", r.code, r.stdout)
	}
}

// queueWorked waits until the capture queue of the memory in project p
// has no job pending or in processing, as its daemon works it: a job is
// in the inbox or in processing/ until its effect is committed. It gives
// up, failing the test, only if the daemon exits or the wait would hang.
func queueWorked(t *testing.T, p string) {
	t.Helper()
	var st struct{ Pending, Processing int }
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if err := json.Unmarshal([]byte(ok(t, p, "queue", "status", "--json")), &st); err != nil {
			t.Fatal(err)
		}
		if st.Pending == 0 && st.Processing == 0 {
			return
		}
		if daemonStatus(t, p).PID == 0 {
			t.Fatalf("queue %+v, and no daemon to work it:\n%s", st, queueReport(t, p))
		}
		if time.Now().After(deadline) {
			t.Fatalf("queue %+v: not worked (not a timing check: a bound on a wait that would hang):\n%s", st, queueReport(t, p))
		}
	}
}

// queueReport is what a test that waited for the queue of project p in
// vain shows: the jobs left, and the daemon's log.
func queueReport(t *testing.T, p string) string {
	t.Helper()
	pending := cairn(t, p, "", "queue", "list", "--state", "pending")
	processing := cairn(t, p, "", "queue", "list", "--state", "processing")
	log, _ := os.ReadFile(filepath.Join(p, ".cairn", ".state", "daemon.log"))
	return fmt.Sprintf("pending:\n%s%s\nprocessing:\n%s%s\ndaemon.log:\n%s", pending.stdout, pending.stderr, processing.stdout, processing.stderr, log)
}

func TestHookFullDisk(t *testing.T) {
	t.Parallel()
	dir := mountTmpfs(t, "4m")
	p := filepath.Join(dir, "proj")
	os.MkdirAll(p, 0o755)
	if out, err := cairnProc(p, "", "init", "--claude").CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	inbox := filepath.Join(p, ".cairn", "inbox")
	os.MkdirAll(inbox, 0o755)
	filler := filepath.Join(dir, "filler")
	f, _ := os.Create(filler)
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	f.Close()
	payload := []byte(`{"session_id":"5e1d2c3b-eeee","hook_event_name":"PostToolUse","tool_name":"Bash","tool_response":"` + strings.Repeat("x", 256<<10) + `"}`)
	capture := func() (string, error) {
		cmd := exec.Command("sh", "-c", `sh "${CLAUDE_PROJECT_DIR:-.}/.cairn/hooks/capture.sh"`)
		cmd.Dir, cmd.Stdin = p, bytes.NewReader(payload)
		cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+p)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		if o.Len() != 0 {
			t.Errorf("capture printed %q", o.String())
		}
		return e.String(), err
	}
	errs, err := capture()
	if err != nil || !strings.Contains(errs, "not captured") {
		t.Errorf("capture on a full disk: %v, stderr %q", err, errs)
	}
	_, errs = hookProc(t, p, payload, "post-tool-use")
	if !strings.Contains(errs, "no space left on device") || !strings.Contains(errs, "not captured") {
		t.Errorf("cairn hook on a full disk: stderr %q", errs)
	}
	hookProc(t, p, []byte(`{"session_id":"5e1d2c3b-eeee","hook_event_name":"SessionStart","source":"startup"}`), "session-start")
	if left := mustGlob(t, filepath.Join(inbox, "*")); len(left) != 0 {
		t.Errorf("a full disk left files in the inbox: %v", left)
	}
	if left := mustGlob(t, filepath.Join(inbox, ".*")); len(left) != 0 {
		t.Errorf("a full disk left temporary files: %v", left)
	}
	os.Remove(filler)
	if errs, err := capture(); err != nil || errs != "" {
		t.Errorf("capture with space again: %v %q", err, errs)
	}
	if n := mustGlob(t, filepath.Join(inbox, "hook-*.json")); len(n) != 1 {
		t.Errorf("inbox: %v", n)
	}
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestHookEventNames(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"session-start": "SessionStart", "SessionStart": "SessionStart", "sessionstart": "SessionStart",
		"user_prompt_submit": "UserPromptSubmit", "post-tool-use-failure": "PostToolUseFailure",
		"post-tool-use": "PostToolUse", "Teleport": "Teleport", "": "",
	} {
		if got := model.HookEventName(in); got != want {
			t.Errorf("HookEventName(%q) = %q, want %q", in, got, want)
		}
	}
}
