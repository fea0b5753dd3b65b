package ui

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/resume"
)

// ListSessions is cairn session list: it archives the sessions inactive
// for too long (a locked memory keeps them), then prints the sessions
// that pass f, what it skipped through warn.
func ListSessions(ctx context.Context, w io.Writer, m *memory.Memory, f memory.SessionFilter, asJSON bool, warn func(string)) error {
	if _, err := m.Sessions().ArchiveInactive(ctx, 0); err != nil && !errors.Is(err, memory.ErrLocked) {
		warn("archive inactive sessions: " + err.Error())
	}
	list, problems, err := m.Sessions().List(ctx, f)
	if err != nil {
		return err
	}
	for _, p := range problems {
		warn("skipped " + p.Error())
	}
	if asJSON {
		return SessionsJSON(w, list)
	}
	return SessionsText(w, list)
}

// ShowSession is cairn session show: a session's session.yaml and
// summary.
func ShowSession(ctx context.Context, w io.Writer, m *memory.Memory, ref string, asJSON bool) error {
	e, err := m.Sessions().Get(ctx, ref)
	if err != nil {
		return err
	}
	yml, err := m.ReadFile(e.File(model.SessionFile))
	if err != nil {
		return err
	}
	summary, err := m.ReadFile(e.File(model.SummaryFile))
	if err != nil && !errors.Is(err, memory.ErrNoFile) {
		return err
	}
	if asJSON {
		return SessionJSON(w, e, summary)
	}
	return SessionText(w, e, yml, summary)
}

// ResumeSession is cairn session resume: the session's context on w;
// with activate, a session not active becomes active again, which is
// said on note.
func ResumeSession(ctx context.Context, w, note io.Writer, m *memory.Memory, ref string, activate bool) error {
	e, err := m.Sessions().Get(ctx, ref)
	if err != nil {
		return err
	}
	if activate && e.Status != model.StatusActive {
		ch, err := m.Sessions().SetStatus(ctx, e.ID, model.StatusActive)
		if err != nil {
			return err
		}
		if err := SessionChangeText(note, ch, fmt.Sprintf("%s (%s)", model.StatusActive, ch.Session.Dir)); err != nil {
			return err
		}
	}
	text, err := resume.Context(ctx, m, e.ID)
	if err != nil {
		return err
	}
	fmt.Fprint(w, text)
	return nil
}
