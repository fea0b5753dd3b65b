package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/indexer"
)

// drainWait is how long a trial gives the daemon to take the last
// session's captures before it stops it: what is still queued then is
// reported.
const drainWait = 2 * time.Minute

// slowDrain is a wait for the queue that is reported.
const slowDrain = 10 * time.Second

func runTrial(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("trial", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tools := toolFlags(fs)
	var o options
	o.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: recall trial [-claude CLI] [-fake fake_anthropic.py] [-cairn BIN] [-budget N] [-keep DIR] [-packs DIR] [-json] [-v] testdata/recall/PROJECT...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return usageError{errors.New("trial: name the projects to play")}
	}
	root, dirs, err := o.projects(fs.Args())
	if err != nil {
		return err
	}
	warn := func(s string) { fmt.Fprintln(stderr, "warning:", s) }
	r := &recorder{warn: warn, log: func(s string) { fmt.Fprintln(stderr, s) }}
	if err := tools(r); err != nil {
		return err
	}
	bin, done, err := cairnBinary(ctx, root, o.cairn)
	if err != nil {
		return err
	}
	defer done()
	rp := &replayer{cairn: bin, daemon: true, budget: o.budget, packs: o.packs, keep: o.keep}
	rep := &Report{Daemon: true, Trial: true}
	err = rep.run(dirs, warn, func(dir string) (*Result, error) {
		sc, err := LoadScenario(dir, warn)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		res, recs, err := rp.trial(ctx, r, sc)
		if err != nil {
			return nil, fmt.Errorf("%s: trial: %w", sc.Project, err)
		}
		r.log(fmt.Sprintf("%s: trial took %v", sc.Project, time.Since(start).Round(time.Second)))
		return newResult(sc, res, recs), nil
	})
	if err != nil {
		return err
	}
	return rep.write(stdout, o.asJSON, o.verbose)
}

// trial plays sc as a user's sessions run: the real Claude Code CLI (r)
// against the scripted model, in a scratch project where cairn init
// --claude installed cairn's hooks, which start the daemon themselves.
// A session's pack is what its SessionStart hook printed, as the
// transcript keeps it; recs holds the transcripts, for the baselines.
func (rp *replayer) trial(ctx context.Context, r *recorder, sc *Scenario) (res *Replay, recs map[string]*Recorded, err error) {
	s, err := newScratch("cairn-trial-")
	if err != nil {
		return nil, nil, err
	}
	defer rp.leave(s, sc.Project, true, &err)
	// The hooks name the binary by its path; on PATH too, as for a user
	// who installed it.
	s.binDir = filepath.Dir(rp.cairn)
	if err := s.setup(ctx, sc); err != nil {
		return nil, nil, err
	}
	res = &Replay{Packs: map[string]string{}}
	installed, err := rp.install(ctx, s, res)
	if err != nil {
		return nil, nil, err
	}
	// Whatever happens, no daemon of the scratch project outlives it.
	defer func() {
		start := time.Now()
		found := rp.finish(context.WithoutCancel(ctx), s)
		r.log(fmt.Sprintf("%s: the queue drained, the daemon stopped and the memory checked in %v", sc.Project, time.Since(start).Round(100*time.Millisecond)))
		if err != nil {
			if len(found) > 0 {
				err = errors.Join(err, errors.New(strings.Join(found, "\n")))
			}
			return
		}
		res.Warnings = append(res.Warnings, found...)
	}()
	recs = map[string]*Recorded{}
	for i := range sc.Sessions {
		ss := &sc.Sessions[i]
		where := fmt.Sprintf("%s: session %s", sc.Project, ss.Name)
		start := time.Now()
		if ss.Clear {
			err = playClear(ctx, r, s, ss, installed, res, where)
		} else {
			recs[ss.Name], err = rp.session(ctx, r, s, ss, res, where)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("session %s: %w", ss.Name, err)
		}
		r.log(fmt.Sprintf("%s: a pack of %d tokens, in %v", where, indexer.EstimateTokens(res.Packs[ss.Name]), time.Since(start).Round(100*time.Millisecond)))
	}
	if rp.packs != "" {
		if err := writePacks(filepath.Join(rp.packs, sc.Project), res.Packs); err != nil {
			return nil, nil, err
		}
	}
	return res, recs, nil
}

