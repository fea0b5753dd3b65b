package capture

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/capture/ranges"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/summarize"
	"github.com/cairn-mem/cairn/internal/transcript"
)

// MaxTranscriptSize is the largest transcript Ingest reads.
const MaxTranscriptSize = 1 << 30

// transcripts are the ids of the lines of the transcripts this process
// parsed last (ranges.Cache), so that a daemon following a growing file
// parses each line once.
var transcripts = ranges.New(0)

// detectSize is how much of a file format detection reads.
const detectSize = 64 << 10

// IngestOptions tune Ingest.
type IngestOptions struct {
	// Session overrides the session id the file's name or events give.
	Session string
	// Dir is the absolute folder a relative file name is taken from (the
	// one the user works in); without it the name must be absolute.
	Dir string
	// Name is the transcript's identity in its session, instead of its
	// file name (for a file the inbox renamed).
	Name string
	// Trigger is recorded as the checkpoint's Cairn-Event; "" means
	// "ingest".
	Trigger string
	// Jobs are recorded in the commit (Cairn-Jobs).
	Jobs []string
	// Summarizer overrides the configured one.
	Summarizer summarize.Summarizer
}

// IngestResult says what Ingest did with a file.
type IngestResult struct {
	*CaptureResult
	File   string            `json:"file"`
	Format transcript.Format `json:"format"`
	// BadLines are the lines that could not be read and were skipped,
	// each as "file:line: what".
	BadLines []string `json:"bad_lines,omitempty"`
	// Sessions are the results of each session of a dialogue divided
	// into sessions (transcript.Meta.Part), in order; CaptureResult then
	// sums them up, under the first one's id.
	Sessions []*CaptureResult `json:"sessions,omitempty"`
}

