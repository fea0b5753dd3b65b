package config

import (
	"time"

	"github.com/cairn-mem/cairn/internal/redact"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// Capture is the capture: section of cairn.yaml: how agent sessions
// become memory. Zero means the default; Parse refuses negative
// numbers (the default is then used, with a warning).
type Capture struct {
	// SegmentTurns and SegmentTokens say when a segment of a session is
	// due for its summary: after this many turns (prompts, assistant
	// texts, tool calls) or this many estimated tokens of them, whichever
	// comes first, cut before a prompt where possible so that a prompt and
	// its answer share a segment. A Stop cuts nothing; SessionEnd, a
	// compaction, the end of an ingest and a session found ended at the
	// next session start summarise what is pending whatever its size.
	SegmentTurns  int `yaml:"segment_turns"`
	SegmentTokens int `yaml:"segment_tokens"`
	// ArchiveAfter is how long a session may stay without activity before
	// it moves from sessions/ to archive/<yyyy>/<mm>/.
	ArchiveAfter Duration `yaml:"archive_after"`
	// TranscriptsKeep is how long an archived session keeps its
	// transcript.md in the work tree, counted from its last activity; 0
	// (the default) keeps it. Dropping it is a checkpoint: history keeps
	// the file, and cairn restore brings it back. The daemon and cairn gc
	// apply it.
	TranscriptsKeep Duration `yaml:"transcripts_keep"`
	// KeepSummariesOnly, once TranscriptsKeep has passed, drops
	// prompts.md and observations.md with the transcript, so that only
	// session.yaml and summary.md remain.
	KeepSummariesOnly bool `yaml:"keep_summaries_only"`
	// Transcripts are the globs of agent transcripts the daemon follows
	// and hook payloads may point at. "~/" is the home folder,
	// {claude-project} the project's folder as Claude Code names it
	// (every character but letters and digits replaced by "-":
	// follow.ClaudeProjectName),
	// {gemini-project} as Gemini CLI does (follow.GeminiProjectName) and
	// {codex-home} Codex's folder (${CODEX_HOME:-~/.codex}); of Codex's
	// rollouts, only those of sessions run in the project are followed.
	// Whatever the globs, a transcript is read only as a regular file,
	// never through a symbolic link (follow.Open).
	Transcripts []string `yaml:"transcripts"`
	// MaxOutput bounds, in bytes, a tool's output kept for the summarizer
	// and for an error in transcript.md; longer ones keep their head and
	// tail.
	MaxOutput int `yaml:"max_output"`
	// Redact adds patterns to the built-in secret detection, and an
	// allowlist of values that are not secrets.
	Redact redact.Config `yaml:"redact"`
}

// Summarize is the summarize: section of cairn.yaml: the provider
// of segment summaries, its model, endpoint and daily token budget (see
// summarize.Config), and how often a failing call is tried.
type Summarize struct {
	summarize.Config `yaml:",inline"`
	// Attempts is how many times a model provider tries a call that failed
	// for a reason that may pass (timeouts, HTTP 429 and 5xx) before the
	// built-in summarizer steps in; 0 means 3.
	Attempts int `yaml:"attempts"`
	// Backoff is the wait before the second try, doubled before each next;
	// 0 means 1s.
	Backoff Duration `yaml:"backoff"`
}

// Defaults of Capture.
const (
	DefaultSegmentTurns  = 40
	DefaultSegmentTokens = 8000
	DefaultArchiveAfter  = 7 * 24 * time.Hour
	DefaultMaxOutput     = 2000
)

// DefaultTranscripts are the transcript globs followed unless cairn.yaml
// says otherwise: the project's Claude Code sessions and their subagents,
// Codex's rollouts and the project's Gemini CLI chats.
var DefaultTranscripts = []string{
	"~/.claude/projects/{claude-project}/*.jsonl",
	"~/.claude/projects/{claude-project}/*/subagents/*.jsonl",
	"{codex-home}/sessions/*/*/*/rollout-*.jsonl",
	"~/.gemini/tmp/{gemini-project}/chats/session-*.jsonl",
}

func (c Capture) SegmentTurnsOr() int { return positive(c.SegmentTurns, DefaultSegmentTurns) }
func (c Capture) SegmentTokensOr() int {
	return positive(c.SegmentTokens, DefaultSegmentTokens)
}
func (c Capture) MaxOutputOr() int { return max(positive(c.MaxOutput, DefaultMaxOutput), 256) }

// ArchiveAfterOr is the inactivity after which sessions are archived.
func (c Capture) ArchiveAfterOr() time.Duration {
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
