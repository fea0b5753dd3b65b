package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/doctor"
	"github.com/cairn-mem/cairn/internal/model"
)

// settingsFixtures are realistic settings files (hooks/testdata).
func settingsFixtures(t *testing.T) map[string][]byte {
	t.Helper()
	names, _ := filepath.Glob("../../hooks/testdata/settings/*.json")
	out := map[string][]byte{}
	for _, n := range names {
		if filepath.Base(n) == "mcp.json" {
			continue
		}
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = data
	}
	if len(out) < 4 {
		t.Fatalf("fixtures: %v", names)
	}
	return out
}

// decoded is a JSON document as Go values, numbers as written, with
// empty hook lists dropped (they hold no hook).
func decoded(t *testing.T, data []byte) any {
	t.Helper()
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if h, ok := v["hooks"].(map[string]any); ok {
		for ev, l := range h {
			if l, ok := l.([]any); ok && len(l) == 0 {
				delete(h, ev)
			}
		}
		if len(h) == 0 {
			delete(v, "hooks")
		}
	}
	return v
}

func TestInitClaudeSettings(t *testing.T) {
	t.Parallel()
	for name, orig := range settingsFixtures(t) {
		t.Run(name, func(t *testing.T) {
			p := project(t)
			settings := filepath.Join(p, ".claude", "settings.json")
			os.MkdirAll(filepath.Dir(settings), 0o755)
			os.WriteFile(settings, orig, 0o600)
			mcpOrig, _ := os.ReadFile("../../hooks/testdata/settings/mcp.json")
			os.WriteFile(filepath.Join(p, ".mcp.json"), mcpOrig, 0o644)

			out := ok(t, p, "init", "--claude")
			if !strings.Contains(out, "Claude Code hooks are in .claude/settings.json (the file as it was is in .claude/settings.json.cairn-backup)") {
				t.Errorf("init said:\n%s", out)
			}
			if bak, _ := os.ReadFile(settings + ".cairn-backup"); !bytes.Equal(bak, orig) {
				t.Error("backup is not the original")
			}
			if fi, _ := os.Stat(settings); fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want the file's own 0600", fi.Mode().Perm())
			}
			merged, _ := os.ReadFile(settings)
			regs, err := hooks.Find(merged)
			if err != nil || len(regs) != len(model.CaptureEvents())+1 {
				t.Fatalf("%d cairn hooks (%v):\n%s", len(regs), err, merged)
			}
			checkGit(t, p)
			// The script is there to run, but out of the history: a sync
			// must never bring another machine's version of it.
			if headFiles(t, p)["hooks/capture.sh"] {
				t.Error("capture.sh committed")
			}
			if fi, err := os.Stat(filepath.Join(p, ".cairn", "hooks", "capture.sh")); err != nil || fi.Mode().Perm()&0o100 == 0 {
				t.Errorf("capture.sh not installed: %v", err)
			}

			// Again: nothing changes, the backup stays the original.
			out = ok(t, p, "init", "--claude")
			if !strings.Contains(out, "already; nothing changed") {
				t.Errorf("second init said:\n%s", out)
			}
			if again, _ := os.ReadFile(settings); !bytes.Equal(again, merged) {
				t.Error("second init changed settings.json")
			}

			// Remove restores what the user had (without any older cairn).
			ok(t, p, "init", "--claude", "--remove")
			removed, _ := os.ReadFile(settings)
			want, _, _ := hooks.Remove(orig)
			if !reflect.DeepEqual(decoded(t, removed), decoded(t, want)) {
				t.Errorf("after --remove:\n%s\nwant\n%s", removed, want)
			}
			if mcp, _ := os.ReadFile(filepath.Join(p, ".mcp.json")); !reflect.DeepEqual(decoded(t, mcp), decoded(t, mcpOrig)) {
				t.Errorf(".mcp.json after --remove:\n%s", mcp)
			}
			if bak, _ := os.ReadFile(settings + ".cairn-backup"); !bytes.Equal(bak, orig) {
				t.Error("backup changed")
			}
			if out := ok(t, p, "init", "--claude", "--remove"); !strings.Contains(out, "none in .claude/settings.json") {
				t.Errorf("second remove said:\n%s", out)
			}
		})
	}
}

