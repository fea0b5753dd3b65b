package capture

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/consolidate"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/backlog"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/recent"
	"github.com/cairn-mem/cairn/internal/redact"
	"github.com/cairn-mem/cairn/internal/summarize"
	"github.com/cairn-mem/cairn/internal/summarize/echo"
	"github.com/cairn-mem/cairn/internal/summarize/llm"
	"github.com/cairn-mem/cairn/internal/transcript"
)

// Batch is a run of events of one agent session to capture: the events
// a parse of a transcript range gave, or those of a hook payload.
//
// Capturing a batch is idempotent. Events from a transcript are
// recognised by where they come from: the session keeps, per transcript
// file name (Source), the offset up to which events were captured, and
// events of lines before it are skipped; a file that starts with another
// first event under a known name starts over. A batch without a source
// (a hook payload) is recognised by its Key.
type Batch struct {
	// Session is the agent's session id. It is checked with
	// transcript.ValidateSessionID before it becomes a folder name.
	Session string
	// Agent is claude-code, codex, chat or markdown; it is recorded when
	// the session is new.
	Agent string
	// Source is the transcript the events were read from; "" for hook
	// events. Its file name is its identity in the session.
	Source string
	// SourceName is the transcript's identity in the session; "" means
	// Source's file name.
	SourceName string
	Format     transcript.Format
	// From and To are the byte range of Source that was parsed: From its
	// start and To how far the parse got (transcript.Parsed.Consumed).
	From, To  int64
	Events    []transcript.Event
	Sidechain []transcript.Event
	// Key identifies a batch without a source, such as a hook payload.
	Key string
	// Trigger is what caused the capture, recorded as the checkpoint's
	// Cairn-Event: ingest, transcript, stop, session-end, ...
	Trigger string
	// Final says the session ended (SessionEnd, the end of an ingest, a
	// session whose end hooks never wrote): what is pending is summarised
	// whatever its size. Otherwise segments are cut only once they reach
	// capture.segment_turns or segment_tokens, not at every Stop.
	Final bool
	// Status, when set, is the session's status afterwards (SessionEnd
	// suspends it).
	Status model.SessionStatus
	// Jobs are the queue jobs the batch does, recorded in the commit.
	Jobs []string
	// Summarizer summarises due segments; nil means the configured one.
	Summarizer summarize.Summarizer

	// known is the session as the caller read it, when it did (to find
	// how far a transcript was captured), and stamp the state it read it
	// in: the plan takes it instead of reading session.yaml again.
	known *model.SessionEntry
	stamp string
	// before returns the events of Source before From, which a capture
	// of a file a range at a time has read in earlier jobs: a Write of a
	// whole file needs what an earlier Read showed of it. Nil: none.
	before func() []transcript.Event
}

// CaptureResult says what capturing a batch did.
type CaptureResult struct {
	Session     string             `json:"session"`
	Dir         string             `json:"dir"` // the session's folder
	Agent       string             `json:"agent"`
	Created     bool               `json:"created"`     // the session is new
	Reactivated bool               `json:"reactivated"` // it was suspended or archived, and is active again
	Events      int                `json:"events"`      // events captured now
	Skipped     int                `json:"skipped"`     // events captured before
	Prompts     int                `json:"prompts"`     // new prompts
	Segments    int                `json:"segments"`    // summary sections written
	Redactions  int                `json:"redactions"`  // secrets removed
	Provider    string             `json:"provider,omitempty"`
	Fallback    string             `json:"fallback_reason,omitempty"` // why the configured summarizer did not write a section
	Items       []model.ItemChange `json:"items,omitempty"`
	Commit      string             `json:"commit,omitempty"` // "" when nothing changed
	Ignored     string             `json:"ignored,omitempty"`
}

// Limits on what one event puts into memory, in bytes. Longer texts keep
// their head and tail (redact.Truncate).
const (
	maxPromptText    = 16 << 10
	maxAssistantText = 4 << 10
	maxCompactText   = 4 << 10
	maxTitle         = 80
)