// playClear makes the calls of an empty session through the installed hooks:
// claude -p cannot /clear, so they are those record writes for it.
func playClear(ctx context.Context, r *recorder, s *scratch, ss *Session, installed []hooks.Registered, res *Replay, where string) error {
	rec, err := r.clearSession(s, ss)
	if err != nil {
		return err
	}
	for _, c := range rec.Calls {
		res.Calls++
		res.runHooks(ctx, s, installed, ss.Name, where+" ("+c.Event+")", c.Event, "", c.Payload)
	}
	return nil
}

// session runs ss through the claude CLI and takes its pack, the hook
// results and what claude printed on stderr from its transcript into res.
func (rp *replayer) session(ctx context.Context, r *recorder, s *scratch, ss *Session, res *Replay, where string) (*Recorded, error) {
	// Read only if the transcript has no pack: what the hook would have
	// started from.
	before, ctxErr := s.output(ctx, rp.cairn, "context")
	rec, err := r.play(ctx, s, ss, func(prompt int, stderr string) ([]Call, error) {
		if t := strings.TrimSpace(stderr); t != "" {
			res.Errors = append(res.Errors, fmt.Sprintf("%s prompt %d: claude printed on stderr: %s", where, prompt, oneLine(t, 500)))
		}
		return nil, nil
	})
	if err != nil {
		return nil, err
	}
	hl := hookLines(rec.Transcript)
	res.Calls += len(hl)
	for _, h := range hl {
		if h.Event == "SessionStart" && h.Type == "hook_success" {
			res.Starts++
		}
		if e := h.failure(); e != "" {
			res.Errors = append(res.Errors, where+": "+e)
		}
	}
	pack, ok := startPack(hl)
	if !ok {
		if ctxErr != nil {
			return nil, fmt.Errorf("the transcript holds no SessionStart output, and %w", ctxErr)
		}
		pack = strings.TrimSpace(string(before))
		res.Warnings = append(res.Warnings, where+": the transcript holds no SessionStart output: scored cairn context as run before the session")
	}
	res.Packs[ss.Name] = pack
	return rec, nil
}

// finish lets the daemon take what is queued, stops it, and checks what
// the sessions left: the memory's repository, and jobs that failed or
// are still queued. It returns what it found wrong.
func (rp *replayer) finish(ctx context.Context, s *scratch) []string {
	var out []string
	empty, err := rp.drain(ctx, s)
	if err != nil {
		out = append(out, err.Error())
	}
	if err := s.run(ctx, rp.cairn, "daemon", "stop"); err != nil {
		out = append(out, err.Error())
	}
	if st, err := s.output(ctx, rp.cairn, "daemon", "status", "--json"); err != nil {
		out = append(out, err.Error())
	} else if bytes.Contains(st, []byte(`"running": true`)) {
		out = append(out, "the daemon still runs after cairn daemon stop: "+oneLine(string(st), 200))
	}
	if err := s.run(ctx, "git", "-C", ".cairn", "fsck", "--no-dangling"); err != nil {
		out = append(out, err.Error())
	}
	if q, err := rp.queue(ctx, s); err != nil {
		out = append(out, err.Error())
	} else if q.Failed > 0 || q.Pending > empty || q.Processing > 0 {
		failed, _ := s.output(ctx, rp.cairn, "queue", "list", "--state", "failed")
		out = append(out, fmt.Sprintf("cairn queue after the daemon stopped: %d pending (%d of them empty payloads), %d processing, %d failed: %s", q.Pending, empty, q.Processing, q.Failed, oneLine(string(failed), 1000)))
	}
	return out
}

// queueStatus is what cairn queue --json prints.
type queueStatus struct {
	Pending    int `json:"pending"`
	Processing int `json:"processing"`
	Failed     int `json:"failed"`
}

func (rp *replayer) queue(ctx context.Context, s *scratch) (queueStatus, error) {
	var q queueStatus
	out, err := s.output(ctx, rp.cairn, "queue", "--json")
	if err != nil {
		return q, err
	}
	if err := json.Unmarshal(out, &q); err != nil {
		return q, fmt.Errorf("cairn queue --json: %w", err)
	}
	return q, nil
}

