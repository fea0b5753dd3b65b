package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With a daemon running, cairn checkpoint is done by the daemon (its
// monitor finds the hand edit), and the repository is as git expects.
func TestCheckpointThroughDaemon(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	start := cairnProc(p, "", "daemon", "start")
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("daemon start: %v\n%s", err, out)
	}
	defer cairnProc(p, "", "daemon", "stop").Run()
	var st daemonState
	if err := json.Unmarshal([]byte(ok(t, p, "daemon", "status", "--json")), &st); err != nil || !st.Running || !strings.HasPrefix(st.URL, "http://127.0.0.1:") {
		t.Fatalf("daemon status = %+v, %v", st, err)
	}
	os.WriteFile(filepath.Join(p, ".cairn", "hand.md"), []byte("by hand\n"), 0o644)
	out := ok(t, p, "checkpoint", "-m", "through the daemon")
	if len(strings.TrimSpace(out)) != 40 {
		t.Errorf("checkpoint printed %q, want a commit id", out)
	}
	if s := gitc(t, filepath.Join(p, ".cairn"), "log", "-1", "--format=%s"); s != "through the daemon\n" {
		t.Errorf("last commit: %q", s)
	}
	checkGit(t, p)
	if out := ok(t, p, "checkpoint"); out != "nothing to checkpoint\n" {
		t.Errorf("second checkpoint said %q", out)
	}
}