// Files cairn created are gone after --remove; --global edits the
// user's settings and installs the script outside any project.
func TestInitClaudeCreatedAndGlobal(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init", "--claude")
	for _, f := range []string{".claude/settings.json", ".mcp.json"} {
		if _, err := os.Stat(filepath.Join(p, f)); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(p, f+".cairn-backup")); err == nil {
			t.Errorf("%s: a backup of a file that did not exist", f)
		}
	}
	ok(t, p, "init", "--claude", "--remove")
	for _, f := range []string{".claude/settings.json", ".mcp.json"} {
		if _, err := os.Stat(filepath.Join(p, f)); err == nil {
			t.Errorf("%s left behind", f)
		}
	}

	// A home of this test's own, which --global writes in.
	home := t.TempDir()
	user := env{"HOME": home, "XDG_CONFIG_HOME": ""}
	okEnv(t, user, p, "init", "--claude", "--global")
	data, err := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(home, ".config", "cairn", "hooks", "capture.sh")
	if !strings.Contains(string(data), "sh "+script) {
		t.Errorf("global settings:\n%s", data)
	}
	if _, err := os.Stat(script); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(p, ".claude", "settings.json")); err == nil {
		t.Error("--global wrote the project's settings")
	}
	// The global capture hook works in this project and does nothing in
	// one without memory.
	other := t.TempDir()
	for _, dir := range []string{p, other} {
		cmd := exec.Command("sh", "-c", "sh "+hooks.ShellQuote(script))
		cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+dir, "HOME="+home)
		cmd.Stdin = strings.NewReader(`{"hook_event_name":"Stop","session_id":"s"}`)
		if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
			t.Errorf("global hook in %s: %v %q", dir, err, out)
		}
	}
	if n, _ := filepath.Glob(filepath.Join(p, ".cairn", "inbox", "hook-*.json")); len(n) != 1 {
		t.Errorf("inbox: %v", n)
	}
	okEnv(t, user, p, "init", "--claude", "--global", "--remove")
	if _, err := os.Stat(filepath.Join(home, ".claude", "settings.json")); err == nil {
		t.Error("global settings.json that cairn made is left")
	}
	fails(t, p, 2, "go with --claude", "init", "--remove")
}