// drain waits, up to drainWait, until the queue has nothing pending or
// being processed: the daemon takes the last session's captures in a few
// seconds. What holds it longer is an error that says what the inbox
// held. Empty capture payloads are not waited for: cairn leaves one a
// minute for its writer, but the sessions are over: drain returns how
// many it left.
func (rp *replayer) drain(ctx context.Context, s *scratch) (empties int, err error) {
	start := time.Now()
	dir := filepath.Join(s.project, ".cairn", "inbox")
	first := ""
	for {
		q, err := rp.queue(ctx, s)
		if err != nil {
			return 0, err
		}
		waited := time.Since(start)
		files, empty := inbox(dir)
		switch {
		case q.Pending+q.Processing == 0 && waited > slowDrain:
			return 0, fmt.Errorf("the daemon took %v to take the queue; .cairn/inbox held at first: %s", waited.Round(time.Second), first)
		case q.Pending+q.Processing == 0:
			return 0, nil
		case q.Processing == 0 && q.Pending == empty:
			return empty, fmt.Errorf("%d empty capture payloads in .cairn/inbox, each a hook's capture cut off as it wrote (its payload lost; cairn removes it after a minute): %s", empty, files)
		case waited > drainWait:
			return 0, fmt.Errorf("the daemon did not take the queue in %v (%d pending, %d processing); .cairn/inbox holds: %s", drainWait, q.Pending, q.Processing, files)
		}
		if first == "" {
			first = files
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// inbox lists the files of the memory's inbox dir with their sizes, and
// counts the empty ones no writer touched for a few seconds.
func inbox(dir string) (files string, empty int) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err.Error(), 0
	}
	var parts []string
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s (%d bytes)", e.Name(), fi.Size()))
		if fi.Size() == 0 && time.Since(fi.ModTime()) > 2*time.Second {
			empty++
		}
	}
	return firstOf(strings.Join(parts, ", "), "nothing"), empty
}

// hookLine is a hook's result as Claude Code 2.1 keeps it in the
// transcript: an attachment line (hook_success carries the command's
// stdout; the other types say how it failed).
type hookLine struct {
	Type     string          `json:"type"`
	HookName string          `json:"hookName"`
	Event    string          `json:"hookEvent"`
	Stdout   string          `json:"stdout"`
	Stderr   string          `json:"stderr"`
	Content  json.RawMessage `json:"content"`
	ExitCode *int            `json:"exitCode"`
}

// hookFailures are the attachment types of a hook that did not run to
// its end.
var hookFailures = map[string]bool{"hook_non_blocking_error": true, "hook_blocking_error": true,
	"hook_error_during_execution": true, "hook_cancelled": true}

// hookLines lists the hook results of a transcript, in order.
func hookLines(tr []byte) []hookLine {
	var out []hookLine
	for line := range bytes.Lines(tr) {
		var l struct {
			Type       string   `json:"type"`
			Attachment hookLine `json:"attachment"`
		}
		if json.Unmarshal(line, &l) != nil || l.Type != "attachment" {
			continue
		}
		if h := l.Attachment; h.Type == "hook_success" || hookFailures[h.Type] {
			out = append(out, h)
		}
	}
	return out
}

// failure says how the hook failed, or what it printed on stderr; "" for
// neither.
func (h hookLine) failure() string {
	var content string
	if json.Unmarshal(h.Content, &content) != nil {
		content = string(h.Content)
	}
	detail := oneLine(firstOf(h.Stderr, content), 500)
	switch {
	case hookFailures[h.Type]:
		return fmt.Sprintf("%s %s: %s", h.HookName, h.Type, detail)
	case h.ExitCode != nil && *h.ExitCode != 0:
		return fmt.Sprintf("%s exited %d: %s", h.HookName, *h.ExitCode, detail)
	case strings.TrimSpace(h.Stderr) != "":
		return fmt.Sprintf("%s printed on stderr: %s", h.HookName, detail)
	}
	return ""
}

// startPack is the pack of the session's first SessionStart: the
// additionalContext its hook printed, or none if it failed; ok is false
// when the transcript has no SessionStart result.
func startPack(hl []hookLine) (pack string, ok bool) {
	for _, h := range hl {
		if h.Event != "SessionStart" {
			continue
		}
		if h.Type != "hook_success" || (h.ExitCode != nil && *h.ExitCode != 0) {
			return "", true
		}
		return additionalContext([]byte(h.Stdout)), true
	}
	return "", false
}
