package keep

import (
	"context"
	"fmt"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// RetainResult says what a retention pass dropped from the work tree.
type RetainResult struct {
	Dropped  []string // repository paths removed in the checkpoint
	Sessions int      // archived sessions they belonged to
	// Unsummarised are archived sessions past the retention whose summary
	// is not written yet: their files stay until it is, since the summary
	// is what is left of them in the work tree.
	Unsummarised []string
	Checkpoint   *memory.Checkpoint // nil when nothing was dropped
}

// Retain removes from the work tree the transcript.md of archived
// sessions whose last activity is older than capture.transcripts_keep,
// with their prompts.md and observations.md when
// capture.keep_summaries_only is set, in one checkpoint. session.yaml and
// summary.md stay. With no transcripts_keep it does nothing. The daemon
// calls it now and then, and cairn gc first.
func Retain(ctx context.Context, m *memory.Memory) (*RetainResult, error) {
	res := &RetainResult{}
	keep := time.Duration(m.Config.Capture.TranscriptsKeep)
	if keep <= 0 {
		return res, nil
	}
	files := []string{model.TranscriptFile}
	if m.Config.Capture.KeepSummariesOnly {
		files = append(files, model.PromptsFile, model.ObservationsFile)
	}
	cutoff := m.Now().Add(-keep)
	// A look without the lock first: most passes find nothing.
	if plan, _, err := retainPlan(ctx, m, cutoff, files); err != nil || len(plan) == 0 {
		return res, err
	}
	tx, err := m.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.End()
	plan, unsummarised, err := retainPlan(ctx, m, cutoff, files)
	if err != nil {
		return nil, err
	}
	res.Unsummarised = unsummarised
	for _, sf := range plan {
		for _, p := range sf.files {
			tx.Remove(p)
			res.Dropped = append(res.Dropped, p)
		}
	}
	res.Sessions = len(plan)
	if len(plan) == 0 {
		return res, nil
	}
	msg := fmt.Sprintf("retain: %d file(s) of %d archived session(s) inactive for over %s leave the work tree (history keeps them)",
		len(res.Dropped), res.Sessions, days(keep))
	res.Checkpoint, err = tx.Commit(ctx, memory.CheckpointOptions{Message: msg, Event: "retain"})
	return res, err
}

type sessionFiles struct {
	id    string
	files []string
}

// retainPlan lists the files of archived sessions last seen before cutoff
// that retention drops, and the sessions it would drop files of but for
// their summary, not written yet.
func retainPlan(ctx context.Context, m *memory.Memory, cutoff time.Time, names []string) (plan []sessionFiles, unsummarised []string, err error) {
	list, _, err := m.Sessions().List(ctx, memory.SessionFilter{Status: model.StatusArchived})
	if err != nil {
		return nil, nil, err
	}
	for _, e := range list {
		if !e.Archived() || !e.LastSeen().Before(cutoff) {
			continue
		}
		var present []string
		for _, f := range names {
			if m.StatOK(e.File(f)) {
				present = append(present, e.File(f))
			}
		}
		if len(present) == 0 {
			continue
		}
		if !m.StatOK(e.File(model.SummaryFile)) || e.Summarized.Turns < e.Turns {
			unsummarised = append(unsummarised, e.ID)
			continue
		}
		plan = append(plan, sessionFiles{id: e.ID, files: present})
	}
	return plan, unsummarised, nil
}

// days writes a retention the way cairn.yaml does.
func days(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	return d.String()
}
