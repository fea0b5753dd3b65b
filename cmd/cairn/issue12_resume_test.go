package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Issue 12, item 18: session resume prints and changes nothing; with
// --activate the session becomes active again.
func TestSessionResumePrintsOnly(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	mem := filepath.Join(p, ".cairn")
	ok(t, p, "ingest", filepath.Join(transcripts, "claude/basic.jsonl"))
	basic := "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14"
	ok(t, p, "session", "suspend", basic)
	head := gitc(t, mem, "rev-parse", "HEAD")
	if out := ok(t, p, "session", "resume", basic); !strings.Contains(out, "# Session "+basic+" (claude-code, suspended)") {
		t.Errorf("resume:\n%s", out)
	}
	if h := gitc(t, mem, "rev-parse", "HEAD"); h != head {
		t.Error("resume without --activate made a commit")
	}
	if out := ok(t, p, "session", "show", basic); !strings.Contains(out, "status: suspended") {
		t.Errorf("after resume:\n%s", out)
	}
	r := cairn(t, p, "", "session", "resume", "--activate", basic)
	if r.code != 0 || !strings.Contains(r.stdout, "# Session "+basic) || !strings.Contains(r.stderr, "active") {
		t.Errorf("resume --activate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if out := ok(t, p, "session", "show", basic); !strings.Contains(out, "status: active") {
		t.Errorf("after resume --activate:\n%s", out)
	}
	checkGit(t, p)
}