// Summarizer returns the configured summarizer: the built-in extractive
// one unless cairn.yaml's summarize section names a model provider, which
// then comes with a daily token budget (kept in .state/summarize/) and
// falls back to the extractive one when it fails. getenv reads API keys
// (os.Getenv). When the configuration is unusable it returns the
// extractive summarizer and an error saying why.
func Summarizer(m *memory.Memory, getenv func(string) string) (summarize.Summarizer, error) {
	cfg := m.Config.Summarize
	s, err := llm.New(cfg.Config, m.StatePath("summarize"), getenv)
	if err != nil {
		return summarize.Extractive{}, fmt.Errorf("cairn.yaml summarize: %w; using the built-in summarizer", err)
	}
	retry := llm.Retry{Attempts: cfg.Attempts, Backoff: time.Duration(cfg.Backoff)}
	if fb, ok := s.(*summarize.Fallback); ok {
		switch p := fb.Primary.(type) {
		case *llm.OpenAI:
			p.Retry = retry
		case *llm.Anthropic:
			p.Retry = retry
		case *llm.ClaudeCLI:
			p.Retry = retry
		}
	}
	return s, nil
}

// Capture applies a batch of events to its session: it creates the
// session on first sight, appends the new events (redacted) to
// prompts.md, transcript.md and observations.md, summarises the segments
// that are due into summary.md, consolidates what the summarizer proposes
// into core/, updates session.yaml, and checkpoints all of it as one
// commit whose Cairn-Event is the batch's Trigger. Events captured before
// change nothing; a batch with nothing new makes no commit.
//
// A slow summarizer runs without the write lock held; the files are
// written and committed under it.
func Capture(ctx context.Context, m *memory.Memory, b Batch) (*CaptureResult, error) {
	if err := memory.CheckSessionID(b.Session); err != nil {
		return nil, permanent(err) // the same id next time
	}
	if why := ignored(m, &b); why != "" {
		return &CaptureResult{Session: b.Session, Skipped: len(b.Events) + len(b.Sidechain), Ignored: why}, nil
	}
	if b.Summarizer == nil {
		s, err := Summarizer(m, os.Getenv)
		if err != nil {
			m.Warn(err.Error())
		}
		b.Summarizer = s
	}
	red, err := m.Redactor()
	if err != nil {
		return nil, err
	}
	// Plan and summarise without the lock, then write under it if the
	// session did not change meanwhile; the last try does it all under
	// the lock.
	for try := 0; ; try++ {
		last := try == 2
		var unlock func()
		if last {
			if unlock, err = m.LockSettled(ctx); err != nil {
				return nil, err
			}
		}
		p, err := makePlan(ctx, m, &b, red)
		if err == nil {
			err = p.summarise(ctx, b.Summarizer, red)
		}
		if err != nil {
			if unlock != nil {
				unlock()
			}
			return nil, err
		}
		if !last {
			if unlock, err = m.LockSettled(ctx); err != nil {
				return nil, err
			}
			if m.Sessions().Stamp(b.Session) != p.state {
				unlock()
				continue
			}
		}
		res, err := apply(ctx, m, p, red)
		unlock()
		return res, err
	}
}

func (b *Batch) sourceName() string {
	if b.SourceName != "" {
		return b.SourceName
	}
	return filepath.Base(b.Source)
}

// ignored says why a batch is not captured: it comes from cairn's own
// summarizer, whose agent sessions run inside the memory's state folder.
func ignored(m *memory.Memory, b *Batch) string {
	const why = "a session of cairn's own summarizer"
	if follow.Internal(m, b.Source) {
		return why
	}
	for _, list := range [][]transcript.Event{b.Events, b.Sidechain} {
		for i := range list {
			if follow.Internal(m, list[i].CWD) {
				return why
			}
		}
	}
	return ""
}

// plan is a batch worked out: the session as it will be, the text to
// append to its files, the turns waiting for a summary and the segments
// due.
type plan struct {
	m     *memory.Memory
	b     *Batch
	state string // memory.SessionStamp when the plan began

	entry   *model.SessionEntry
	res     *CaptureResult
	writes  memory.Writes
	changed bool // something is worth a commit
	pending []backlog.Turn
	// before is the agent's last message already summarised, which the
	// first pending prompt may answer.
	before   string
	segments []segment
	prevSum  string // summary.md so far
}

// segment is a run of pending turns summarised as one section.
type segment struct {
	turns  []backlog.Turn
	result summarize.Result
}

