package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/transcript"
	"github.com/cairn-mem/cairn/watcher"
)

// catchUpBudget is how long session-start spends, at most, capturing
// what the sessions before it left (through the daemon, or itself when
// none runs): half on the queue's jobs, a quarter more for a job still
// running then, a quarter to end the sessions whose end hooks never wrote.
// What is left waits for the daemon or the next start. The rest of the
// hook's deadline (hooks.SessionStartTimeout) is the pack's.
const catchUpBudget = 16 * time.Second

// autostartWait is how long a session start waits, at most, for the
// daemon it starts to answer: it answers in about 0.1 s; one slower is
// left starting, and the hook goes on without it.
const autostartWait = 2 * time.Second

// workOptions splits a catch-up budget (see catchUpBudget).
func workOptions(total time.Duration, except string) capture.WorkOptions {
	return capture.WorkOptions{Budget: total / 2, Grace: total / 4, EndBudget: total / 4, Except: except}
}

// SessionStart is what cairn hook session-start answers for the memory
// m, given the hook's payload: capture what the sessions before it left
// (the daemon does it when one runs, and this waits for it), pack the
// context, queue the session's record. The output (nil when there is
// nothing to say) is worth printing even with an error, which collects
// what went wrong on the way. With run, and unless cairn.yaml says
// daemon.autostart: false, a daemon is started through it when none runs.
func SessionStart(ctx context.Context, m *memory.Memory, payload []byte, run *client.Spawn) (*hooks.Output, error) {
	var errs []error
	// The capture script is not synced (a script from a remote would run
	// here): it is written from this binary, and put back if it is gone
	// or was changed.
	if _, err := hooks.Install(filepath.Join(m.Dir, "hooks")); err != nil {
		errs = append(errs, err)
	}
	h, perr := transcript.ParseHook(payload)
	if perr != nil {
		// The context is still worth giving; the session is not recorded.
		errs = append(errs, fmt.Errorf("payload not recorded: %w", perr))
		h = nil
	}
	var so recall.StartOptions
	if h != nil {
		so = recall.StartOptions{Source: h.Source, Session: h.SessionID}
	}
	text, notes, perrs := StartPack(ctx, m, so, run)
	errs = append(errs, perrs...)
	// The session is recorded through the queue, after the pack is made
	// (so that a new session's pack shows the one before it as the
	// latest): a commit here would cost more than the rest of the hook.
	if h != nil {
		rctx := ctx
		if ctx.Err() != nil {
			// A pack given up at the deadline leaves the record its
			// moment: without it the session is never captured.
			var cancel context.CancelFunc
			rctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), packWait)
			defer cancel()
		}
		if err := capture.EnqueueHook(rctx, m, h.SessionID, payload); err != nil {
			errs = append(errs, fmt.Errorf("record session %s: %w", h.SessionID, err))
		}
	}

	out := &hooks.Output{SystemMessage: strings.Join(notes, "\n")}
	if text != "" {
		out.Specific = &hooks.Specific{HookEventName: model.HookSessionStart, AdditionalContext: recall.CapChars(text, hooks.MaxContextChars)}
	}
	if out.Specific == nil && out.SystemMessage == "" {
		return nil, errors.Join(errs...)
	}
	return out, errors.Join(errs...)
}

// StartPack is SessionStart up to the session's record: the catch-up
// (so.Session left out) and the pack; notes are the lines for the user.
// With run, a daemon is started when none runs (daemon.autostart).
func StartPack(ctx context.Context, m *memory.Memory, so recall.StartOptions, run *client.Spawn) (text string, notes []string, errs []error) {
	except := so.Session
	total := catchUpBudget
	if d, ok := ctx.Deadline(); ok {
		// Leave the pack at least as long as the catch-up.
		total = min(total, time.Until(d)/2)
	}
	// One look for the daemon, under the hook's deadline: it also makes
	// the pack.
	var daemon recall.Searcher
	var n capture.Worked
	c, err := client.Discover(ctx, m.StatePath(""), client.DefaultWait)
	starting := false
	if err != nil && run != nil && m.Config.Daemon.Autostarts() {
		var pid int
		c, pid, err = client.Autostart(ctx, m.StatePath(""), m.Dir, *run, autostartWait)
		switch {
		case errors.Is(err, client.ErrStarting):
			starting = true
			notes = append(notes, "cairn: the memory sidecar is starting; it captures what the last sessions left shortly")
		case err != nil:
			errs = append(errs, err)
		case pid != 0:
			notes = append(notes, fmt.Sprintf("cairn: started the memory sidecar (pid %d; log in %s)", pid, m.StatePath(client.LogFile)))
		}
	}
	if err == nil {
		daemon = recall.Remote{Client: c}
		cctx, cancel := context.WithTimeout(ctx, total+time.Second)
		r, err := c.CatchUp(cctx, client.CatchUpRequest{Except: except, BudgetMS: total.Milliseconds()})
		cancel()
		switch {
		case err == nil:
			n = capture.Worked{Done: r.Done, Failed: r.Failed, Ended: r.Ended, Left: r.Left, Pending: r.Pending, Waiting: r.Waiting}
		case cctx.Err() != nil:
			n.Left = true
		default:
			errs = append(errs, fmt.Errorf("capture what the last sessions left: %w", err))
		}
		if n.Left {
			notes = append(notes, "cairn: "+leftNote(n, "the daemon captures the rest shortly"))
		}
	} else {
		o := workOptions(total, except)
		// A daemon starting runs its worker soon: what it takes from
		// the queue is its own, not to be taken back here.
		o.Daemon = starting
		n, err = capture.WorkFor(ctx, m, o)
		if err != nil {
			errs = append(errs, err)
		}
		if !starting {
			what := "nothing was waiting"
			if n.Done+n.Failed > 0 {
				what = fmt.Sprintf("%s processed now", countOf(n.Done+n.Failed, "queued event", "queued events"))
			}
			notes = append(notes, fmt.Sprintf("cairn: the memory sidecar is not running, so captured events wait for the next session start (%s). Start it with: cairn daemon start", what))
		}
		if n.Left {
			notes = append(notes, "cairn: "+leftNote(n, "the next session start captures the rest"))
		}
	}
	if failed, err := capture.FailedJobs(ctx, m); err == nil && failed > 0 {
		notes = append(notes, fmt.Sprintf("cairn: %s failed; see cairn queue list --state failed, or run cairn doctor", countOf(failed, "capture job", "capture jobs")))
	}

	text, late, err := packBy(ctx, func(ctx context.Context) (string, error) { return recall.StartPack(ctx, m, daemon, so) })
	if late {
		notes = append(notes, "cairn: the session-start deadline came first: this context leaves out what there was no time to read; cairn context shows it all")
		err = nil // said in the note
	}
	if err != nil {
		errs = append(errs, err)
	}
	if so.Session != "" && text != "" {
		if err := capture.Tell(m, so.Session, text); err != nil {
			errs = append(errs, err)
		}
	}
	return text, notes, errs
}

