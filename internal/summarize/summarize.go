package summarize

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/summarize/cue"
)

// Role says who produced a Turn.
type Role string

// The roles of a turn.
const (
	User      Role = "user"      // the user's own words
	Assistant Role = "assistant" // what the agent said
	Tool      Role = "tool"      // a tool call and its result, as one turn
)

// Turn is one step of a session: a prompt, a piece of assistant text, or a
// tool call paired with its result. Text is already redacted and cut to a
// sensible size by the caller: summarizers send it to models as it is.
type Turn struct {
	Role Role      `json:"role"`
	Time time.Time `json:"time,omitzero"`
	// Text is the prompt, the assistant's text, or the tool's output (or
	// error message).
	Text string `json:"text,omitempty"`
	// Tool is the tool's name as the agent calls it: Bash, Read, Edit,
	// Write, Grep, apply_patch, shell, …
	Tool string `json:"tool,omitempty"`
	// Input says in one line what the tool was given: the command for a
	// shell, the path for a file tool, the pattern for a search. A leading
	// "Tool: " is ignored.
	Input string `json:"input,omitempty"`
	// ExitCode is a shell command's exit status, nil when unknown.
	ExitCode *int `json:"exit_code,omitempty"`
	// IsError marks a tool call that failed.
	IsError bool `json:"is_error,omitempty"`
	// Paths are the files the tool read or changed. When empty, a file
	// tool's Input is taken as its path.
	Paths []string `json:"paths,omitempty"`
	// Replaced are the one-line replacements an edit made, old then new:
	// what a setting was and what it became.
	Replaced [][2]string `json:"replaced,omitempty"`
}

// Says reports whether t is the agent saying something: text of its own,
// not the placeholder a transcript holds after a slash command.
func (t Turn) Says() bool {
	return t.Role == Assistant && strings.TrimSpace(t.Text) != "" && !cue.Placeholder.MatchString(t.Text)
}

// ReadBack stands for an agent message that only read back the memory
// the session was given at its start (package echo took it out): the
// prompt before it was answered, and it says nothing new.
const ReadBack = "(Read back the memory it was given at its start.)"

// Segment is a run of consecutive turns of one session, summarised as one
// section of the session's summary.
type Segment struct {
	// Index numbers the segment within its session, from 1. Zero means the
	// one after the last "## Segment" section of the previous summary.
	Index int    `json:"index,omitempty"`
	Turns []Turn `json:"turns"`
	// Before is the agent's last message before the segment, which its
	// first prompt may answer: what "go with the table" picks from.
	Before string `json:"before,omitempty"`
}

// Request asks for the summary of one segment.
type Request struct {
	SessionID string  `json:"session_id"`
	Segment   Segment `json:"segment"`
	// PreviousSummary is the session's summary so far (the Markdown of the
	// earlier segments), empty for the first segment.
	PreviousSummary string `json:"previous_summary,omitempty"`
	// First marks the session's first segment: LLM providers use the
	// initial prompt for it, and the continuation prompt after it.
	First bool `json:"first,omitempty"`
	// Earlier is what the memory held as current before this session
	// (older sessions' bullets, core items' titles), the newest first: a
	// model provider quotes under "**No longer true**" those the segment
	// made untrue, and the pack no longer shows them. The built-in
	// summarizer is given none: the pack's own rules read them.
	Earlier []string `json:"earlier,omitempty"`
}

// Kind is the kind of a candidate memory item.
type Kind string

// The kinds of candidate a summarizer proposes.
const (
	Decision   Kind = "decision"
	Fact       Kind = "fact"
	Pattern    Kind = "pattern"
	Preference Kind = "preference"
)

// Candidate is an item a summarizer proposes for core memory. The caller
// decides whether it becomes one (or updates one).
type Candidate struct {
	Kind       Kind     `json:"kind"`
	Title      string   `json:"title"`
	Body       string   `json:"body"`
	Importance float64  `json:"importance"`
	Tags       []string `json:"tags,omitempty"`
	// Subject is a short normalized key naming what the item is about
	// ("api port", "http router", "test command"): consolidation replaces
	// an older item about the same subject whose value changed. See
	// ClaimOf.
	Subject string `json:"subject,omitempty"`
}