func makePlan(ctx context.Context, m *memory.Memory, b *Batch, red *redact.Redactor) (*plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := m.Now().UTC().Truncate(time.Second)
	p := &plan{m: m, b: b, state: m.Sessions().Stamp(b.Session)}
	var e *model.SessionEntry
	var err error
	if b.known != nil && b.stamp == p.state {
		e, b.known = b.known, nil // the plan changes it: used once
	} else {
		e, err = m.Sessions().Find(b.Session)
	}
	switch {
	case errors.Is(err, model.ErrNoSession):
		agent := b.Agent
		if agent == "" {
			agent = model.AgentClaudeCode
		}
		e = &model.SessionEntry{Session: model.NewSession(b.Session, agent, now), Dir: model.SessionDir(b.Session)}
		p.changed = true
	case err != nil:
		return nil, err
	}
	p.entry = e
	s := e.Session
	p.res = &CaptureResult{Session: s.ID, Agent: s.Agent, Created: p.changed}

	// What is new.
	var src *model.Source
	events, side := b.Events, b.Sidechain
	if b.Source != "" {
		src = s.SourceNamed(b.sourceName(), true)
		if first := firstID(events, side); b.From == 0 && first != "" && src.First != "" && first != src.First {
			*src = model.Source{Name: src.Name} // another file under a known name
		}
		if b.From > src.Offset {
			return nil, &gapError{source: b.sourceName(), from: b.From, committed: src.Offset}
		}
		events, side = after(events, src.Offset), after(side, src.Offset)
	} else if b.Key != "" && s.HasHook(b.Key) {
		events, side = nil, nil
	}
	p.res.Skipped = len(b.Events) + len(b.Sidechain) - len(events) - len(side)
	p.res.Events = len(events) + len(side)

	if p.res.Events > 0 && s.Status != model.StatusActive && b.Status == "" {
		p.res.Reactivated = true
		s.Status = model.StatusActive
		p.changed = true
	}
	if b.Status != "" && s.Status != b.Status {
		s.Status = b.Status
		p.changed = true
	}
	// The folder moves first (out of archive/, say): the files are
	// written where it ends up.
	m.Sessions().Place(e, &p.writes)
	if p.res.Events > 0 {
		r := newRenderer(m, s, red, p.keyPrefix())
		if src != nil && src.Offset == 0 && len(s.Hooks) > 0 {
			r.hooked = hookedPrompts(m, e)
		}
		if b.before != nil && writesFile(events, side) {
			// The watcher may have taken the Read of a file in one job and
			// its Write in the next: what the Read showed is in the range
			// before, read again only for a batch that writes a file.
			r.recallFiles(b.before())
			if src != nil {
				r.recallFiles(until(b.Events, src.Offset)) // captured already, so not in events
			}
		}
		r.events(events, false)
		r.events(side, true)
		p.res.Prompts, p.res.Redactions = r.prompts, r.redactions
		s.Prompts += r.prompts
		s.Turns += len(r.turns)
		if s.Title == "" {
			s.Title = r.title
		}
		if s.Project == "" {
			s.Project = r.cwd
		}
		s.Branch = firstNonEmpty(r.branch, s.Branch)
		s.Model = firstNonEmpty(r.model, s.Model)
		if !r.first.IsZero() && (p.res.Created || r.first.Before(s.Started)) {
			s.Started = r.first.UTC().Truncate(time.Second)
		}
		if !r.last.IsZero() {
			if r.last.After(s.LastActivity) || p.res.Created {
				s.LastActivity = r.last.UTC().Truncate(time.Second)
			}
		} else {
			s.LastActivity = now
		}
		if s.Started.After(s.LastActivity) {
			s.Started = s.LastActivity
		}
		p.pending = append(p.pending, r.turns...)
		p.renderTo(r)
		p.changed = true
	}
	if src != nil {
		last := lastEvent(events, side)
		path, _ := red.Redact(b.Source)
		if p.res.Events > 0 || src.Offset < b.To || src.Path != path {
			p.changed = true
		}
		src.Offset = max(src.Offset, b.To)
		src.Path, src.Format = path, string(b.Format)
		if first := firstID(b.Events, b.Sidechain); b.From == 0 && first != "" {
			src.First = first
		}
		if last != "" {
			src.Last = last
		}
	}
	if b.Key != "" && b.Source == "" && !s.HasHook(b.Key) {
		s.AddHook(b.Key)
		p.changed = true
	}

	// What is due for a summary.
	old, err := m.Sessions().LoadPending(s.ID, s.Summarized.Through)
	if err != nil {
		return nil, err
	}
	p.pending = backlog.Merge(old, p.pending)
	before, rest := backlog.SplitContext(p.pending)
	p.before = before
	p.segments = dueSegments(rest, m.Config.Capture.SegmentTurnsOr(), m.Config.Capture.SegmentTokensOr(), b.Final || finalEvent(events))
	if len(p.segments) > 0 {
		p.changed = true
		prev, err := m.ReadFile(e.File(model.SummaryFile))
		if err != nil && !errors.Is(err, memory.ErrNoFile) {
			return nil, err
		}
		p.prevSum = string(prev)
	}
	return p, nil
}

