package ui

import (
	"fmt"
	"io"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/model"
)

// Session is how commands print a session under --json.
type Session struct {
	ID            string            `json:"id"`
	MemorySession string            `json:"memory_session"`
	Agent         string            `json:"agent"`
	Status        string            `json:"status"`
	Title         string            `json:"title"`
	Project       string            `json:"project"`
	Branch        string            `json:"branch,omitempty"`
	Prompts       int               `json:"prompts"`
	Turns         int               `json:"turns"`
	Started       time.Time         `json:"started"`
	Updated       time.Time         `json:"updated"`
	LastActivity  time.Time         `json:"last_activity"`
	Progress      Progression       `json:"progress"`
	Variables     map[string]string `json:"variables"`
	Summarized    int               `json:"summarized_turns"`
	Dir           string            `json:"dir"`
	Summary       *string           `json:"summary,omitempty"`
}

// Progression is a session's progress under --json.
type Progression struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// SessionOf is the JSON form of a session, without its summary.
func SessionOf(e *model.SessionEntry) Session {
	vars := e.Variables
	if vars == nil {
		vars = map[string]string{}
	}
	return Session{
		ID: e.ID, MemorySession: e.MemorySession, Agent: e.Agent, Status: string(e.Status), Title: e.Title,
		Project: e.Project, Branch: e.Branch, Prompts: e.Prompts, Turns: e.Turns,
		Started: e.Started, Updated: e.Updated, LastActivity: e.LastActivity,
		Progress:  Progression{e.Progress.Done, e.Progress.Total},
		Variables: vars, Summarized: e.Summarized.Turns, Dir: e.Dir,
	}
}

// SessionsJSON writes sessions (cairn session list --json).
func SessionsJSON(w io.Writer, list []*model.SessionEntry) error {
	out := make([]Session, 0, len(list))
	for _, e := range list {
		out = append(out, SessionOf(e))
	}
	return JSON(w, out)
}

// SessionsText writes one line per session.
func SessionsText(w io.Writer, list []*model.SessionEntry) error {
	tw := table(w)
	for _, e := range list {
		progress := ""
		if e.Progress.Total > 0 {
			progress = fmt.Sprintf(" [%d/%d]", e.Progress.Done, e.Progress.Total)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d prompts\t%s%s\n", Escape(e.ID), Escape(string(e.Status)), Escape(e.Agent),
			e.LastActivity.Local().Format("2006-01-02 15:04"), e.Prompts, Escape(e.Title), progress)
	}
	return tw.Flush()
}

// SessionJSON writes one session with its summary (cairn session show
// --json).
func SessionJSON(w io.Writer, e *model.SessionEntry, summary []byte) error {
	j := SessionOf(e)
	s := string(summary)
	j.Summary = &s
	return JSON(w, j)
}

// SessionText writes a session's session.yaml and its summary, as they
// are in the files.
func SessionText(w io.Writer, e *model.SessionEntry, yml, summary []byte) error {
	fmt.Fprintf(w, "# %s/%s\n\n%s", e.Dir, model.SessionFile, yml)
	if len(summary) > 0 {
		_, err := fmt.Fprintf(w, "\n%s", summary)
		return err
	}
	_, err := fmt.Fprintf(w, "\n(no summary yet)\n")
	return err
}

// SessionChangeText says what a session command did; what describes the
// change.
func SessionChangeText(w io.Writer, ch *memory.SessionChange, what string) error {
	if ch.Checkpoint == nil {
		_, err := fmt.Fprintf(w, "session %s: unchanged, %s\n", ch.Session.ID, what)
		return err
	}
	_, err := fmt.Fprintf(w, "session %s: %s; commit %s\n", ch.Session.ID, what, Short(ch.Checkpoint.Hash))
	return err
}

// SessionShareJSON writes what cairn session share copied (--json).
func SessionShareJSON(w io.Writer, res *memsync.ShareResult) error {
	return JSON(w, map[string]any{"from": res.From, "to": res.To, "items": NonNil(res.Items), "skipped": res.Skipped})
}

// SessionShareText writes one line per item copied and what it came to.
func SessionShareText(w io.Writer, res *memsync.ShareResult) error {
	if res.Checkpoint == nil {
		_, err := fmt.Fprintf(w, "nothing to share from %s to %s (%d shared before)\n", res.From, res.To, res.Skipped)
		return err
	}
	for _, it := range res.Items {
		fmt.Fprintf(w, "%s\t%s\t%s\n", Escape(it.ID), Escape(string(it.Kind)), Escape(it.Title))
	}
	_, err := fmt.Fprintf(w, "shared %d item(s) from %s to %s; commit %s\n", len(res.Items), res.From, res.To, Short(res.Checkpoint.Hash))
	return err
}
