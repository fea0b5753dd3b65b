package server

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Codex writes every project's rollouts into one tree: the daemon follows
// this project's (session_meta's cwd at or inside it) without any hook,
// and leaves the others alone.
func TestDaemonFollowsCodexRollouts(t *testing.T) {
	codexHome := filepath.Join(t.TempDir(), "codex")
	t.Setenv("CODEX_HOME", codexHome)
	d := &Daemon{Mem: newMemory(t)}
	serveDaemon(t, d)
	m := d.Mem

	src, err := os.ReadFile("../../testdata/transcripts/codex/rollout-2025-12-02T15-20-01-0199a3c2-6f1e-7b20-9d4a-51c8e2f7a3b6.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	day := filepath.Join(codexHome, "sessions", "2025", "12", "02")
	write := func(id, cwd string) {
		t.Helper()
		data := strings.ReplaceAll(string(src), "/home/dev/src/tidepool", cwd)
		data = strings.ReplaceAll(data, "0199a3c2-6f1e-7b20-9d4a-51c8e2f7a3b6", id)
		os.MkdirAll(day, 0o755)
		if err := os.WriteFile(filepath.Join(day, "rollout-2025-12-02T15-20-01-"+id+".jsonl"), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const ours, theirs = "0199a3c2-0000-7b20-9d4a-0000000000a1", "0199a3c2-0000-7b20-9d4a-0000000000b2"
	write(theirs, filepath.Join(filepath.Dir(m.Project), "elsewhere"))
	write(ours, filepath.Join(m.Project, "internal", "queue"))
	waitFor(t, "this project's rollout to be captured", func() bool {
		out, _ := exec.Command("git", "-C", m.Dir, "log", "--format=%b").CombinedOutput()
		return strings.Contains(string(out), "Cairn-Session: "+ours)
	})
	time.Sleep(time.Second) // the other one had as long
	d.ops.do(func() {
		y := gitOut(t, m.Dir, "show", "HEAD:sessions/"+ours+"/session.yaml")
		if !strings.Contains(y, "agent: codex") || !strings.Contains(y, "format: codex") {
			t.Errorf("session.yaml:\n%s", y)
		}
		if _, err := m.Sessions().Find(theirs); err == nil {
			t.Error("another project's rollout was captured")
		}
	})
}