// What a model summarizer is shown of the memory before a session, to
// say which of it the session made untrue (summarize.Request.Earlier):
// the statements of the sessions a pack shows, within about 4,000
// tokens. Over the kept memories of the twelve benchmark projects with
// the most sessions, all sessions but one held 14,000 bytes of them at
// the median and 16,600 at the 90th percentile; 6,000 offered 36 % of
// them.
const (
	earlierSessions = 10 // as many as a pack shows (recall.maxPackSessions)
	earlierBytes    = 16_000
)

// summarise runs the summarizer over the due segments.
func (p *plan) summarise(ctx context.Context, sum summarize.Summarizer, red *redact.Redactor) error {
	prev, before := p.prevSum, p.before
	s := p.entry.Session
	var earlier []string
	if _, builtin := sum.(summarize.Extractive); !builtin && len(p.segments) > 0 {
		earlier = recent.Statements(ctx, p.m, p.entry.Dir, earlierSessions, earlierBytes)
		// Sent to the provider: what a hand edit or a teammate's
		// sync brought is redacted as the transcript is.
		for i := range earlier {
			earlier[i], _ = red.Redact(earlier[i])
		}
	}
	var tl *echo.Told
	if len(p.segments) > 0 {
		tl = told(p.m, s.ID)
	}
	for i := range p.segments {
		seg := &p.segments[i]
		turns := make([]summarize.Turn, len(seg.turns))
		last := before
		for j, t := range seg.turns {
			turns[j] = t.Turn
			if t.Turn.Says() {
				last = t.Turn.Text
			}
			if t.Turn.Role == summarize.Assistant {
				// Its recap of what it was told is not news; a
				// message that was only that still answered.
				if turns[j].Text = tl.Strip(t.Turn.Text); strings.TrimSpace(turns[j].Text) == "" && t.Turn.Says() {
					turns[j].Text = summarize.ReadBack
				}
			}
		}
		req := summarize.Request{
			SessionID:       s.MemorySession,
			Segment:         summarize.Segment{Index: s.Summarized.Segments + i + 1, Turns: turns, Before: before},
			PreviousSummary: prev,
			First:           s.Summarized.Segments+i == 0,
			Earlier:         earlier,
		}
		start := time.Now()
		res, err := sum.Summarize(ctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// The built-in summarizer does not fail; a custom one may.
			p.m.Warn(fmt.Sprintf("session %s: %v; using the built-in summarizer", s.ID, err))
			if res, err = (summarize.Extractive{}).Summarize(ctx, req); err != nil {
				return err
			}
			res.FallbackReason = "summarizer failed"
		}
		recordSummary(ctx, p.m, res, time.Since(start))
		res.Summary, _ = red.Redact(strings.TrimSpace(res.Summary))
		for k := range res.Untrue {
			res.Untrue[k], _ = red.Redact(res.Untrue[k]) // as summary.md quotes them
		}
		for k := range res.Items {
			c := &res.Items[k]
			c.Title, _ = red.Redact(c.Title)
			c.Body, _ = red.Redact(c.Body)
		}
		seg.result = res
		prev += "\n\n" + res.Summary
		before = last
	}
	return nil
}