// Usage counts the tokens a provider spent on one summary.
type Usage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// Total is input plus output tokens.
func (u Usage) Total() int64 { return u.InputTokens + u.OutputTokens }

// Result is the summary of one segment.
type Result struct {
	// Summary is a Markdown section that starts with "## Segment N", to be
	// appended to the session's summary.
	Summary string      `json:"summary"`
	Items   []Candidate `json:"items"`
	// Untrue quotes the statements of Request.Earlier the segment made
	// untrue, as its "**No longer true**" section does: consolidation
	// retires the core items they are the titles of.
	Untrue []string `json:"untrue,omitempty"`
	Usage  Usage    `json:"usage"`
	// Provider names who wrote it: extractive, claude-cli, anthropic,
	// openai.
	Provider string `json:"provider"`
	// FallbackReason says why the configured provider did not write it,
	// when a Fallback stepped in.
	FallbackReason string `json:"fallback_reason,omitempty"`
}

// Summarizer summarises a segment of a session. Implementations are safe
// for concurrent use. An error means no summary: the caller may try
// another Summarizer (see Fallback) or try again later.
type Summarizer interface {
	Summarize(ctx context.Context, req Request) (Result, error)
}

// Errors a provider returns, wrapped with what failed and where.
var (
	// ErrBudgetSpent means the day's token budget is used up.
	ErrBudgetSpent = errors.New("daily token budget spent")
	// ErrInvalidOutput means a model's answer is not a summary followed by
	// a JSON block of items.
	ErrInvalidOutput = errors.New("invalid summarizer output")
)

// Fallback summarises with Primary and, when it fails, with Secondary,
// saying why in Result.FallbackReason. A cancelled context is not a
// failure to fall back from.
type Fallback struct {
	Primary, Secondary Summarizer
}

// NewFallback returns a Summarizer that uses primary, and fallback when
// primary fails.
func NewFallback(primary, fallback Summarizer) *Fallback {
	return &Fallback{Primary: primary, Secondary: fallback}
}

// Summarize implements Summarizer.
func (f *Fallback) Summarize(ctx context.Context, req Request) (Result, error) {
	res, err := f.Primary.Summarize(ctx, req)
	if err == nil {
		return res, nil
	}
	if ctx.Err() != nil {
		return Result{}, err
	}
	res, err2 := f.Secondary.Summarize(ctx, req)
	if err2 != nil {
		return Result{}, fmt.Errorf("summarize: %w; fallback: %w", err, err2)
	}
	res.FallbackReason = err.Error()
	return res, nil
}

// SegmentIndex is the request's segment number: its own, or one more than
// the sections of the previous summary.
func SegmentIndex(req Request) int {
	if req.Segment.Index > 0 {
		return req.Segment.Index
	}
	n := 0
	for _, line := range strings.Split(req.PreviousSummary, "\n") {
		if strings.HasPrefix(line, "## Segment ") {
			n++
		}
	}
	return n + 1
}

// timeRange formats the span of the turns' times: "2026-03-04 10:12–10:47
// UTC", or empty when no turn has a time.
func timeRange(turns []Turn) string {
	var first, last time.Time
	for _, t := range turns {
		if t.Time.IsZero() {
			continue
		}
		if first.IsZero() || t.Time.Before(first) {
			first = t.Time
		}
		if t.Time.After(last) {
			last = t.Time
		}
	}
	if first.IsZero() {
		return ""
	}
	first, last = first.UTC(), last.UTC()
	if first.Format("2006-01-02") == last.Format("2006-01-02") {
		return first.Format("2006-01-02 15:04") + "–" + last.Format("15:04") + " UTC"
	}
	return first.Format("2006-01-02 15:04") + " – " + last.Format("2006-01-02 15:04") + " UTC"
}

// Heading is the first line of a segment's section.
func Heading(index int, turns []Turn) string {
	h := fmt.Sprintf("## Segment %d", index)
	if tr := timeRange(turns); tr != "" {
		h += " (" + tr + ")"
	}
	return h
}
