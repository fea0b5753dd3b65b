package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/keep"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/rollout"
	"github.com/cairn-mem/cairn/watcher"
)

// IdleTranscript is how long a transcript must stay quiet before its
// last, held-back lines are captured.
const IdleTranscript = time.Minute

// captureWorker is the part that follows the agent transcripts and the
// inbox, queues what arrives, and works the queue: the sidecar's capture
// path. Every memory operation goes through ops, so the worker, the API
// and the periodic jobs never interleave in one process (gitstore's lock
// is per process).
type captureWorker struct {
	mem *memory.Memory
	log *slog.Logger
	ops *opLock
}

func (c *captureWorker) Serve(ctx context.Context) error {
	m := c.mem
	q, err := capture.Queue(m, watcher.QueueOptions{})
	if err != nil {
		return fmt.Errorf("capture: open the queue: %w", err)
	}
	cursors, err := capture.Cursors(m)
	if err != nil {
		return fmt.Errorf("capture: open the transcript cursors: %w", err)
	}
	// Jobs a killed daemon left half done go back to pending, here, each
	// counted as abandoned rather than failed: the job claimed first after
	// every start-up is the one a string of kills keeps finding in flight,
	// through no fault of its own. A run after this part failed does the
	// same, so the job a panic interrupted runs again, and one that keeps
	// taking the worker down ends in failed/ after the queue's
	// MaxAbandoned.
	// This daemon holds the daemon lock, so no other worker loop runs; a
	// `cairn queue run` at this very moment could be working on one, and
	// then that job runs twice, which has the effect of once.
	if n, err := q.Recover(ctx, 0); err != nil {
		c.log.Warn("recover queue", "err", err)
	} else if n > 0 {
		c.log.Info("recovered jobs left in processing", "jobs", n)
	}
	sweep := func() {
		if n, err := q.Sweep(ctx); err != nil {
			c.log.Warn("sweep the inbox", "err", err)
		} else if n.Removed+n.Rescued > 0 {
			c.log.Info("cleaned up the temporary files of killed hooks", "removed", n.Removed, "recovered", n.Rescued)
		}
	}
	sweep()
	var (
		idleMu sync.Mutex
		active = map[string]time.Time{} // transcript -> last growth
	)
	wake := make(chan struct{}, 1)
	poke := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	// Codex's rollouts of every project lie in one tree: only this
	// project's are handed on.
	rollouts := &rollout.Filter{Project: m.Project}
	w, err := watcher.New(watcher.Config{
		Globs:   follow.Globs(m),
		Cursors: cursors,
		OnDelta: func(ctx context.Context, dl watcher.Delta) error {
			if rollout.Is(dl.Path) {
				if ok, err := rollouts.Follows(dl.Path); err != nil || !ok {
					return err // an error: the range comes again
				}
			}
			idleMu.Lock()
			active[dl.Path] = time.Now()
			idleMu.Unlock()
			_, err := q.Enqueue(ctx, dl.Job())
			poke()
			return err
		},
		Inbox:   filepath.Join(m.Dir, "inbox"),
		OnInbox: func(context.Context) { poke() },
		Ignore:  []string{m.StatePath("")},
		Log:     c.log,
	})
	if err != nil {
		return fmt.Errorf("capture: watch transcripts and the inbox: %w", err)
	}
	// The watcher runs beside the loop below and stops with it, however
	// the loop ends, so that a run after a failure does not find the last
	// run's watcher still delivering. Its panics are this part's failure
	// too: the supervisor only sees the goroutine it started.
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	werr := make(chan error, 1)
	wg.Go(func() { werr <- serveProtected(ctx, w) })

	archive := time.NewTicker(time.Hour)
	defer archive.Stop()
	poll := time.NewTicker(2 * time.Second) // backed-off jobs become due
	defer poll.Stop()
	for {
		for ctx.Err() == nil {
			j, err := q.Claim(ctx)
			if errors.Is(err, watcher.ErrEmpty) {
				break
			}
			if err != nil {
				c.log.Warn("claim job", "err", err)
				break
			}
			c.ops.do(func() { _, err = capture.RunJob(ctx, m, q, cursors, j) })
			if err != nil {
				c.log.Warn("job failed", "job", j.ID, "kind", j.Kind, "attempt", j.Attempts, "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return <-werr
		case err := <-werr:
			if err == nil {
				err = errors.New("stopped while the daemon runs")
			}
			return fmt.Errorf("capture: watcher: %w", err)
		case <-wake:
		case <-poll.C:
			// A transcript quiet for a while has said its last: its
			// held-back end (the turn's last reply) is captured now.
			idleMu.Lock()
			var idle []string
			for p, t := range active {
				if time.Since(t) > IdleTranscript {
					idle = append(idle, p)
					delete(active, p)
				}
			}
			idleMu.Unlock()
			for _, p := range idle {
				c.ops.do(func() { _, err = capture.CatchUpTranscript(ctx, m, p, true) })
				if err != nil {
					c.log.Warn("catch up idle transcript", "path", p, "err", err)
				}
			}
		case <-archive.C:
			sweep()
			c.ops.do(func() { _, err = m.Sessions().ArchiveInactive(ctx, 0) })
			if err != nil {
				c.log.Warn("archive inactive sessions", "err", err)
			}
			// capture.transcripts_keep: archived transcripts leave the work tree.
			c.ops.do(func() { _, err = keep.Retain(ctx, m) })
			if err != nil {
				c.log.Warn("retain archived transcripts", "err", err)
			}
		}
	}
}
