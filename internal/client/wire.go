package client

import (
	"encoding/json"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/watcher"
)

// SessionInit is the body of POST /api/sessions/init: a session starts.
// With a prompt, the user's first prompt is queued too.
type SessionInit struct {
	SessionID      string `json:"session_id"`
	CWD            string `json:"cwd,omitempty"`
	TranscriptPath string `json:"transcript_path,omitempty"`
	Source         string `json:"source,omitempty"` // startup, resume, clear, compact
	Model          string `json:"model,omitempty"`
	Prompt         string `json:"prompt,omitempty"`
}

// Observation is the body of POST /api/sessions/observations: one tool
// call and its result. A non-empty Error makes it a failed call
// (PostToolUseFailure).
type Observation struct {
	SessionID      string          `json:"session_id"`
	CWD            string          `json:"cwd,omitempty"`
	TranscriptPath string          `json:"transcript_path,omitempty"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse   json.RawMessage `json:"tool_response,omitempty"`
	ToolUseID      string          `json:"tool_use_id,omitempty"`
	DurationMS     int64           `json:"duration_ms,omitempty"`
	Error          string          `json:"error,omitempty"`
	IsInterrupt    bool            `json:"is_interrupt,omitempty"`
}

// SummarizeRequest is the body of POST /api/sessions/summarize: the
// agent finished a turn (a Stop hook), so what is pending is summarised.
type SummarizeRequest struct {
	SessionID            string `json:"session_id"`
	CWD                  string `json:"cwd,omitempty"`
	TranscriptPath       string `json:"transcript_path,omitempty"`
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
}

// Queued is the answer to the session endpoints: the jobs now pending.
type Queued struct {
	SessionID string   `json:"session_id"`
	Jobs      []string `json:"jobs"`
	Status    string   `json:"status"` // "queued"
}

// RememberRequest is the body of POST /api/memories and the arguments
// of the MCP remember tool.
type RememberRequest struct {
	Text       string   `json:"text"`
	Title      string   `json:"title,omitempty"`
	Kind       string   `json:"kind,omitempty"` // default note
	Importance *float64 `json:"importance,omitempty"`
	Tags       []string `json:"tags,omitempty"`
	Pin        bool     `json:"pin,omitempty"`
	Session    string   `json:"session,omitempty"`
}

// Remembered is the answer to POST /api/memories.
type Remembered struct {
	ID     string `json:"id"`
	Path   string `json:"path"`
	Kind   string `json:"kind"`
	Title  string `json:"title"`
	Commit string `json:"commit,omitempty"` // empty when auto-checkpoint is off
}

// SessionStatus is the answer to GET /sessions/{id}/status.
type SessionStatus struct {
	SessionID    string            `json:"session_id"`
	Known        bool              `json:"known"`            // its folder exists
	Status       string            `json:"status"`           // active, suspended, archived; "queued" before its first job is done
	Dir          string            `json:"dir,omitempty"`    // sessions/<id> or archive/<yyyy>/<mm>/<id>
	Agent        string            `json:"agent,omitempty"`  // claude-code, ...
	Title        string            `json:"title,omitempty"`  //
	Prompts      int               `json:"prompts"`          // prompts captured
	Turns        int               `json:"turns"`            //
	Summarized   int               `json:"summarized_turns"` // turns summary.md covers
	Started      *time.Time        `json:"started,omitempty"`
	LastActivity *time.Time        `json:"last_activity,omitempty"`
	Progress     Progress          `json:"progress"`
	Variables    map[string]string `json:"variables,omitempty"`
	// Queue counts the memory's jobs by state; SessionJobs those of
	// this session still to be done (pending or processing) or failed.
	Queue       watcher.Status `json:"queue"`
	SessionJobs JobCounts      `json:"session_jobs"`
}

// Files the daemon keeps in the memory's state folder.
const (
	PIDFile   = "daemon.pid"
	AddrFile  = "addr"
	TokenFile = "token"
	LockFile  = "daemon.lock"
	LogFile   = "daemon.log"
)

// CheckpointRequest asks the daemon to checkpoint, as cairn checkpoint
// does. The daemon's stat cache is warm and its monitor knows what
// changed, so a checkpoint there costs what changed, even at 100,000 files.
type CheckpointRequest struct {
	Message string `json:"message"`
	Tag     string `json:"tag"`
	Session string `json:"session"`
	Event   string `json:"event"`
}

// CheckpointResponse is the daemon's answer; Commit is empty when there
// was nothing to checkpoint. Tag and Tagged are the tag asked for and
// the commit it names: the new one, or HEAD when there was nothing to
// commit (naming the current state is still worth doing).
type CheckpointResponse struct {
	Commit  string              `json:"commit"`
	Subject string              `json:"subject,omitempty"`
	Changes []memory.FileChange `json:"changes"`
	Tag     string              `json:"tag,omitempty"`
	Tagged  string              `json:"tagged,omitempty"`
}

// Progress counts the steps of a session's long-running task.
type Progress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// JobCounts count one session's jobs by state.
type JobCounts struct {
	Pending    int `json:"pending"`
	Processing int `json:"processing"`
	Failed     int `json:"failed"`
}

// CatchUpRequest is the body of POST /api/capture/catch-up: capture now
// what is pending for the sessions before Except, within Budget.
type CatchUpRequest struct {
	// Except is the session starting: it is not taken for ended.
	Except string `json:"except,omitempty"`
	// BudgetMS bounds the work, in milliseconds; the daemon caps it.
	BudgetMS int64 `json:"budget_ms,omitempty"`
}

// CaughtUp is the answer to POST /api/capture/catch-up.
type CaughtUp struct {
	Done   int  `json:"done"`   // jobs done
	Failed int  `json:"failed"` // jobs that failed (retried later, or in failed/)
	Ended  int  `json:"ended"`  // sessions whose end hooks never wrote, ended now
	Left   bool `json:"left"`   // the budget ran out with work still due
	// Pending counts the jobs still queued afterwards, due or not.
	Pending int `json:"pending"`
	// Waiting are the unfinished jobs not done, and why.
	Waiting []watcher.Wait `json:"waiting,omitempty"`
	Swept   watcher.Swept  `json:"swept"`
}

// UILogin is the answer to POST /api/ui/login-code: a one-time login to
// the daemon's web viewer (cairn ui), good for a minute.
type UILogin struct {
	Code string `json:"code"`
	Path string `json:"path"` // the page to open on the daemon's address, the code in it
}
