package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/capture/follow"
)

// The summarize section of cairn.yaml picks the provider; an unknown one
// falls back to the extractive summariser with an error.
func TestSummarizerConfig(t *testing.T) {
	m := testMemory(t)
	m.Config.Summarize.Provider = "gpt-9"
	if sum, err := Summarizer(m, os.Getenv); err == nil || sum == nil {
		t.Errorf("unknown provider: %v", err)
	}
}

// The default transcript globs follow the project's Claude Code folder,
// Codex's rollouts, under $CODEX_HOME when it is set, and its Gemini CLI
// chats, under the name ~/.gemini/projects.json gives the project or,
// without one, the SHA-256 of its path.
func TestTranscriptGlobs(t *testing.T) {
	m := testMemory(t)
	t.Setenv("CODEX_HOME", "/srv/codex")
	globs := follow.Globs(m)
	if len(globs) != 4 || !strings.Contains(globs[0], "/.claude/projects/"+follow.ClaudeProjectName(m.Project)+"/") || !filepath.IsAbs(globs[0]) ||
		globs[2] != "/srv/codex/sessions/*/*/*/rollout-*.jsonl" {
		t.Errorf("globs: %q", globs)
	}
	sum := sha256.Sum256([]byte(m.Project))
	if want := "/.gemini/tmp/" + hex.EncodeToString(sum[:]) + "/chats/session-*.jsonl"; !strings.HasSuffix(globs[3], want) {
		t.Errorf("gemini glob %q, want …%s", globs[3], want)
	}
	home, _ := os.UserHomeDir()
	os.MkdirAll(filepath.Join(home, ".gemini"), 0o755)
	reg := `{"projects": {"/elsewhere": "other", ` + strconv.Quote(m.Project) + `: "proj-1"}}`
	os.WriteFile(filepath.Join(home, ".gemini", "projects.json"), []byte(reg), 0o644)
	if g := follow.Globs(m)[3]; g != filepath.Join(home, ".gemini", "tmp", "proj-1", "chats", "session-*.jsonl") {
		t.Errorf("gemini glob with a registry: %q", g)
	}
	chat := filepath.Join(home, ".gemini", "tmp", "proj-1", "chats", "session-2026-12-01T23-55-3f2a9c1e.jsonl")
	os.MkdirAll(filepath.Dir(chat), 0o755)
	os.WriteFile(chat, []byte("{}\n"), 0o644)
	if err := follow.Check(m, chat); err != nil {
		t.Errorf("a Gemini chat is not allowed: %v", err)
	}
}
