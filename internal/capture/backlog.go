package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/watcher"
)

// Worked says what WorkFor did.
type Worked struct {
	Done, Failed int
	Left         bool // the budget ran out with jobs still due
}

// WorkFor runs due queue jobs one at a time until none is left or budget
// is spent: what a session start does when no daemon runs, so that the
// captures of the last session are in its pack. A job still running when
// the budget ends gets grace more, then is cut: it goes back to the queue
// and the session still gets its context in time.
func WorkFor(ctx context.Context, m *memory.Memory, budget, grace time.Duration) (Worked, error) {
	var n Worked
	deadline := time.Now().Add(budget)
	ctx, cancel := context.WithDeadline(ctx, deadline.Add(grace))
	defer cancel()
	// One queue for the run: a job put back without its failure recorded
	// (a full disk) is held back by it, not tried again at once.
	w, err := newWorker(ctx, m, watcher.QueueOptions{})
	if err != nil {
		return n, fmt.Errorf("process the queue: %w", err)
	}
	for {
		if time.Now().After(deadline) {
			n.Left = true
			return n, nil
		}
		r, err := w.drain(ctx, 1)
		if err != nil && ctx.Err() != nil {
			n.Left = true
			return n, nil
		}
		if err != nil {
			return n, fmt.Errorf("process the queue: %w", err)
		}
		if r.Done+r.Failed == 0 {
			return n, nil
		}
		n.Done += r.Done
		n.Failed += r.Failed
	}
}

// EnqueueHook queues a hook payload of session for the worker: the
// daemon takes it at once, or the next session start.
func EnqueueHook(ctx context.Context, m *memory.Memory, session string, payload []byte) error {
	q, err := Queue(m, watcher.QueueOptions{})
	if err != nil {
		return err
	}
	_, err = q.Enqueue(ctx, watcher.Job{Kind: JobHook, AgentSession: session, Payload: json.RawMessage(payload)})
	return err
}

// FailedJobs counts the capture jobs in failed/.
func FailedJobs(ctx context.Context, m *memory.Memory) (int, error) {
	q, err := Queue(m, watcher.QueueOptions{})
	if err != nil {
		return 0, err
	}
	st, err := q.Status(ctx)
	if err != nil {
		return 0, err
	}
	return st.Failed, nil
}

// endQuiet is how long the transcripts of a session must have been still
// for CatchUpEnded to take it for ended: one being written now is live.
const endQuiet = 2 * time.Second

// CatchUpEnded ends the sessions other than except that are still active
// and whose transcripts have been still for a moment: it captures what
// their transcripts hold past their capture point, as a catch-up of an
// idle file (final: the held-back last turn is taken too), summarises
// what is pending, and suspends them, as their SessionEnd would have. A
// session start calls it: an agent that exits at once (claude -p) can end
// the hooks of its last turn before they write, and the session would
// stay active, its last turns unsummarised. A live session in another
// terminal that is idle is taken for ended too; its next event makes it
// active again. It stops at ctx's deadline and says how many sessions it
// ended.
func CatchUpEnded(ctx context.Context, m *memory.Memory, except string) (int, error) {
	list, _, err := m.Sessions().List(ctx, memory.SessionFilter{Status: model.StatusActive})
	if err != nil {
		return 0, err
	}
	now := time.Now()
	n := 0
	var errs []error
	for _, e := range list {
		if e.ID == except {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		var paths []string
		quiet, files := true, 0
		for _, src := range e.Sources {
			if src.Path == "" || !TranscriptAllowed(m, filepath.Clean(src.Path)) {
				continue
			}
			fi, err := os.Stat(src.Path)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			files++
			if now.Sub(fi.ModTime()) < endQuiet {
				quiet = false
			}
			if fi.Size() > src.Offset {
				paths = append(paths, filepath.Clean(src.Path))
			}
		}
		if files == 0 {
			quiet = now.Sub(e.LastActivity) >= endQuiet
		}
		if !quiet {
			continue
		}
		ok := true
		for _, p := range paths {
			if _, err := catchUp(ctx, m, p, "", catchUpOptions{final: true, trigger: "catch-up"}); err != nil {
				errs = append(errs, fmt.Errorf("catch up %s: %w", p, err))
				ok = false
			}
		}
		if !ok {
			continue // its end stays for the next try
		}
		if _, err := Capture(ctx, m, Batch{Session: e.ID, Trigger: "catch-up", Final: true, Status: model.StatusSuspended}); err != nil {
			errs = append(errs, fmt.Errorf("end session %s: %w", e.ID, err))
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}
