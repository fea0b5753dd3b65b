package capture

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// The default transcript globs follow the project's Claude Code folder
// and Codex's rollouts, under $CODEX_HOME when it is set.
func TestTranscriptGlobs(t *testing.T) {
	m := testMemory(t)
	t.Setenv("CODEX_HOME", "/srv/codex")
	globs := TranscriptGlobs(m)
	if len(globs) != 3 || !strings.Contains(globs[0], "/.claude/projects/"+ClaudeProjectName(m.Project)+"/") || !filepath.IsAbs(globs[0]) ||
		globs[2] != "/srv/codex/sessions/*/*/*/rollout-*.jsonl" {
		t.Errorf("globs: %q", globs)
	}
}
