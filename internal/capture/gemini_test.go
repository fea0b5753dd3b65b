package capture

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/model"
)

// A Gemini CLI chat file the daemon follows, caught up as it grows: each
// message once, the last one held back while Gemini may append it again,
// the session recorded as Gemini's under the id of the file's first line.
func TestCatchUpGeminiChat(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	data, err := os.ReadFile("../transcript/gemini/testdata/session-2026-12-01T23-55-3f2a9c1e.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	path := filepath.Join(home, ".gemini", "tmp", follow.GeminiProjectName(home, m.Project), "chats", "session-2026-12-01T23-55-3f2a9c1e.jsonl")
	if ok, _ := filepath.Match(follow.Globs(m)[3], path); !ok {
		t.Fatalf("%s is not followed (%v)", path, follow.Globs(m))
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	lines := bytes.SplitAfter(data, []byte("\n"))
	total := 0
	for _, upTo := range []int{3, 5, 8, len(lines)} {
		os.WriteFile(path, bytes.Join(lines[:upTo], nil), 0o644)
		res, err := CatchUpTranscript(ctx, m, path, upTo == len(lines))
		if err != nil {
			t.Fatalf("%d lines: %v", upTo, err)
		}
		total += res.Events
	}
	const id = "3f2a9c1e-7b4d-4e2a-9c1e-5d6f7a8b9c0d"
	e, err := m.Sessions().Find(id)
	if err != nil {
		t.Fatal(err)
	}
	if e.Agent != model.AgentGemini {
		t.Errorf("agent %q", e.Agent)
	}
	tr := readRepo(t, m, "sessions/"+id+"/transcript.md")
	for _, want := range []string{"Why does TestQueueDrain fail", "`run_shell_command: go test ./queue/` → **failed** (exit 1)", "q.Done()", "go test -count=3 ./queue/"} {
		if strings.Count(tr, want) != 1 {
			t.Errorf("transcript.md has %q %d times:\n%s", want, strings.Count(tr, want), tr)
		}
	}
	if total < 10 {
		t.Errorf("%d events captured", total)
	}
}