// apply consolidates the summaries' candidates, writes the batch and
// commits it. The caller holds the lock.
func apply(ctx context.Context, m *memory.Memory, p *plan, red *redact.Redactor) (*CaptureResult, error) {
	e, s, res := p.entry, p.entry.Session, p.res
	res.Dir = e.Dir
	if !p.changed {
		return res, nil
	}
	b := &p.writes
	if res.Created {
		addHeaders(m, p)
	}
	var cands []consolidate.Candidate
	var untrue []string
	for _, seg := range p.segments {
		r := seg.result
		sec := strings.TrimSpace(r.Summary)
		if sec == "" {
			sec = fmt.Sprintf("## Segment %d\n\n(no summary)", s.Summarized.Segments+1)
		}
		if s.Summarized.Segments == 0 && !m.StatOK(b.Before(e.File(model.SummaryFile))) {
			b.Add(e.File(model.SummaryFile), []byte(fmt.Sprintf("# Summary of session %s\n", s.ID)))
		}
		b.Add(e.File(model.SummaryFile), []byte("\n"+sec+"\n"))
		s.Summarized.Segments++
		s.Summarized.Turns += len(seg.turns)
		s.Summarized.Through = seg.turns[len(seg.turns)-1].Key
		res.Segments++
		res.Provider = r.Provider
		if r.FallbackReason != "" {
			res.Fallback = r.FallbackReason
		}
		for _, c := range r.Items {
			cands = append(cands, consolidate.Candidate{Candidate: c, Session: s.ID})
		}
		untrue = append(untrue, r.Untrue...)
	}
	if len(cands) > 0 {
		changes, err := consolidate.Apply(ctx, m, cands, b)
		if err != nil && ctx.Err() != nil {
			return nil, err
		}
		if err != nil {
			// A core item consolidation cannot read must not cost the
			// session its summary: the job would fail the same way each
			// time it ran. Each write Apply made is a whole file.
			m.Warn(fmt.Sprintf("consolidate core memory for session %s: %v; its summary is kept", s.ID, err))
		}
		res.Items = changes
	}
	if len(untrue) > 0 {
		changes, err := consolidate.RetireQuoted(ctx, m, untrue, b)
		if err != nil && ctx.Err() != nil {
			return nil, err
		}
		if err != nil {
			m.Warn(fmt.Sprintf("retire what session %s made untrue: %v; its summary is kept", s.ID, err))
		}
		res.Items = append(res.Items, changes...)
	}
	s.Updated = m.Now().UTC().Truncate(time.Second)
	if err := b.WriteSession(e); err != nil {
		return nil, err
	}
	// Turns wait in .state for their segment; those of a batch that does
	// not commit are added again, once, when it runs again.
	if err := m.Sessions().SavePending(s.ID, p.pending); err != nil {
		return nil, err
	}
	event := p.b.Trigger
	if event == "" {
		event = "capture"
	}
	var extra []memory.Trailer
	if len(p.b.Jobs) > 0 {
		extra = append(extra, memory.Trailer{Key: "Cairn-Jobs", Value: strings.Join(p.b.Jobs, ", ")})
	}
	cp, err := m.CommitWrites(ctx, b, memory.CheckpointOptions{
		Message: captureSubject(s.ID, event, res),
		Session: s.ID,
		Event:   event,
		Extra:   extra,
	})
	if err != nil {
		return nil, err
	}
	if cp != nil {
		res.Commit = cp.Hash
	}
	if res.Segments > 0 {
		// The context turn stays after a session's end too: a session
		// goes on when it is resumed (claude --resume), and its next
		// prompt may answer the last message.
		_ = m.Sessions().SavePending(s.ID, backlog.DropThrough(p.pending, s.Summarized.Through))
	}
	if s.Status != model.StatusActive {
		// Its segments are summarised; a resumed session is told again.
		_ = os.Remove(toldPath(m, s.ID))
	}
	return res, nil
}

// addHeaders starts the files of a new session.
func addHeaders(m *memory.Memory, p *plan) {
	e := p.entry
	b := &p.writes
	for _, f := range []struct{ name, head string }{
		{model.PromptsFile, "# Prompts of session %s\n"},
		{model.TranscriptFile, "# Transcript of session %s\n\nCondensed by cairn: prompts, what the assistant said, one line per tool call, errors. Secrets are redacted.\n"},
		{model.ObservationsFile, "# Observations of session %s\n\nFiles read and changed, commands run and their exit codes, tests, errors and their fixes.\n"},
	} {
		b.Prepend(e.File(f.name), []byte(fmt.Sprintf(f.head, e.ID)))
	}
}

