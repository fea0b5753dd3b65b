package capture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/transcript"
	"github.com/cairn-mem/cairn/watcher"
)

// Worked says what WorkFor did.
type Worked struct {
	Done   int `json:"done"`
	Failed int `json:"failed"`
	// Ended counts the sessions found ended (CatchUpEnded).
	Ended int `json:"ended"`
	// Left says the budget ran out with work still due.
	Left bool `json:"left"`
	// Pending counts the jobs still in the queue afterwards, due or not.
	Pending int `json:"pending"`
	// Waiting are the unfinished jobs not done, and why (due later,
	// settling, held by another worker).
	Waiting []watcher.Wait `json:"waiting,omitempty"`
	// Swept counts the temporary files of killed hooks cleaned up.
	Swept watcher.Swept `json:"swept"`
}

// WorkOptions bound WorkFor.
type WorkOptions struct {
	// Budget is how long jobs are started for; Grace how much longer a
	// job running at Budget may take before it is cut (it goes back to
	// the queue).
	Budget, Grace time.Duration
	// EndBudget is how long WorkFor then ends the sessions whose end
	// hooks never wrote (CatchUpEnded); zero skips that, and so does a
	// budget that ran out.
	EndBudget time.Duration
	// Except is the session starting: it is not ended.
	Except string
	// Do runs each memory operation; the daemon passes its own lock, so
	// that its worker and WorkFor never interleave. Nil runs them as they
	// come.
	Do func(func())
	// Daemon says the daemon runs WorkFor beside its own worker: jobs in
	// processing/ are that worker's, waited for (within Budget) instead
	// of recovered.
	Daemon bool
}

