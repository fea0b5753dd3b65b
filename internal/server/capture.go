package server

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/watcher"
)

// IdleTranscript is how long a transcript must stay quiet before its
// last, held-back lines are captured.
const IdleTranscript = time.Minute

// capture follows the agent transcripts and the inbox, queues what
// arrives, and works the queue: the sidecar's capture path. Every memory
// operation holds d.mu, so the worker, the API and the periodic jobs never
// interleave in one process (gitstore's lock is per process).
func (d *Daemon) capture(ctx context.Context) error {
	m := d.Mem
	q, err := capture.Queue(m, watcher.QueueOptions{})
	if err != nil {
		return err
	}
	cursors, err := capture.Cursors(m)
	if err != nil {
		return err
	}
	// Jobs a killed daemon left half done go back to pending, once, here,
	// each counted as abandoned rather than failed: the job claimed first
	// after every start-up is the one a string of kills keeps finding in
	// flight, through no fault of its own.
	// This daemon holds the daemon lock, so no other worker loop runs; a
	// `cairn queue run` at this very moment could be working on one, and
	// then that job runs twice, which has the effect of once.
	if n, err := q.Recover(ctx, 0); err != nil {
		d.Log.Warn("recover queue", "err", err)
	} else if n > 0 {
		d.Log.Info("recovered jobs left in processing", "jobs", n)
	}
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
	w, err := watcher.New(watcher.Config{
		Globs:   m.TranscriptGlobs(),
		Cursors: cursors,
		OnDelta: func(ctx context.Context, dl watcher.Delta) error {
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
		Log:     d.Log,
	})
	if err != nil {
		return err
	}
	werr := make(chan error, 1)
	go func() { werr <- w.Serve(ctx) }()

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
				d.Log.Warn("claim job", "err", err)
				break
			}
			d.mu.Lock()
			_, err = capture.RunJob(ctx, m, q, cursors, j)
			d.mu.Unlock()
			if err != nil {
				d.Log.Warn("job failed", "job", j.ID, "kind", j.Kind, "attempt", j.Attempts, "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return <-werr
		case err := <-werr:
			return err
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
				d.mu.Lock()
				if _, err := capture.CatchUpTranscript(ctx, m, p, true); err != nil {
					d.Log.Warn("catch up idle transcript", "path", p, "err", err)
				}
				d.mu.Unlock()
			}
		case <-archive.C:
			d.mu.Lock()
			if _, err := m.ArchiveInactive(ctx, 0); err != nil {
				d.Log.Warn("archive inactive sessions", "err", err)
			}
			d.mu.Unlock()
		}
	}
}