// The pack's share of the end of the hook's deadline: it stops reading
// items packMargin before it, and is given up packWait before it, so
// that the session's record and the output are made in time.
const (
	packMargin = 1500 * time.Millisecond
	packWait   = 500 * time.Millisecond
)

// packBy runs pack under ctx's deadline less packMargin: the pack holds
// what it read by then (recall.Context). Should it still be making it
// packWait before the deadline, it is given up (the goroutine ends with
// the process): text is "" and late true. late is also true when the
// pack was cut short.
func packBy(ctx context.Context, pack func(context.Context) (string, error)) (text string, late bool, err error) {
	d, ok := ctx.Deadline()
	if !ok {
		text, err = pack(ctx)
		return text, false, err
	}
	pctx, cancel := context.WithDeadline(ctx, d.Add(-packMargin))
	defer cancel()
	type made struct {
		text string
		err  error
	}
	done := make(chan made, 1)
	go func() {
		text, err := pack(pctx)
		done <- made{text, err}
	}()
	wait := time.NewTimer(time.Until(d.Add(-packWait)))
	defer wait.Stop()
	select {
	case r := <-done:
		return r.text, pctx.Err() != nil, r.err
	case <-wait.C:
		return "", true, nil
	case <-ctx.Done():
		return "", true, nil
	}
}

// leftNote is the line saying what the session-start deadline left for
// later: "the session-start deadline came first: 3 queued events are left,
// so this context may miss the end of the last session; the daemon
// captures the rest shortly". Jobs waiting for a retry are not counted:
// they would not have run now anyway.
func leftNote(n capture.Worked, then string) string {
	jobs := n.Pending
	for _, w := range n.Waiting {
		if w.Reason == watcher.WaitRetry {
			jobs--
		}
	}
	what := "ending the sessions whose last hooks never wrote is left"
	if jobs > 0 {
		what = countOf(jobs, "queued event is", "queued events are") + " left"
	}
	return fmt.Sprintf("the session-start deadline came first: %s, so this context may miss the end of the last session; %s", what, then)
}

// PromptContext is what cairn hook user-prompt-submit answers for the
// memory in dir, which open opens: the memories most relevant to the
// prompt, when cairn.yaml asks for them (nil otherwise).
func PromptContext(ctx context.Context, dir string, open func(context.Context) (*memory.Memory, error), payload []byte) (*hooks.Output, error) {
	m, err := open(ctx)
	if err != nil {
		return nil, err
	}
	cfg, state := m.Config.Hooks, m.StatePath("")
	m.Close()
	if !cfg.PromptContext {
		return nil, nil
	}
	h, err := transcript.ParseHook(payload)
	if err != nil {
		return nil, err
	}
	s, done, err := recall.Open(ctx, dir, recall.OpenOptions{Open: open})
	if err != nil {
		return nil, err
	}
	defer done()
	start := time.Now()
	text, err := recall.PromptMemories(ctx, s, h.Prompt, cfg.Memories())
	if err == nil {
		metrics.Open(state).Record(ctx, recall.PromptMetric(text, time.Since(start)))
	}
	if err != nil || text == "" {
		return nil, err
	}
	return &hooks.Output{Specific: &hooks.Specific{HookEventName: model.HookUserPromptSubmit, AdditionalContext: recall.CapChars(text, hooks.MaxPromptContextChars)}}, nil
}

// countOf is "1 thing" or "N things" (internal/ui's CountOf).
func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
