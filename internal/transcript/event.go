package transcript

import (
	"encoding/json"
	"time"
)

// Kind says what an Event records.
type Kind string

// The kinds of event. Every parser produces only these.
const (
	KindSessionStart   Kind = "session_start"   // a session began (a root line, session_meta, the SessionStart hook)
	KindUserPrompt     Kind = "user_prompt"     // the user's own words, metadata stripped
	KindCommand        Kind = "command"         // a slash command the user ran (/cost, /clear, /compact): for the agent's tool, not a prompt
	KindAssistantText  Kind = "assistant_text"  // what the assistant said (thinking left out)
	KindToolCall       Kind = "tool_call"       // the assistant called a tool
	KindToolResult     Kind = "tool_result"     // a tool answered, or failed (Result.IsError)
	KindCompaction     Kind = "compaction"      // the context was (or is about to be) compacted
	KindCompactSummary Kind = "compact_summary" // the summary that replaced the compacted context
	KindStop           Kind = "stop"            // the agent (or a subagent) finished its turn: hooks only
	KindSessionEnd     Kind = "session_end"     // the session ended: hooks only
)

// Event is one thing that happened in an agent session, whatever the agent
// and whatever the source (a transcript line or a hook payload).
//
// Which fields are set depends on Kind: Text for prompts, assistant text,
// compact summaries, stops (the last assistant message) and PreCompact
// instructions; Call for tool calls; Result for tool results; Source for
// session starts; Reason for session ends; Trigger and PreTokens for
// compactions.
type Event struct {
	Kind Kind `json:"kind"`
	// ID is unique within a transcript and the same on every parse of it:
	// the line's uuid (or "@offset" for lines without one), with "#n" added
	// for the n-th further event a line yields. Consumers that process
	// overlapping ranges dedupe on it. Hook events have no ID.
	ID string `json:"id,omitempty"`
	Meta

	Text      string      `json:"text,omitempty"`
	Command   string      `json:"command,omitempty"` // the slash command a prompt ran, e.g. "/compact"
	Source    string      `json:"source,omitempty"`  // session start: startup, resume, clear, compact
	Reason    string      `json:"reason,omitempty"`  // session end: clear, logout, prompt_input_exit, other
	Trigger   string      `json:"trigger,omitempty"` // compaction: manual or auto
	PreTokens int64       `json:"pre_tokens,omitempty"`
	Call      *ToolCall   `json:"call,omitempty"`
	Result    *ToolResult `json:"result,omitempty"`
}

// Meta says where an event comes from. Fields a source does not record are
// empty.
type Meta struct {
	UUID       string    `json:"uuid,omitempty"`
	ParentUUID string    `json:"parent_uuid,omitempty"`
	SessionID  string    `json:"session_id,omitempty"`
	Time       time.Time `json:"time,omitzero"`
	// Sidechain marks subagent traffic. Parsers return it apart from the
	// main conversation (Parsed.Sidechain), never mixed into its turn order.
	Sidechain bool   `json:"sidechain,omitempty"`
	AgentID   string `json:"agent_id,omitempty"`
	AgentType string `json:"agent_type,omitempty"`
	CWD       string `json:"cwd,omitempty"`
	GitBranch string `json:"git_branch,omitempty"`
	Version   string `json:"version,omitempty"` // of the agent that wrote the transcript
	Model     string `json:"model,omitempty"`
	MessageID string `json:"message_id,omitempty"`
	// Speaker names who said a turn of a dialogue between people ("Maya"),
	// where the transcript names them rather than a role; Part is the
	// number of the dialogue's session the turn is in (its session
	// heading, or its "session" field), from 1, and 0 when the transcript
	// does not divide into sessions.
	Speaker string `json:"speaker,omitempty"`
	Part    int    `json:"part,omitempty"`
	// Usage is set on the first event of each assistant message only, so
	// that summing Usage over a parse counts every message once. A message
	// cut in two by a forced (Final) parse is counted in both halves; a
	// consumer summing across parses counts each MessageID once.
	Usage *Usage `json:"usage,omitempty"`
	// Offset is the byte offset in the transcript of the line the event
	// comes from; Line is its 1-based number when known. Both are zero for
	// hook events.
	Offset int64 `json:"offset"`
	Line   int   `json:"line,omitempty"`
}

// Usage counts the tokens of one assistant message.
type Usage struct {
	Input         int64 `json:"input_tokens"`
	Output        int64 `json:"output_tokens"`
	CacheCreation int64 `json:"cache_creation_input_tokens,omitempty"`
	CacheRead     int64 `json:"cache_read_input_tokens,omitempty"`
}

// merge keeps the largest of each count: the lines of one streamed message
// repeat its usage, the later ones with the final output count.
func (u *Usage) merge(v Usage) {
	u.Input = max(u.Input, v.Input)
	u.Output = max(u.Output, v.Output)
	u.CacheCreation = max(u.CacheCreation, v.CacheCreation)
	u.CacheRead = max(u.CacheRead, v.CacheRead)
}

// ToolCall is a tool the assistant called.
type ToolCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitempty"`
	// Summary is one short line for people: "Bash: go test ./...",
	// "Edit: internal/app.go" (paths relative to the session's cwd).
	Summary string `json:"summary"`
}

// ToolResult is a tool's answer, paired with its call by ToolUseID.
type ToolResult struct {
	ToolUseID string `json:"tool_use_id"`
	// Name and Summary repeat the paired call's. They are empty when no
	// call was waiting for this result in the same parse: the call is in
	// an earlier range, or its turn had ended.
	Name    string `json:"name,omitempty"`
	Summary string `json:"summary,omitempty"`
	Output  string `json:"output,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
	// ExitCode is a shell command's exit status: 0 for a Bash call that
	// succeeded, N for a failure reported as "Exit code N", nil when unknown.
	ExitCode    *int  `json:"exit_code,omitempty"`
	Interrupted bool  `json:"interrupted,omitempty"`
	DurationMS  int64 `json:"duration_ms,omitempty"`
}
