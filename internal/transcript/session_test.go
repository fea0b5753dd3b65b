package transcript

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateSessionID(t *testing.T) {
	t.Parallel()
	good := []string{
		"3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14", // Claude Code
		"0199a3c2-6f1e-7b20-9d4a-51c8e2f7a3b6", // Codex (UUIDv7)
		"01JDXK3V9M2Q7Y8Z4T6R5W1HBC",           // ULID
		"chat_2025-12-03.standup",
		"a",
		strings.Repeat("a", MaxSessionIDLen),
	}
	for _, id := range good {
		if err := ValidateSessionID(id); err != nil {
			t.Errorf("ValidateSessionID(%q) = %v, want nil", id, err)
		}
	}
	bad := []struct{ id, says string }{
		{"", "is empty"},
		{".", `starts with "."`},
		{"..", `starts with "."`},
		{".hidden", `starts with "."`},
		{"../etc/passwd", `starts with "."`},
		{"a/../../b", `contains ".."`},
		{"a..b", `contains ".."`},
		{"a/b", `contains '/'`},
		{`a\b`, `contains '\\'`},
		{"-rf", `starts with "-"`},
		{"a b", `contains ' '`},
		{"a\x00b", `contains '\x00'`},
		{"séance", `contains 'é'`},
		{"a\nb", `contains '\n'`},
		{strings.Repeat("a", MaxSessionIDLen+1), "is longer than 128 characters"},
	}
	for _, tt := range bad {
		err := ValidateSessionID(tt.id)
		if err == nil {
			t.Errorf("ValidateSessionID(%q) = nil, want an error", tt.id)
			continue
		}
		if !errors.Is(err, ErrInvalidSessionID) {
			t.Errorf("ValidateSessionID(%q) = %v, does not wrap ErrInvalidSessionID", tt.id, err)
		}
		if !strings.Contains(err.Error(), tt.says) {
			t.Errorf("ValidateSessionID(%q) = %q, want it to say %q", tt.id, err, tt.says)
		}
	}
}

func TestSessionIDFromPath(t *testing.T) {
	t.Parallel()
	tests := []struct{ path, want string }{
		{"/home/u/.claude/projects/-home-u-p/3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14.jsonl", "3f1c9a52-7d4e-4b8a-9c61-2e5f0d8b7a14"},
		{"/home/u/.codex/sessions/2025/12/02/rollout-2025-12-02T15-20-01-0199a3c2-6f1e-7b20-9d4a-51c8e2f7a3b6.jsonl", "0199a3c2-6f1e-7b20-9d4a-51c8e2f7a3b6"},
		{"rollout-2025-12-02T15-20-01-nope.jsonl", ""},
		{"/x/3f1c/subagents/agent-a7d2c9e4.jsonl", ""},
		{"notes.md", "notes"},
		{"..jsonl", ""},
		{".jsonl", ""},
	}
	for _, tt := range tests {
		if got := SessionIDFromPath(tt.path); got != tt.want {
			t.Errorf("SessionIDFromPath(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}