// captureSubject is a batch's commit subject:
// "capture: session 3f1c9a52 ingest (12 events, 2 prompts, 1 summary, 2 items)".
func captureSubject(id, event string, r *CaptureResult) string {
	var parts []string
	if r.Events > 0 {
		parts = append(parts, mdtext.Plural(r.Events, "event"))
	}
	if r.Prompts > 0 {
		parts = append(parts, mdtext.Plural(r.Prompts, "prompt"))
	}
	if r.Segments > 0 {
		parts = append(parts, mdtext.Plural(r.Segments, "summary"))
	}
	if len(r.Items) > 0 {
		parts = append(parts, mdtext.Plural(len(r.Items), "item"))
	}
	s := fmt.Sprintf("capture: session %s %s", memory.ShortSession(id), event)
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// after keeps the events of lines at or past offset.
func after(list []transcript.Event, offset int64) []transcript.Event {
	if offset <= 0 {
		return list
	}
	return keep(list, func(o int64) bool { return o >= offset })
}

// until keeps the events of lines before offset.
func until(list []transcript.Event, offset int64) []transcript.Event {
	return keep(list, func(o int64) bool { return o < offset })
}

// keep returns the events of list whose offset in passes.
func keep(list []transcript.Event, in func(offset int64) bool) []transcript.Event {
	var out []transcript.Event
	for i := range list {
		if in(list[i].Offset) {
			out = append(out, list[i])
		}
	}
	return out
}

// writesFile reports whether the events hold a Write of a whole file.
func writesFile(lists ...[]transcript.Event) bool {
	for _, l := range lists {
		for i := range l {
			if c := l[i].Call; c != nil && c.Name == "Write" {
				return true
			}
		}
	}
	return false
}

// firstID is the id of the first event of a parse (by offset).
func firstID(main, side []transcript.Event) string {
	var best *transcript.Event
	for _, list := range [][]transcript.Event{main, side} {
		if len(list) > 0 && list[0].ID != "" && (best == nil || list[0].Offset < best.Offset) {
			best = &list[0]
		}
	}
	if best == nil {
		return ""
	}
	return best.ID
}

func lastEvent(main, side []transcript.Event) string {
	var best *transcript.Event
	for _, list := range [][]transcript.Event{main, side} {
		if n := len(list); n > 0 && list[n-1].ID != "" && (best == nil || list[n-1].Offset > best.Offset) {
			best = &list[n-1]
		}
	}
	if best == nil {
		return ""
	}
	return best.ID
}

// finalEvent reports whether the events end the session's stretch of
// work: the end of the session, or a compaction (the agent's context
// starts again from a summary). A Stop does not: it ends a turn, and the
// next prompt usually follows.
func finalEvent(list []transcript.Event) bool {
	for i := range list {
		switch list[i].Kind {
		case transcript.KindCompaction, transcript.KindSessionEnd:
			return true
		}
	}
	return false
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// Pending turns.

// dueSegments cuts the pending turns into segments of at most turns turns
// or about tokens tokens, whichever comes first; the rest stays pending
// unless final. A segment ends before a prompt where it can, so that a
// prompt and the answer to it are summarised together: when a segment is
// full, it is cut before the last prompt it holds, unless that would leave
// it less than half full (one prompt with a long run of tool calls), and
// a segment that is full as its turns end waits for the next prompt.
func dueSegments(pending []backlog.Turn, turns, tokens int, final bool) []segment {
	var out []segment
	start := 0
	for start < len(pending) {
		end := segmentEnd(pending[start:], turns, tokens)
		if end < 0 {
			break
		}
		out = append(out, segment{turns: pending[start : start+end]})
		start += end
	}
	if final && start < len(pending) {
		out = append(out, segment{turns: pending[start:]})
	}
	return out
}

// segmentEnd returns how many of the turns make the next segment, or -1
// when they are not yet enough for one.
func segmentEnd(list []backlog.Turn, turns, tokens int) int {
	n, sum := 0, 0
	for n < len(list) && n < turns && sum < tokens {
		sum += list[n].Tokens
		n++
	}
	if n < turns && sum < tokens {
		return -1 // not full
	}
	if n == len(list) {
		return -1 // full, but the turn in progress may go on: wait for the next prompt
	}
	if isPrompt(list[n]) {
		return n // the next prompt starts the next segment
	}
	for k := n - 1; k >= max(n/2, 1); k-- {
		if isPrompt(list[k]) {
			return k
		}
	}
	return n
}

// hookedPrompts are the prompts of the session e that its prompts.md
// holds, by text, counted: what hook payloads recorded before the
// session's transcript could be read (a daemon runs a UserPromptSubmit
// job before Claude Code has written the prompt to the transcript), so
// that the first read of the transcript does not record them again.
func hookedPrompts(m *memory.Memory, e *model.SessionEntry) map[string]int {
	data, err := m.ReadFile(path.Join(e.Dir, model.PromptsFile))
	if err != nil {
		return nil
	}
	seen := map[string]int{}
	for _, text := range promptHead.Split(string(data), -1)[1:] {
		seen[strings.TrimSpace(text)]++
	}
	return seen
}

// promptHead is the heading the renderer writes before each prompt of
// prompts.md ("## N · 2006-01-02 15:04:05 UTC" and a blank line): a
// prompt's own Markdown headings are not taken for it.
var promptHead = lazyre.New(`\n## \d+(?: · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC)?\n\n`)

func isPrompt(t backlog.Turn) bool { return t.Turn.Role == summarize.User }