func TestInitClaudeInvalidSettings(t *testing.T) {
	t.Parallel()
	p := project(t)
	settings := filepath.Join(p, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	bad := "{\n  \"permissions\": {\"allow\": [\"Bash(ls)\",]},\n  \"model\": \"opus\"\n}\n"
	os.WriteFile(settings, []byte(bad), 0o644)
	fails(t, p, 1, settings+":2:40: invalid JSON", "init", "--claude")
	if got, _ := os.ReadFile(settings); string(got) != bad {
		t.Error("the broken file was changed")
	}
	if _, err := os.Stat(settings + ".cairn-backup"); err == nil {
		t.Error("backup of a file that was not changed")
	}
	fails(t, p, 1, "cairn did not change it", "init", "--claude", "--remove")
	r := cairn(t, p, "", "doctor")
	if r.code != 1 || !strings.Contains(r.stdout, settings+":2:40") {
		t.Errorf("doctor: exit %d\n%s", r.code, r.stdout)
	}
}

func TestDoctor(t *testing.T) {
	t.Parallel()
	p := project(t)
	fails(t, p, 1, "doctor: ", "doctor")
	if out, err := cairnProc(p, "", "init", "--claude").CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	var rep doctor.Report
	r := cairn(t, p, "", "doctor", "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rep) != nil || !rep.OK {
		t.Fatalf("doctor after init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	status := map[string]string{}
	for _, c := range rep.Checks {
		if status[c.Name] != doctor.Fail {
			status[c.Name] = c.Status
		}
	}
	for name, want := range map[string]string{"memory": "ok", "hooks": "ok", "mcp": "ok", "daemon": "warn", "queue": "ok", "remotes": "ok", "conflicts": "ok"} {
		if status[name] != want {
			t.Errorf("%s: %s, want %s\n%s", name, status[name], want, r.stdout)
		}
	}
	// A conflict copy a sync left is listed with how to settle it.
	cc := filepath.Join(p, ".cairn", "core", "facts", "db--01JDXK3V9M2Q7Y8Z4T6R5W1HBC.conflict-laptop-20261130-120000.md")
	os.MkdirAll(filepath.Dir(cc), 0o755)
	os.WriteFile(cc, []byte("---\nkind: fact\ntitle: DB\n---\nx\n"), 0o644)
	if r := cairn(t, p, "", "doctor"); !strings.Contains(r.stdout, "warn  conflicts") || !strings.Contains(r.stdout, "conflict-laptop-20261130-120000.md") || !strings.Contains(r.stdout, "cairn resolve") {
		t.Errorf("doctor with a conflict copy:\n%s", r.stdout)
	}
	os.Remove(cc)

	// Break things, one at a time, and see each named with its fix.
	mem := filepath.Join(p, ".cairn")
	os.Remove(filepath.Join(mem, "hooks", "capture.sh"))
	os.MkdirAll(filepath.Join(mem, ".state", "queue", "failed"), 0o700)
	os.WriteFile(filepath.Join(mem, "inbox", "junk.bin"), []byte{0, 1, 2}, 0o644)
	old := time.Now().Add(-time.Minute)
	os.Chtimes(filepath.Join(mem, "inbox", "junk.bin"), old, old)
	fails(t, p, 1, "binary file", "queue", "run") // a rejected file is a failed job
	gitc(t, mem, "remote", "add", "backup", filepath.Join(t.TempDir(), "missing.git"))
	r = cairn(t, p, "", "doctor")
	if r.code != 1 {
		t.Fatalf("doctor: exit %d\n%s", r.code, r.stdout)
	}
	for _, want := range []string{
		"fail  hooks    ", "capture.sh does not exist", "fix: cairn init --claude",
		"fail  queue    pending 0, processing 0, failed 1", "fix: cairn queue list --state failed",
		"fail  remotes  backup (", "unreachable",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, r.stdout)
		}
	}
	// A remote that answers.
	gitc(t, mem, "remote", "remove", "backup")
	bare := filepath.Join(t.TempDir(), "ok.git")
	gitc(t, p, "init", "-q", "--bare", bare)
	gitc(t, mem, "remote", "add", "origin", bare)
	if r := cairn(t, p, "", "doctor"); !strings.Contains(r.stdout, "ok    remotes  origin ("+bare+") reachable") {
		t.Errorf("doctor:\n%s", r.stdout)
	}
}

// With hooks.prompt_context on, init registers the prompt hook and each
// prompt gets the memories that match it; off, it prints nothing.
func TestPromptContext(t *testing.T) {
	t.Parallel()
	p := project(t)
	if out, err := cairnProc(p, "", "init", "--claude").CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	ok(t, p, "remember", "--kind", "decision", "--title", "Job queue on PostgreSQL", "The job queue uses PostgreSQL with SKIP LOCKED, not Redis.")
	ok(t, p, "remember", "--kind", "fact", "--title", "Frontend build", "The frontend builds with Vite.")
	payload := []byte(`{"session_id":"5e1d2c3b-ffff","hook_event_name":"UserPromptSubmit","cwd":"` + p + `","prompt":"Which database does the job queue use?"}`)
	if out, _ := hookProc(t, p, payload, "user-prompt-submit"); out != "" {
		t.Errorf("prompt context off, printed %q", out)
	}
	settings := filepath.Join(p, ".claude", "settings.json")
	if data, _ := os.ReadFile(settings); strings.Contains(string(data), "user-prompt-submit") {
		t.Error("prompt hook registered while off")
	}

	yaml := filepath.Join(p, ".cairn", "cairn.yaml")
	cfg, _ := os.ReadFile(yaml)
	os.WriteFile(yaml, append(cfg, []byte("\nhooks:\n  prompt_context: true\n  prompt_memories: 1\n")...), 0o644)
	ok(t, p, "checkpoint", "-m", "prompt context on")
	if out, err := cairnProc(p, "", "init", "--claude").CombinedOutput(); err != nil || !strings.Contains(string(out), "hooks are in .claude/settings.json (") {
		t.Fatalf("init again: %v\n%s", err, out)
	}
	if data, _ := os.ReadFile(settings); !strings.Contains(string(data), binary+" hook user-prompt-submit") {
		t.Errorf("prompt hook not registered:\n%s", data)
	}
	out, errs := hookProc(t, p, payload, "user-prompt-submit")
	var o hooks.Output
	if err := json.Unmarshal([]byte(out), &o); err != nil || o.Specific == nil {
		t.Fatalf("printed %q (%v), stderr %q", out, err, errs)
	}
	c := o.Specific.AdditionalContext
	if o.Specific.HookEventName != "UserPromptSubmit" || !strings.Contains(c, "PostgreSQL") || strings.Contains(c, "Vite") {
		t.Errorf("context:\n%s", c)
	}
	// From another folder (Claude Code's cwd may be anywhere below or
	// beside the project), CLAUDE_PROJECT_DIR finds the memory.
	cmd := exec.Command(binary, "hook", "user-prompt-submit")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "CLAUDE_PROJECT_DIR="+p, "CAIRN_DIR=")
	cmd.Stdin = bytes.NewReader(payload)
	if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), "PostgreSQL") {
		t.Errorf("from another folder: %v %q", err, out)
	}
	// A slash command gets nothing.
	if out, _ := hookProc(t, p, []byte(`{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"/compact"}`), "user-prompt-submit"); out != "" {
		t.Errorf("slash command: %q", out)
	}
}