// WorkFor captures what is pending for the sessions before the one
// starting: it runs the due queue jobs one at a time until none is left
// or the budget is spent, then ends the sessions whose end hooks never
// wrote. A session start does it, through the daemon when one runs, so
// that a SessionStart right after the last session's Stop and SessionEnd
// (what /clear does) packs everything the last session did. What it
// leaves is in Waiting, with the reason.
func WorkFor(ctx context.Context, m *memory.Memory, o WorkOptions) (n Worked, err error) {
	do := o.Do
	if do == nil {
		do = func(f func()) { f() }
	}
	deadline := time.Now().Add(o.Budget)
	jctx, cancel := context.WithDeadline(ctx, deadline.Add(o.Grace))
	defer cancel()
	// One queue for the run: a job put back without its failure recorded
	// (a full disk) is held back by it, not tried again at once.
	w, err := openWorker(jctx, m, watcher.QueueOptions{}, !o.Daemon)
	if err != nil {
		return n, fmt.Errorf("process the queue: %w", err)
	}
	if n.Swept, err = w.q.Sweep(jctx); err != nil && jctx.Err() == nil {
		m.Warn(err.Error())
	}
	defer func() {
		// What is left, and why, said even when the context ran out.
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		if ws, err := w.q.Waiting(lctx); err == nil {
			n.Waiting = ws
		}
		if st, err := w.q.Status(lctx); err == nil {
			n.Pending = st.Pending + st.Processing
		}
	}()
	for {
		if time.Now().After(deadline) {
			n.Left = true
			return n, nil
		}
		var r *DrainResult
		do(func() { r, err = w.drain(jctx, 1) })
		if err != nil && jctx.Err() != nil {
			n.Left = true
			return n, nil
		}
		if err != nil {
			return n, fmt.Errorf("process the queue: %w", err)
		}
		n.Done += r.Done
		n.Failed += r.Failed
		if r.Done+r.Failed > 0 {
			continue
		}
		if !o.Daemon {
			break
		}
		// The daemon's worker may be running a job of the last session
		// (the Stop, say): wait for it.
		st, err := w.q.Status(jctx)
		if err != nil || st.Processing == 0 {
			break
		}
		select {
		case <-jctx.Done():
		case <-time.After(20 * time.Millisecond):
		}
	}
	if o.EndBudget <= 0 {
		return n, nil
	}
	ectx, cancel := context.WithTimeout(ctx, o.EndBudget)
	defer cancel()
	n.Ended, err = catchUpEnded(ectx, m, o.Except, do)
	if err != nil && ectx.Err() == nil {
		return n, err
	}
	if ectx.Err() != nil {
		n.Left = true
	}
	return n, nil
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
const endQuiet = time.Second

// settlePoll is how often CatchUpEnded looks again at a transcript written
// less than endQuiet ago. A streaming session writes one line a message:
// it may stay still for seconds while its model thinks, and one still for
// endQuiet is taken for ended as one whose agent exited (its next event
// makes it active again).
const settlePoll = 100 * time.Millisecond

// firstLookback is how far back CatchUpEnded looks for transcripts of
// sessions cairn never heard of, the first time it runs.
const firstLookback = time.Hour

// CatchUpEnded ends the sessions other than except that are still active
// and whose transcripts have been still for a moment: it captures what
// their transcripts hold past their capture point, as a catch-up of an
// idle file (final: the held-back last turn is taken too), summarises
// what is pending, and suspends them, as their SessionEnd would have. A
// session start calls it: an agent that exits at once (claude -p) can end
// the hooks of its last turn before they write, and the session would
// stay active, its last turns unsummarised. A transcript written less
// than endQuiet ago is watched until it has been still that long (the
// agent that wrote it has just exited and the next session starts) or
// changes again (a live session's, left alone), within ctx. A live
// session in another terminal that is idle is taken for ended too; its
// next event makes it active again. A followed transcript changed since
// the last call (an hour, the first time) whose session cairn never heard
// of, because none of its hooks wrote, is captured and ended too (one
// written less than endQuiet ago by the next start). It stops at ctx's
// deadline and says how many sessions it ended.
func CatchUpEnded(ctx context.Context, m *memory.Memory, except string) (int, error) {
	return catchUpEnded(ctx, m, except, nil)
}

// catchUpEnded is CatchUpEnded with each memory operation run through do
// (WorkFor's), and the waits for a transcript to go still outside it: the
// daemon's worker goes on meanwhile.
func catchUpEnded(ctx context.Context, m *memory.Memory, except string, do func(func())) (n int, err error) {
	if do == nil {
		do = func(f func()) { f() }
	}
	var list []*model.SessionEntry
	do(func() { list, _, err = m.Sessions().List(ctx, memory.SessionFilter{Status: model.StatusActive}) })
	if err != nil {
		return 0, err
	}
	var errs []error
	do(func() { n, errs = endUnknown(ctx, m, except, time.Now()) })
	end := func(e *model.SessionEntry, paths []string) {
		do(func() {
			if cur, err := m.Sessions().Get(ctx, e.ID); err == nil && cur.Status != model.StatusActive {
				return // its own end came in meanwhile
			}
			for _, p := range paths {
				if _, err := catchUp(ctx, m, p, "", catchUpOptions{final: true, trigger: "catch-up"}); err != nil {
					errs = append(errs, fmt.Errorf("catch up %s: %w", p, err))
					return // its end stays for the next try
				}
			}
			if _, err := Capture(ctx, m, Batch{Session: e.ID, Trigger: "catch-up", Final: true, Status: model.StatusSuspended}); err != nil {
				errs = append(errs, fmt.Errorf("end session %s: %w", e.ID, err))
				return
			}
			n++
		})
	}
	type settling struct {
		e  *model.SessionEntry
		st still
	}
	var wait []settling
	for _, e := range list {
		if e.ID == except {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		st := stillness(m, e)
		// A transcript dated in the future (a clock set back) is left as
		// it was: neither waited for nor ended.
		switch age := time.Since(st.changed); {
		case age >= endQuiet:
			end(e, st.paths)
		case age >= 0 && st.watched:
			wait = append(wait, settling{e, st})
		}
	}
	for len(wait) > 0 && ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-time.After(settlePoll):
		}
		rest := wait[:0]
		for _, w := range wait {
			st := stillness(m, w.e)
			switch {
			case !st.changed.Equal(w.st.changed) || st.size != w.st.size:
				// Written again: a live session's.
			case time.Since(st.changed) >= endQuiet && ctx.Err() == nil:
				end(w.e, st.paths)
			default:
				rest = append(rest, w)
			}
		}
		wait = rest
	}
	return n, errors.Join(errs...)
}

