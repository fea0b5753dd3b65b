package transcript

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// MaxSessionIDLen is the longest session id accepted.
const MaxSessionIDLen = 128

// ErrInvalidSessionID is wrapped by every error ValidateSessionID returns.
var ErrInvalidSessionID = errors.New("invalid session id")

// ValidateSessionID checks that a session id coming from outside (a hook, a
// transcript, a command line) is safe to use as a directory name. It accepts
// what agents produce (UUIDs, ULIDs, and in general 1 to 128 of
// [A-Za-z0-9._-]) and rejects anything else: path separators, "..", a
// leading dot (hidden files, "." itself), a leading dash (read as a flag by
// commands). The error says why and wraps ErrInvalidSessionID.
func ValidateSessionID(id string) error {
	why := ""
	switch {
	case id == "":
		why = "is empty"
	case len(id) > MaxSessionIDLen:
		why = fmt.Sprintf("is longer than %d characters", MaxSessionIDLen)
	case id[0] == '.':
		why = `starts with "."`
	case id[0] == '-':
		why = `starts with "-"`
	case strings.Contains(id, ".."):
		why = `contains ".."`
	default:
		for _, r := range id {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-') {
				why = fmt.Sprintf("contains %q (allowed: letters, digits, '.', '_', '-')", r)
				break
			}
		}
	}
	if why == "" {
		return nil
	}
	shown := id
	if len(shown) > 40 {
		shown = shown[:40] + "…"
	}
	return fmt.Errorf("session id %q %s: %w", shown, why, ErrInvalidSessionID)
}

// SessionIDFromPath returns the session id a transcript's file name gives:
// Claude Code's <session-id>.jsonl, Codex's rollout-<time>-<uuid>.jsonl.
// It returns "" when the name gives no valid id (a subagent's
// agent-<id>.jsonl names its agent, not its session; Gemini CLI's
// session-<time>-<id8>.jsonl an eighth of it).
func SessionIDFromPath(path string) string {
	name := filepath.Base(path)
	name = strings.TrimSuffix(name, filepath.Ext(name))
	if strings.HasPrefix(name, "agent-") || strings.HasPrefix(name, "session-") {
		return "" // Gemini CLI's session-<time>-<id8> holds a part of the id
	}
	if rest, ok := strings.CutPrefix(name, "rollout-"); ok {
		const uuidLen = 36
		if len(rest) < uuidLen || !isUUID(rest[len(rest)-uuidLen:]) {
			return ""
		}
		name = rest[len(rest)-uuidLen:]
	}
	if ValidateSessionID(name) != nil {
		return ""
	}
	return name
}

// isUUID reports whether s is a UUID in its 8-4-4-4-12 hex form.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}