// With the daemon running, session-start asks it for the pack, leaves the
// recording to it, and says nothing about the sidecar.
func TestSessionStartWithDaemon(t *testing.T) {
	t.Parallel()
	p := project(t)
	if out, err := cairnProc(p, "", "init", "--claude").CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	ok(t, p, "remember", "--kind", "fact", "--pin", "--title", "Release day", "Releases are cut on Tuesdays.")
	if out, err := cairnProc(p, "", "daemon", "start").CombinedOutput(); err != nil {
		t.Fatalf("daemon start: %v\n%s", err, out)
	}
	defer cairnProc(p, "", "daemon", "stop").Run()
	const id = "5e1d2c3b-0000-4000-8000-0000000000dd"
	out, _ := hookProc(t, p, []byte(`{"session_id":"`+id+`","hook_event_name":"SessionStart","source":"startup","cwd":"`+p+`"}`), "session-start")
	ctxText, msg := sessionStartOutput(t, out)
	if msg != "" || !strings.Contains(ctxText, "Releases are cut on Tuesdays") {
		t.Errorf("systemMessage %q, context:\n%s", msg, ctxText)
	}
	// The daemon records the session from the queue.
	deadline := time.Now().Add(10 * time.Second)
	for !headFiles(t, p)["sessions/"+id+"/session.yaml"] {
		if time.Now().After(deadline) {
			t.Fatal("the daemon did not record the session")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A capture script that was changed (by hand, or by an old cairn that
// committed it and a sync) is put back from the binary at the next
// session start.
func TestSessionStartRestoresScript(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init", "--claude")
	script := filepath.Join(p, ".cairn", "hooks", "capture.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch pwned\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := cairn(t, p, `{"session_id":"5e1d2c3b-eeee","hook_event_name":"SessionStart","source":"startup"}`, "hook", "session-start")
	if r.code != 0 {
		t.Fatalf("session-start: %d %s", r.code, r.stderr)
	}
	got, _ := os.ReadFile(script)
	want, _ := hooks.Script(hooks.CaptureScript)
	if !bytes.Equal(got, want) {
		t.Errorf("capture.sh not restored:\n%s", got)
	}
	checkGit(t, p)
}

// A memory whose capture script an earlier cairn committed loses it from
// the history's tip at the next init --claude, and keeps it on disk,
// ignored.
func TestInitClaudeUncommitsScript(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	mem := filepath.Join(p, ".cairn")
	gi, _ := os.ReadFile(filepath.Join(mem, ".gitignore"))
	os.WriteFile(filepath.Join(mem, ".gitignore"), bytes.ReplaceAll(gi, []byte("/hooks/\n"), nil), 0o644)
	os.MkdirAll(filepath.Join(mem, "hooks"), 0o755)
	os.WriteFile(filepath.Join(mem, "hooks", "capture.sh"), []byte("#!/bin/sh\necho old\n"), 0o755)
	ok(t, p, "checkpoint", "-m", "an old install")
	if !headFiles(t, p)["hooks/capture.sh"] {
		t.Fatal("setup: script not committed")
	}
	ok(t, p, "init", "--claude")
	if headFiles(t, p)["hooks/capture.sh"] {
		t.Error("script still committed")
	}
	got, _ := os.ReadFile(filepath.Join(mem, "hooks", "capture.sh"))
	if want, _ := hooks.Script(hooks.CaptureScript); !bytes.Equal(got, want) {
		t.Errorf("script not reinstalled:\n%s", got)
	}
	checkGit(t, p)
}