// still is what stillness found of a session's transcripts.
type still struct {
	// changed is when the newest was written (the session's last
	// activity when it has none to look at); size what they hold, which
	// a write within one tick of a coarse clock changes all the same.
	changed time.Time
	size    int64
	// paths are those holding more than the session captured.
	paths []string
	// watched says it has transcripts to watch.
	watched bool
}

// stillness looks at the followed transcripts of session e.
func stillness(m *memory.Memory, e *model.SessionEntry) still {
	var st still
	for _, src := range e.Sources {
		if src.Path == "" {
			continue
		}
		fi, err := statTranscript(m, filepath.Clean(src.Path))
		if err != nil {
			continue
		}
		st.watched = true
		st.size += fi.Size()
		if fi.ModTime().After(st.changed) {
			st.changed = fi.ModTime()
		}
		if fi.Size() > src.Offset {
			st.paths = append(st.paths, filepath.Clean(src.Path))
		}
	}
	if !st.watched {
		st.changed = e.LastActivity
	}
	return st
}

// statTranscript is the FileInfo of one of the project's transcripts
// (follow.Open), never of what a link points at.
func statTranscript(m *memory.Memory, path string) (os.FileInfo, error) {
	f, err := follow.Open(m, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// endUnknown captures and ends the sessions of the followed transcripts
// changed since the last look whose session cairn has no record of, and
// notes the time of this look in .state/capture/ended-scan.
func endUnknown(ctx context.Context, m *memory.Memory, except string, now time.Time) (int, []error) {
	mark := m.StatePath(filepath.Join("capture", "ended-scan"))
	since := now.Add(-firstLookback)
	if fi, err := os.Stat(mark); err == nil {
		since = fi.ModTime()
	}
	n := 0
	var errs []error
	done := true
	for _, g := range follow.Globs(m) {
		files, _ := filepath.Glob(g)
		for _, p := range files {
			if ctx.Err() != nil {
				return n, errs // the mark stays: the next look covers this one's
			}
			id := transcript.SessionIDFromPath(p)
			if id == "" || id == except || memory.CheckSessionID(id) != nil || m.Sessions().Exists(id) {
				continue
			}
			fi, err := os.Lstat(p) // a link is none of the project's (follow.Open)
			if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Before(since) || fi.Size() == 0 {
				continue
			}
			// After the look at its time: Codex's tree holds the rollouts
			// of every project and every day, and this reads a first line.
			if !follow.ProjectRollout(m, p) {
				continue
			}
			if now.Sub(fi.ModTime()) < endQuiet {
				done = false // live: looked at again next time
				continue
			}
			if _, err := catchUp(ctx, m, p, id, catchUpOptions{final: true, trigger: "catch-up"}); errors.Is(err, follow.ErrRefused) {
				continue // not the project's: no reason to look again
			} else if err != nil {
				errs = append(errs, fmt.Errorf("catch up %s: %w", p, err))
				done = false
				continue
			}
			if _, err := Capture(ctx, m, Batch{Session: id, Trigger: "catch-up", Final: true, Status: model.StatusSuspended}); err != nil {
				errs = append(errs, fmt.Errorf("end session %s: %w", id, err))
				done = false
				continue
			}
			n++
		}
	}
	if done {
		if err := os.MkdirAll(filepath.Dir(mark), 0o700); err == nil {
			if err := os.WriteFile(mark, nil, 0o600); err == nil {
				_ = os.Chtimes(mark, now, now)
			}
		}
	}
	return n, errs
}