// Ingest captures a whole transcript file now: Claude Code session JSONL,
// a Codex CLI rollout, a chat JSONL or a Markdown transcript, told apart
// by transcript.Detect. The session id comes from opts, else from the
// file's name (Claude Code, Codex) or its events (chat, Markdown), else
// from the other of the two. The file is read as finished
// (transcript.Options.Final): what is pending at its end is summarised.
// Ingesting a file again captures only what it gained since.
//
// A file that is not a transcript, or has no event, is an error, and
// nothing is written for it. Lines that cannot be read are skipped and
// listed in the result.
func Ingest(ctx context.Context, m *memory.Memory, name string, opts IngestOptions) (*IngestResult, error) {
	abs := filepath.Clean(name)
	if !filepath.IsAbs(abs) {
		if !filepath.IsAbs(opts.Dir) {
			return nil, fmt.Errorf("ingest %s: a relative name, and no folder to take it from", name)
		}
		abs = filepath.Join(opts.Dir, name)
	}
	data, fi, err := readTranscript(abs)
	if err != nil {
		return nil, err
	}
	f, err := transcript.Detect(abs, data[:min(len(data), detectSize)])
	if err != nil {
		return nil, fmt.Errorf("%s: not a transcript: %w", name, err)
	}
	base := filepath.Base(abs)
	if opts.Name != "" {
		base = opts.Name
	}
	tf := ranges.File{Path: abs, R: bytes.NewReader(data), Info: fi, Head: data[:min(len(data), detectSize)]}
	p, err := transcripts.Parse(tf, f, 0, int64(len(data)), transcript.Options{Name: base, SessionID: opts.Session, Final: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	res := &IngestResult{File: name, Format: f}
	for _, le := range p.Errors {
		res.BadLines = append(res.BadLines, le.Error())
	}
	if rest := int64(len(data)) - p.Consumed; rest > 0 && len(bytes.TrimSpace(data[p.Consumed:])) > 0 {
		// A line cut short: it is read when the file is ingested again
		// after it was finished.
		res.BadLines = append(res.BadLines, fmt.Sprintf("%s:%d: last line is incomplete; its %d bytes were not read", base, p.Lines+1, rest))
	}
	if len(p.Events)+len(p.Sidechain) == 0 {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("%s: no events read (%d bad lines; first: %v)", name, len(p.Errors), p.Errors[0])
		}
		return nil, fmt.Errorf("%s: no events in this %s transcript", name, f)
	}
	trigger := opts.Trigger
	if trigger == "" {
		trigger = "ingest"
	}
	if parts := splitParts(p); parts != nil {
		if err := ingestParts(ctx, m, abs, base, f, p, parts, opts, trigger, res); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return res, nil
	}
	id := opts.Session
	if id == "" {
		if id, err = sessionIDFor(filepath.Join(filepath.Dir(abs), base), p); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	cr, err := Capture(ctx, m, Batch{
		Session:    id,
		Agent:      agentOf(f),
		Source:     abs,
		SourceName: opts.Name,
		Format:     f,
		To:         p.Consumed,
		Events:     p.Events,
		Sidechain:  p.Sidechain,
		Trigger:    trigger,
		Final:      true,
		Jobs:       opts.Jobs,
		Summarizer: opts.Summarizer,
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	res.CaptureResult = cr
	return res, nil
}

// part is the events of one session of a dialogue.
type part struct {
	n      int // transcript.Meta.Part
	events []transcript.Event
}

// splitParts divides a dialogue's events by the session they are in, in
// the order the sessions first appear; nil when the transcript has no
// sessions (no event has a Part).
func splitParts(p *transcript.Parsed) []part {
	var parts []part
	at := map[int]int{}
	numbered := false
	for _, e := range p.Events {
		numbered = numbered || e.Part > 0
		i, ok := at[e.Part]
		if !ok {
			i = len(parts)
			at[e.Part] = i
			parts = append(parts, part{n: e.Part})
		}
		parts[i].events = append(parts[i].events, e)
	}
	if !numbered || len(p.Sidechain) > 0 {
		return nil
	}
	return parts
}

// ingestParts captures each session of a dialogue into a cairn session of
// its own, dated by its events (its heading's date): <base>-s03 for
// session 3, where base is opts.Session, else the session the file names
// (a Markdown front matter), else the file's folder and name
// ("maya-tom-conversation"); turns before the first session heading go to
// base itself. Each session records how far into the file its events
// reach, so that ingesting the file again adds nothing, and a session
// appended to the file later adds only itself.
func ingestParts(ctx context.Context, m *memory.Memory, abs, base string, f transcript.Format, p *transcript.Parsed, parts []part, opts IngestOptions, trigger string, res *IngestResult) error {
	prefix := opts.Session
	if prefix == "" {
		for _, e := range p.Events {
			if e.SessionID != "" && transcript.ValidateSessionID(e.SessionID) == nil {
				prefix = e.SessionID
				break
			}
		}
	}
	if prefix == "" {
		name := base
		if opts.Name == "" {
			name = filepath.Base(filepath.Dir(abs)) + "-" + base
		}
		if prefix = idFromName(name); prefix == "" {
			return errors.New("no session id in the file or its name; give one with --session")
		}
	}
	last := p.Events[len(p.Events)-1].Offset
	for _, pt := range parts {
		id := prefix
		if pt.n > 0 {
			suffix := fmt.Sprintf("-s%02d", pt.n)
			id = prefix[:min(len(prefix), transcript.MaxSessionIDLen-len(suffix))] + suffix
		}
		// The session holds the file up to its last event: events past
		// it are another session's, or new.
		to := pt.events[len(pt.events)-1].Offset + 1
		if to > last {
			to = p.Consumed
		}
		cr, err := Capture(ctx, m, Batch{
			Session:    id,
			Agent:      agentOf(f),
			Source:     abs,
			SourceName: opts.Name,
			Format:     f,
			To:         to,
			Events:     pt.events,
			Trigger:    trigger,
			Final:      true,
			Jobs:       opts.Jobs,
			Summarizer: opts.Summarizer,
		})
		if err != nil {
			return fmt.Errorf("session %d: %w", pt.n, err)
		}
		res.Sessions = append(res.Sessions, cr)
	}
	res.CaptureResult = sumResults(res.Sessions)
	return nil
}

// sumResults adds up the results of a dialogue's sessions, under the
// first one's id; its commit is the last one made.
func sumResults(list []*CaptureResult) *CaptureResult {
	sum := *list[0]
	sum.Items = append([]model.ItemChange(nil), sum.Items...)
	for _, r := range list[1:] {
		sum.Created = sum.Created || r.Created
		sum.Reactivated = sum.Reactivated || r.Reactivated
		sum.Events += r.Events
		sum.Skipped += r.Skipped
		sum.Prompts += r.Prompts
		sum.Segments += r.Segments
		sum.Redactions += r.Redactions
		sum.Items = append(sum.Items, r.Items...)
		sum.Provider = firstNonEmpty(r.Provider, sum.Provider)
		sum.Fallback = firstNonEmpty(r.Fallback, sum.Fallback)
		sum.Commit = firstNonEmpty(r.Commit, sum.Commit)
		sum.Ignored = firstNonEmpty(sum.Ignored, r.Ignored)
	}
	return &sum
}

// readTranscript reads a whole transcript file, refusing what is not a
// regular file or too large.
func readTranscript(name string) ([]byte, os.FileInfo, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: not a regular file", name)
	}
	if fi.Size() > MaxTranscriptSize {
		return nil, nil, fmt.Errorf("%s: %d bytes is larger than the %d a transcript may have", name, fi.Size(), MaxTranscriptSize)
	}
	data, err := io.ReadAll(f)
	return data, fi, err
}

// hookAgent names the agent that sent a hook payload: Claude Code unless
// cairn hook --agent tagged it (hooks.TagAgent) or put another agent's
// payload into Claude Code's shape (hooks.Normalize).
func hookAgent(h *transcript.Hook) string {
	switch h.Agent {
	case model.AgentCodex, model.AgentGemini, model.AgentCursor:
		return h.Agent
	}
	return model.AgentClaudeCode
}

// agentOf names the agent of a transcript format.
func agentOf(f transcript.Format) string {
	switch f {
	case transcript.FormatClaude:
		return model.AgentClaudeCode
	case transcript.FormatCodex:
		return model.AgentCodex
	case transcript.FormatChat:
		return model.AgentChat
	case transcript.FormatMarkdown:
		return model.AgentMarkdown
	case transcript.FormatGemini:
		return model.AgentGemini
	}
	return string(f)
}

// formatOf is the transcript format of an agent's hook payloads'
// transcript_path; empty for one whose format is detected from the file:
// Claude Code's, as payloads that name no agent always were.
func formatOf(agent string) transcript.Format {
	switch agent {
	case model.AgentCodex:
		return transcript.FormatCodex
	}
	return ""
}

// sessionIDFor finds a transcript's session id: the one its events give
// (Claude Code and chat lines, a Codex session_meta, a Markdown front
// matter), else the one its file is named for (Claude Code's
// <id>.jsonl, Codex's rollout-<time>-<id>.jsonl), else its file name made
// into one.
func sessionIDFor(path string, p *transcript.Parsed) (string, error) {
	fromName := transcript.SessionIDFromPath(path)
	fromEvents := ""
	for _, list := range [][]transcript.Event{p.Events, p.Sidechain} {
		for i := range list {
			if id := list[i].SessionID; id != "" && transcript.ValidateSessionID(id) == nil {
				fromEvents = id
				break
			}
		}
		if fromEvents != "" {
			break
		}
	}
	for _, id := range []string{fromEvents, fromName} {
		if id != "" {
			return id, nil
		}
	}
	if id := idFromName(path); id != "" {
		return id, nil
	}
	return "", errors.New("no session id in the file or its name; give one with --session")
}

// idFromName makes a session id of a file's name: its stem with every
// character a session id may not hold replaced by "-".
func idFromName(path string) string {
	stem := filepath.Base(path)
	stem = strings.TrimSuffix(stem, filepath.Ext(stem))
	b := []byte(stem)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '-'
		}
	}
	id := strings.Trim(strings.ReplaceAll(string(b), "..", "-"), ".-")
	if len(id) > transcript.MaxSessionIDLen {
		id = id[:transcript.MaxSessionIDLen]
	}
	if transcript.ValidateSessionID(id) != nil {
		return ""
	}
	return id
}

// hookEvent is how a hook's event is named in commits (Cairn-Event).
func hookEvent(name string) string {
	switch name {
	case model.HookSessionStart:
		return "session-start"
	case model.HookUserPromptSubmit:
		return "prompt"
	case model.HookPreToolUse:
		return "pre-tool"
	case model.HookPostToolUse:
		return "tool"
	case model.HookPostToolUseFailure:
		return "tool-failure"
	case model.HookStop:
		return "stop"
	case model.HookSubagentStop:
		return "subagent-stop"
	case model.HookPreCompact:
		return "pre-compact"
	case model.HookPostCompact:
		return "post-compact"
	case model.HookSessionEnd:
		return "session-end"
	}
	return "hook"
}

// HookKey identifies a hook payload, for dedupe: a hash of its compacted
// JSON.
func HookKey(payload []byte) string {
	var c bytes.Buffer
	h := sha256.New()
	if json.Compact(&c, payload) == nil {
		h.Write(c.Bytes())
	} else {
		h.Write(payload)
	}
	return "hook:" + hex.EncodeToString(h.Sum(nil)[:12])
}

// CaptureHook captures a Claude Code hook payload (the JSON a hook gets on
// stdin). When the payload names a transcript cairn may read (one of the
// configured globs, or under ~/.claude/projects), the transcript is the
// record: it is captured from where the session last stopped, in full
// (transcript.Options.Final) at Stop, PreCompact and SessionEnd, and the
// hook itself adds nothing that would be a duplicate. Otherwise the
// hook's own events are captured, once per payload (HookKey). Segments
// are summarised as they fill up (capture.segment_turns and
// segment_tokens); SessionEnd summarises what is pending whatever its
// size, and suspends the session. Hooks of cairn's own summarizer are ignored.
func CaptureHook(ctx context.Context, m *memory.Memory, payload []byte) (*CaptureResult, error) {
	h, err := transcript.ParseHook(payload)
	if errors.Is(err, transcript.ErrUnknownHook) {
		return captureUnknownHook(ctx, m, payload, err)
	}
	if err != nil {
		return nil, permanent(err)
	}
	if follow.Internal(m, h.CWD) || follow.Internal(m, h.TranscriptPath) {
		return &CaptureResult{Session: h.SessionID, Ignored: "a session of cairn's own summarizer"}, nil
	}
	if h.Event == model.HookPreToolUse {
		// PostToolUse and PostToolUseFailure bring the call with its
		// result; the call alone would be captured twice.
		return &CaptureResult{Session: h.SessionID, Ignored: "PreToolUse is captured by PostToolUse"}, nil
	}
	trigger := hookEvent(h.Event)
	var final, end bool
	var status model.SessionStatus
	switch h.Event {
	case model.HookStop, model.HookSubagentStop, model.HookPreCompact:
		final = true
	case model.HookSessionEnd:
		final, end, status = true, true, model.StatusSuspended
	}
	path := h.TranscriptPath
	if h.Event == model.HookSubagentStop && h.AgentTranscriptPath != "" {
		path = h.AgentTranscriptPath
	}
	agent := hookAgent(h)
	if path != "" && hookTranscript(m, filepath.Clean(path)) {
		return catchUp(ctx, m, filepath.Clean(path), h.SessionID, catchUpOptions{final: final, end: end, trigger: trigger, status: status, format: formatOf(agent)})
	}
	events := h.Events()
	now := m.Now()
	for i := range events {
		events[i].Time = now
	}
	return Capture(ctx, m, Batch{
		Session: h.SessionID,
		Agent:   agent,
		Key:     HookKey(payload),
		Events:  events,
		Trigger: trigger,
		Final:   end,
		Status:  status,
	})
}

// captureUnknownHook takes a payload of an event this version does not
// know, as a newer Claude Code sends: its transcript, if it names one cairn
// follows, is caught up (the event says the session moved on); otherwise it
// is ignored. Failing the job would keep a harmless payload in failed/ and
// make every session start warn about it. A payload without an event name
// is no hook payload at all, and fails.
func captureUnknownHook(ctx context.Context, m *memory.Memory, payload []byte, perr error) (*CaptureResult, error) {
	var h struct {
		Event          string `json:"hook_event_name"`
		SessionID      string `json:"session_id"`
		TranscriptPath string `json:"transcript_path"`
	}
	if json.Unmarshal(payload, &h) != nil || h.Event == "" {
		return nil, permanent(perr)
	}
	ignored := fmt.Sprintf("hook event %q is unknown to this version of cairn", h.Event)
	if memory.CheckSessionID(h.SessionID) != nil {
		return &CaptureResult{Ignored: ignored}, nil
	}
	if p := filepath.Clean(h.TranscriptPath); h.TranscriptPath != "" && hookTranscript(m, p) {
		return catchUp(ctx, m, p, h.SessionID, catchUpOptions{trigger: "hook"})
	}
	return &CaptureResult{Session: h.SessionID, Ignored: ignored}, nil
}

// hookTranscript reports whether the transcript a hook payload names is
// to be read (follow.Check): otherwise the payload's own events are
// the record. One that is refused (another project's, a symbolic link)
// is said in one line, naming it and why; one not written yet, or not
// saying yet where its session ran, is not.
func hookTranscript(m *memory.Memory, path string) bool {
	err := follow.Check(m, path)
	if errors.Is(err, follow.ErrRefused) {
		m.Warn(err.Error() + "; the hook's own events are captured instead")
	}
	return err == nil
}

type catchUpOptions struct {
	// final reads the transcript as at rest: what a parse holds back
	// while the writer may be busy is taken too.
	final bool
	// end says the session ended: what is pending is summarised.
	end     bool
	trigger string
	status  model.SessionStatus
	// format is the transcript's format when the agent says it (a hook's
	// --agent); empty, it is detected from the file.
	format transcript.Format
	jobs   []string
	// from and to bound the range to read; to 0 means the end of the file.
	from, to int64
}

// catchUp captures a transcript from where its session's capture of it
// stopped (or from o.from, if that is earlier) to o.to or its end.
//
// Where the capture stopped is read before the write lock is taken, so it
// may be a point that a batch dying in another process wrote but never
// committed; Capture, under the lock, then refuses the batch (a
// *gapError) and the range is read again from the committed point.
func catchUp(ctx context.Context, m *memory.Memory, path, session string, o catchUpOptions) (*CaptureResult, error) {
	for try := 0; ; try++ {
		res, err := catchUpOnce(ctx, m, path, session, o)
		var gap *gapError
		if !errors.As(err, &gap) || try == 2 {
			return res, err
		}
		o.from = gap.committed
	}
}

// gapError is a batch of a transcript that starts past where the session's
// committed capture of that transcript stopped: taking it would lose the
// lines between.
type gapError struct {
	source          string
	from, committed int64
}

func (e *gapError) Error() string {
	return fmt.Sprintf("capture %s from byte %d: the session's capture of it stopped at byte %d", e.source, e.from, e.committed)
}

func catchUpOnce(ctx context.Context, m *memory.Memory, path, session string, o catchUpOptions) (*CaptureResult, error) {
	// A batch a killed process left half written may have moved the
	// session's capture point in the work tree: settle it first, or the
	// read below starts past what was committed and that stretch is lost.
	if m.JournalPending() {
		unlock, err := m.LockSettled(ctx)
		if err != nil {
			return nil, err
		}
		unlock()
	}
	f, err := follow.Open(m, path)
	if errors.Is(err, follow.ErrRefused) {
		return nil, permanent(err)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	head := make([]byte, min(size, detectSize))
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	format := o.format
	if format == "" {
		if format, err = transcript.Detect(path, head); err != nil {
			if unwritten(head, size) {
				// Claude Code fires SessionStart before it has written
				// the transcript's first line whole: the job is tried
				// again, not given up for a file it cannot read yet.
				return nil, fmt.Errorf("%s: its first line is still being written: %w", path, err)
			}
			return nil, permanent(fmt.Errorf("%s: not a transcript: %w", path, err))
		}
	}
	to := size
	if o.to > 0 && o.to < size {
		to = o.to
	}
	from := o.from
	var known *model.SessionEntry
	var stamp string
	if session != "" {
		// A session or transcript not seen before is read from its
		// start, whatever range the job names.
		var off int64
		stamp = m.Sessions().Stamp(session)
		if e, err := m.Sessions().Find(session); err == nil {
			known = e
			if src := e.SourceNamed(filepath.Base(path), false); src != nil {
				off = src.Offset
			}
		}
		if off < from || o.from == 0 && o.to == 0 {
			from = off
		}
	}
	if from > to {
		from = 0 // the file shrank: another file now, or rewritten
	}
	tf := ranges.File{Path: path, R: f, Info: fi, Head: head}
	opts := transcript.Options{Name: filepath.Base(path), SessionID: session, Final: o.final || o.end}
	parse := func(from int64) (*transcript.Parsed, error) {
		return transcripts.Parse(tf, format, from, to, opts)
	}
	p, err := parse(from)
	if err != nil {
		return nil, err
	}
	if session == "" {
		// A subagent's transcript names its session in its lines.
		if session, err = sessionIDFor(path, p); err != nil {
			return nil, permanent(fmt.Errorf("%s: %w", path, err))
		}
		stamp = m.Sessions().Stamp(session)
		if e, err := m.Sessions().Find(session); err == nil {
			known = e
			if src := e.SourceNamed(filepath.Base(path), false); src != nil && src.Offset < from {
				if p, err = parse(src.Offset); err != nil {
					return nil, err
				}
				from = src.Offset
			}
		}
	}
	return Capture(ctx, m, Batch{
		Session:   session,
		Agent:     agentOf(format),
		Source:    path,
		Format:    format,
		From:      from,
		To:        p.Consumed,
		Events:    p.Events,
		Sidechain: p.Sidechain,
		Trigger:   o.trigger,
		Final:     o.end,
		Status:    o.status,
		Jobs:      o.jobs,
		known:     known,
		before: func() []transcript.Event {
			return ranges.Before(tf, format, from, opts)
		},
		stamp: stamp,
	})
}

// unwritten reports whether head, the start of a file of size bytes, is
// a transcript's first line still being written: nothing yet, or the
// start of a JSON object with no line ended.
func unwritten(head []byte, size int64) bool {
	t := bytes.TrimSpace(head)
	return size < detectSize && !bytes.ContainsRune(head, '\n') && (len(t) == 0 || t[0] == '{')
}

// permanentError marks a job that will fail however often it is tried.
type permanentError struct{ err error }

func (e permanentError) Error() string { return e.err.Error() }
func (e permanentError) Unwrap() error { return e.err }

func permanent(err error) error { return permanentError{err} }

// IsPermanent reports whether err says a job can never succeed (a file
// that is not a transcript, a forged pointer), so that it goes to
// failed/ without more attempts.
func IsPermanent(err error) bool {
	var p permanentError
	return errors.As(err, &p)
}

// IngestFiles ingests each of files (Ingest), after archiving the
// sessions gone inactive, and calls done with each file's result or
// error. It returns how many files failed, or the context's error when
// it ended.
func IngestFiles(ctx context.Context, m *memory.Memory, files []string, opts IngestOptions, warn func(string), done func(name string, res *IngestResult)) (failed int, err error) {
	if _, err := m.Sessions().ArchiveInactive(ctx, 0); err != nil {
		warn("archive inactive sessions: " + err.Error())
	}
	for _, name := range files {
		res, err := Ingest(ctx, m, name, opts)
		if err != nil {
			if ctx.Err() != nil {
				return failed, ctx.Err()
			}
			failed++
			warn(err.Error())
			continue
		}
		for _, bad := range res.BadLines {
			warn("skipped " + bad)
		}
		done(name, res)
	}
	return failed, nil
}
