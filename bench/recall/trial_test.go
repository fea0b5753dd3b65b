package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Attachment lines as Claude Code 2.1.197 writes them (the pack cut
// short), around lines of other kinds.
const (
	startLine   = `{"type":"attachment","attachment":{"type":"hook_success","hookName":"SessionStart:startup","toolUseID":"a3","hookEvent":"SessionStart","content":"","stdout":"{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"# Project memory (cairn)\\n\\n- We use port 8123.\\n\"}}\n","stderr":"","exitCode":0,"command":"/bin/cairn hook session-start","durationMs":252}}`
	contextLine = `{"type":"attachment","attachment":{"type":"hook_additional_context","content":["# Project memory (cairn)\n\n- We use port 8123.\n"],"hookName":"SessionStart","toolUseID":"SessionStart","hookEvent":"SessionStart"}}`
	resumeLine  = `{"type":"attachment","attachment":{"type":"hook_success","hookName":"SessionStart:resume","hookEvent":"SessionStart","content":"","stdout":"{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"later\"}}\n","stderr":"cairn: slow\n","exitCode":0}}`
	failedLine  = `{"type":"attachment","attachment":{"type":"hook_non_blocking_error","hookName":"SessionStart:startup","hookEvent":"SessionStart","stderr":"boom","exitCode":1}}`
	otherLines  = `{"type":"queue-operation","operation":"enqueue"}
{"type":"user","message":{"role":"user","content":"We use port 8123."}}
{"type":"attachment","attachment":{"type":"skill_listing","content":"- init"}}
`
)

func TestStartPack(t *testing.T) {
	tr := otherLines + startLine + "\n" + contextLine + "\n" + resumeLine + "\n"
	hl := hookLines([]byte(tr))
	if len(hl) != 2 {
		t.Fatalf("%d hook results, want the 2 hook_success lines: %+v", len(hl), hl)
	}
	pack, ok := startPack(hl)
	if !ok || pack != "# Project memory (cairn)\n\n- We use port 8123.\n" {
		t.Errorf("pack %q (%v), want the startup hook's additionalContext", pack, ok)
	}
	if e := hl[0].failure(); e != "" {
		t.Errorf("the startup hook failed: %s", e)
	}
	if e := hl[1].failure(); !strings.Contains(e, "stderr: cairn: slow") {
		t.Errorf("failure of a hook that printed on stderr: %q", e)
	}
}

func TestStartPackFailedOrMissing(t *testing.T) {
	hl := hookLines([]byte(failedLine + "\n" + resumeLine + "\n"))
	pack, ok := startPack(hl)
	if !ok || pack != "" {
		t.Errorf("a failed session start gave pack %q (%v), want an empty pack", pack, ok)
	}
	if e := hl[0].failure(); !strings.Contains(e, "hook_non_blocking_error: boom") {
		t.Errorf("failure %q", e)
	}
	if _, ok := startPack(hookLines([]byte(otherLines))); ok {
		t.Error("a transcript without hook results gave a pack")
	}
}

func TestInboxEmpties(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Minute)
	for name, content := range map[string]string{"hook-1-1.json": "", "hook-2-2.json": "", "hook-3-3.json": "{}"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// hook-2 is still being written: its writer touched it just now.
	for _, name := range []string{"hook-1-1.json", "hook-3-3.json"} {
		if err := os.Chtimes(filepath.Join(dir, name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	files, empty := inbox(dir)
	if empty != 1 {
		t.Errorf("%d empty payloads left by their writers, want 1 (%s)", empty, files)
	}
	if want := "hook-1-1.json (0 bytes), hook-2-2.json (0 bytes), hook-3-3.json (2 bytes)"; files != want {
		t.Errorf("inbox lists %q, want %q", files, want)
	}
}
