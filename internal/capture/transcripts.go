package capture

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/rollout"
)

// TranscriptGlobs returns the transcript globs of the configuration with
// "~/", {claude-project}, {codex-home} and {gemini-project} expanded, as
// absolute patterns for the watcher.
func TranscriptGlobs(m *memory.Memory) []string {
	globs := m.Config.Capture.Transcripts
	if len(globs) == 0 {
		globs = config.DefaultTranscripts
	}
	home, _ := os.UserHomeDir()
	out := make([]string, 0, len(globs))
	for _, g := range globs {
		g = strings.ReplaceAll(g, "{claude-project}", ClaudeProjectName(m.Project))
		if strings.Contains(g, "{codex-home}") {
			if home == "" && !filepath.IsAbs(os.Getenv("CODEX_HOME")) {
				continue
			}
			g = strings.ReplaceAll(g, "{codex-home}", rollout.Home(os.Getenv("CODEX_HOME"), home))
		}
		if strings.Contains(g, "{gemini-project}") {
			g = strings.ReplaceAll(g, "{gemini-project}", GeminiProjectName(home, m.Project))
		}
		if rest, ok := strings.CutPrefix(g, "~/"); ok {
			if home == "" {
				continue
			}
			g = filepath.Join(home, rest)
		}
		if !filepath.IsAbs(g) {
			g = filepath.Join(m.Project, g)
		}
		out = append(out, filepath.Clean(g))
	}
	return out
}

// ClaudeProjectName is the name Claude Code gives a project's folder under
// ~/.claude/projects, as Claude Code 2.x derives it: the absolute path
// with every UTF-16 code unit that is not an ASCII letter or digit
// replaced by "-" (JavaScript's path.replace(/[^a-zA-Z0-9]/g, "-"): "."
// "_" and " " too, one "-" per character of the Basic Multilingual
// Plane, two for one beyond it), and, when that is longer than 200, its
// first 200 followed by "-" and a hash of the path in base 36 (the
// absolute value of the 32-bit h = h*31 + unit over its UTF-16 code
// units), so that the name fits in a folder's.
func ClaudeProjectName(project string) string {
	units := utf16.Encode([]rune(project))
	b := make([]byte, len(units))
	var h int32
	for i, u := range units {
		if u < utf8.RuneSelf && (u >= 'a' && u <= 'z' || u >= 'A' && u <= 'Z' || u >= '0' && u <= '9') {
			b[i] = byte(u)
		} else {
			b[i] = '-'
		}
		h = h<<5 - h + int32(u) // wraps as JavaScript's |0 does
	}
	if len(b) <= claudeNameMax {
		return string(b)
	}
	return string(b[:claudeNameMax]) + "-" + strconv.FormatInt(abs64(int64(h)), 36)
}

// claudeNameMax is the length past which Claude Code cuts a project's
// folder name and adds a hash.
const claudeNameMax = 200

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// GeminiProjectName is the name of a project's folder under
// ~/.gemini/tmp: the short name ~/.gemini/projects.json gives its path
// ({"projects": {path: name}}), or, for a project Gemini CLI has not
// named (or a release before it named them), the SHA-256 of its path.
func GeminiProjectName(home, project string) string {
	if home != "" {
		var reg struct {
			Projects map[string]string `json:"projects"`
		}
		if data, err := os.ReadFile(filepath.Join(home, ".gemini", "projects.json")); err == nil && json.Unmarshal(data, &reg) == nil {
			if name := reg.Projects[project]; name != "" && filepath.IsLocal(name) && !strings.ContainsAny(name, `/\*?[`) {
				return name
			}
		}
	}
	sum := sha256.Sum256([]byte(project))
	return hex.EncodeToString(sum[:])
}

// TranscriptAllowed reports whether path may be read as an agent
// transcript on behalf of a job or a hook payload, which anyone who can
// write to the inbox can forge: it must match one of the configured
// globs (Codex's rollouts among them), or lie where Claude Code or Gemini
// CLI keeps transcripts, and never inside the memory's own state (where
// the summarizer's own sessions live).
func TranscriptAllowed(m *memory.Memory, path string) bool {
	if !filepath.IsAbs(path) || filepath.Clean(path) != path || under(path, filepath.Join(m.Dir, ".state")) {
		return false
	}
	globs := TranscriptGlobs(m)
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		globs = append(globs,
			filepath.Join(home, ".gemini", "tmp", "*", "chats", "session-*.jsonl"),
			filepath.Join(home, ".claude", "projects", "*", "*.jsonl"),
			filepath.Join(home, ".claude", "projects", "*", "*", "subagents", "*.jsonl"))
	}
	for _, g := range globs {
		if ok, _ := filepath.Match(g, path); ok {
			return true
		}
	}
	return false
}

// InternalPath reports whether a path lies where cairn's own summarizer
// runs its agent sessions (.state/summarize, the claude provider's
// configuration folder and working folder): they are never captured.
func InternalPath(m *memory.Memory, path string) bool {
	return path != "" && under(path, m.StatePath("summarize"))
}

// under reports whether path is dir or lies below it.
func under(path, dir string) bool {
	rel, err := filepath.Rel(dir, filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// projectRollout reports whether path, when it is one of Codex's rollouts
// (which lie in one tree for every project), is one of the project's: its
// session ran in the project's folder or below. Other transcripts are.
func projectRollout(m *memory.Memory, path string) bool {
	if !rollout.Is(path) {
		return true
	}
	cwd, err := rollout.CWD(path)
	return err == nil && rollout.Inside(cwd, m.Project)
}
