package memory

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/redact"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// CaptureConfig is the capture: section of cairn.yaml: how agent sessions
// become memory. Zero means the default; ParseConfig refuses negative
// numbers (the default is then used, with a warning).
type CaptureConfig struct {
	// SegmentTurns and SegmentTokens say when a segment of a session is
	// due for its summary: after this many turns (prompts, assistant
	// texts, tool calls) or this many estimated tokens of them, whichever
	// comes first. Stop, PreCompact and SessionEnd, and the end of an
	// ingest, summarise what is pending whatever its size.
	SegmentTurns  int `yaml:"segment_turns"`
	SegmentTokens int `yaml:"segment_tokens"`
	// ArchiveAfter is how long a session may stay without activity before
	// it moves from sessions/ to archive/<yyyy>/<mm>/.
	ArchiveAfter Duration `yaml:"archive_after"`
	// Transcripts are the globs of agent transcripts the daemon follows
	// and hook payloads may point at. "~/" is the home folder and
	// {claude-project} the project's folder as Claude Code names it
	// (every character but letters and digits replaced by "-").
	Transcripts []string `yaml:"transcripts"`
	// MaxOutput bounds, in bytes, a tool's output kept for the summarizer
	// and for an error in transcript.md; longer ones keep their head and
	// tail.
	MaxOutput int `yaml:"max_output"`
	// Redact adds patterns to the built-in secret detection, and an
	// allowlist of values that are not secrets.
	Redact redact.Config `yaml:"redact"`
}

// SummarizeConfig is the summarize: section of cairn.yaml: the provider
// of segment summaries, its model, endpoint and daily token budget (see
// summarize.Config), and how often a failing call is tried.
type SummarizeConfig struct {
	summarize.Config `yaml:",inline"`
	// Attempts is how many times a model provider tries a call that failed
	// for a reason that may pass (timeouts, HTTP 429 and 5xx) before the
	// built-in summarizer steps in; 0 means 3.
	Attempts int `yaml:"attempts"`
	// Backoff is the wait before the second try, doubled before each next;
	// 0 means 1s.
	Backoff Duration `yaml:"backoff"`
}

// Defaults of CaptureConfig.
const (
	DefaultSegmentTurns  = 40
	DefaultSegmentTokens = 8000
	DefaultArchiveAfter  = 7 * 24 * time.Hour
	DefaultMaxOutput     = 2000
)

// DefaultTranscripts are the transcript globs followed unless cairn.yaml
// says otherwise: the project's Claude Code sessions and their subagents.
var DefaultTranscripts = []string{
	"~/.claude/projects/{claude-project}/*.jsonl",
	"~/.claude/projects/{claude-project}/*/subagents/*.jsonl",
}

func (c CaptureConfig) SegmentTurnsOr() int { return positive(c.SegmentTurns, DefaultSegmentTurns) }
func (c CaptureConfig) SegmentTokensOr() int {
	return positive(c.SegmentTokens, DefaultSegmentTokens)
}
func (c CaptureConfig) MaxOutputOr() int { return max(positive(c.MaxOutput, DefaultMaxOutput), 256) }

// archiveAfter is the inactivity after which sessions are archived.
func (c CaptureConfig) archiveAfter() time.Duration {
	if c.ArchiveAfter <= 0 {
		return DefaultArchiveAfter
	}
	return time.Duration(c.ArchiveAfter)
}

func positive(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// TranscriptGlobs returns the transcript globs of the configuration with
// "~/" and {claude-project} expanded, as absolute patterns for the
// watcher.
func (m *Memory) TranscriptGlobs() []string {
	globs := m.Config.Capture.Transcripts
	if len(globs) == 0 {
		globs = DefaultTranscripts
	}
	home, _ := os.UserHomeDir()
	out := make([]string, 0, len(globs))
	for _, g := range globs {
		g = strings.ReplaceAll(g, "{claude-project}", ClaudeProjectName(m.Project))
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
// ~/.claude/projects: its absolute path with every character that is not
// an ASCII letter or digit replaced by "-".
func ClaudeProjectName(project string) string {
	b := []byte(project)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// TranscriptAllowed reports whether path may be read as an agent
// transcript on behalf of a job or a hook payload, which anyone who can
// write to the inbox can forge: it must match one of the configured
// globs, or lie where Claude Code keeps transcripts, and never inside the
// memory's own state (where the summarizer's own sessions live).
func (m *Memory) TranscriptAllowed(path string) bool {
	if !filepath.IsAbs(path) || filepath.Clean(path) != path || under(path, filepath.Join(m.Dir, ".state")) {
		return false
	}
	globs := m.TranscriptGlobs()
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		globs = append(globs,
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
func (m *Memory) InternalPath(path string) bool {
	return path != "" && under(path, m.store.StatePath("summarize"))
}

// under reports whether path is dir or lies below it.
func under(path, dir string) bool {
	rel, err := filepath.Rel(dir, filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
