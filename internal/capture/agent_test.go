package capture

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-mem/cairn/internal/model"
)

// A payload tagged by cairn hook --agent records its agent on the session
// it starts, with or without a transcript; a Codex payload's
// transcript_path is read as a rollout when its session ran in the
// project, and another project's rollout is not read (the payload's own
// prompt is captured).
func TestCaptureHookAgent(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	codexHome := filepath.Join(t.TempDir(), "codex")
	t.Setenv("CODEX_HOME", codexHome)
	src, err := os.ReadFile("../../testdata/transcripts/codex/rollout-2026-11-28T08-12-44-019ac9f0-3d21-7c40-8e15-6b2f90d1c7aa.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// The sample ran in /home/dev/src/harbor: here, in the project, and
	// under another name, in another project.
	rollout := filepath.Join(codexHome, "sessions", "2026", "11", "28", "rollout-2026-11-28T08-12-44-019ac9f0-3d21-7c40-8e15-6b2f90d1c7aa.jsonl")
	others := filepath.Join(codexHome, "sessions", "2026", "11", "28", "rollout-2026-11-28T08-12-44-019ac9f0-3d21-7c40-8e15-6b2f90d1c7cc.jsonl")
	os.MkdirAll(filepath.Dir(rollout), 0o755)
	if err := os.WriteFile(rollout, bytes.ReplaceAll(src, []byte(`"cwd":"/home/dev/src/harbor"`), fmt.Appendf(nil, "%q:%q", "cwd", m.Project)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(others, src, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, session, tag, path string
		agent                    string
		prompts                  int
	}{
		{"codex, rollout", "019ac9f0-3d21-7c40-8e15-6b2f90d1c7aa", `"cairn_agent":"codex",`, rollout, model.AgentCodex, 1},
		{"codex, another project's rollout", "019ac9f0-3d21-7c40-8e15-6b2f90d1c7cc", `"cairn_agent":"codex",`, others, model.AgentCodex, 1},
		{"codex, no transcript", "019ac9f0-0000-7c40-8e15-6b2f90d1c7bb", `"cairn_agent":"codex",`, "", model.AgentCodex, 1},
		{"gemini", "3f0c9e8a-1111-4b2c-9d3e-2a1b0c9d8e7f", `"cairn_agent":"gemini",`, "", model.AgentGemini, 1},
		{"claude, untagged", "5e1d2c3b-0000-4000-8000-0000000a9e01", ``, "", model.AgentClaudeCode, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			payload := fmt.Sprintf(`{%s"session_id":%q,"transcript_path":%q,"cwd":"/home/dev/src/harbor","hook_event_name":"UserPromptSubmit","prompt":"The retry test in pkg/retry is flaky. Find out why."}`,
				tc.tag, tc.session, tc.path)
			res, err := CaptureHook(ctx, m, []byte(payload))
			if err != nil {
				t.Fatal(err)
			}
			e, err := m.Sessions().Find(tc.session)
			if err != nil {
				t.Fatal(err)
			}
			if e.Session.Agent != tc.agent || res.Agent != tc.agent || res.Prompts != tc.prompts {
				t.Errorf("agent %q (result %q), %d prompts; want %q, %d", e.Session.Agent, res.Agent, res.Prompts, tc.agent, tc.prompts)
			}
			if tc.path == others {
				if src := e.Session.SourceNamed(filepath.Base(tc.path), false); src != nil || res.Events != 1 {
					t.Errorf("another project's rollout read: source %+v, %d events", src, res.Events)
				}
			} else if tc.path != "" {
				if src := e.Session.SourceNamed(filepath.Base(tc.path), false); src == nil || src.Format != "codex" || res.Events < 10 {
					t.Errorf("source %+v, %d events", src, res.Events)
				}
			}
		})
	}
}
