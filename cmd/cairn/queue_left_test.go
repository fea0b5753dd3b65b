package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 13: queue run right after a hook takes the hook's payload (it
// came by rename) at once, says why it leaves a file written in place,
// and cleans up what a killed hook left.
func TestQueueRunSaysWhy(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	inbox := filepath.Join(p, ".cairn", "inbox")
	os.MkdirAll(inbox, 0o700)
	payload := fmt.Sprintf(`{"session_id":"s13","cwd":%q,"hook_event_name":"UserPromptSubmit","prompt":"we use go-chi"}`, p)
	write := func(name, data string, age time.Duration) {
		t.Helper()
		f := filepath.Join(inbox, name)
		if err := os.WriteFile(f, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		os.Chtimes(f, at, at)
	}
	write(fmt.Sprintf("hook-%d-42.json", time.Now().UnixNano()), payload, 0)
	write("notes.md", "# Notes\n\nbeing written\n", 0)
	write(".hook-1-7.tmp", "", 2*time.Minute)
	r := cairn(t, p, "", "queue", "run")
	if r.code != 0 || !strings.Contains(r.stdout, "1 job(s) done, 0 failed") ||
		!strings.Contains(r.stdout, "1 job left:\n  notes.md: written in place, taken once unchanged for a moment") ||
		!strings.Contains(r.stdout, "removed 1 empty or cut-short payload file") {
		t.Errorf("queue run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(inbox, ".hook-1-7.tmp")); !os.IsNotExist(err) {
		t.Errorf("the empty temporary file is still there: %v", err)
	}
}
