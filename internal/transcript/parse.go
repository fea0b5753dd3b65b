package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// Format names a transcript format.
type Format string

// The formats this package reads.
const (
	FormatClaude   Format = "claude"   // Claude Code session JSONL
	FormatCodex    Format = "codex"    // Codex CLI rollout JSONL
	FormatChat     Format = "chat"     // one {"role","content","timestamp"} object per line
	FormatMarkdown Format = "markdown" // Markdown written to the convention of ParseMarkdown
	FormatGemini   Format = "gemini"   // Gemini CLI chat files: read by package transcript/gemini
)

// ErrUnknownFormat is returned when a format is not one of the Format
// constants or cannot be detected.
var ErrUnknownFormat = errors.New("unknown transcript format")

// Options say where the bytes given to a parser come from.
type Options struct {
	// Name of the file, for error messages.
	Name string
	// Offset in the file of the first byte given. Event offsets and
	// Parsed.Consumed are absolute: resume with Offset = Parsed.Consumed.
	Offset int64
	// Line is the number of the first line given. Zero means 1 when Offset
	// is 0 and unknown otherwise (errors then say the offset); a tailer can
	// keep it as Line + Parsed.Lines.
	Line int
	// SessionID is used for events whose lines do not say their session
	// (Codex lines after session_meta, chat lines, Markdown sections) or
	// name one that ValidateSessionID rejects. It wins over what a Codex
	// session_meta line or a Markdown front matter says.
	SessionID string
	// Final says the writer is at rest (the turn stopped, the session ended,
	// the file is finished): messages and tool calls still waiting for
	// their end are taken as they are, and a last line without a newline is
	// taken if it is complete (valid JSON for the JSONL formats).
	// Without Final, parsing stops at the last point where nothing is
	// waiting, so that resuming there gives the same events as one pass.
	Final bool
	// Seen holds the ids of the lines before Offset (Parsed.IDs of the
	// parses of them): a line that repeats one is skipped, as a line that
	// repeats an earlier line of the range is, so that a range parsed on
	// its own gives the events one pass over the whole file gives. It is
	// only read.
	Seen map[string]struct{}
}

// Parsed is what a parser made of a range of a transcript.
type Parsed struct {
	// Events of the main conversation, in transcript order.
	Events []Event
	// Sidechain holds subagent events (Meta.Sidechain set), in transcript
	// order, apart from the main conversation.
	Sidechain []Event
	// Errors says which lines could not be read; the parse went on past them.
	Errors []*LineError
	// Consumed is the offset just past the last line taken (always a line
	// boundary): resume there. Lines after it were held back: a half-written
	// last line, or the tail of a message or tool call not yet finished.
	Consumed int64
	// Lines is the number of lines taken.
	Lines int
	// IDs are the ids of the lines taken that a later range must skip
	// (Options.Seen), in file order, those of Options.Seen not included.
	IDs []string
}

// LineError says which line of a transcript could not be read.
type LineError struct {
	File   string
	Line   int   // 1-based; 0 when unknown
	Offset int64 // of the line's first byte
	Err    error
}

func (e *LineError) Error() string {
	file := e.File
	if file == "" {
		file = "transcript"
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", file, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: at offset %d: %v", file, e.Offset, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// Parse reads data, a range of a transcript in format f, as described by opts.
func Parse(f Format, data []byte, opts Options) (*Parsed, error) {
	switch f {
	case FormatClaude:
		return ParseClaude(data, opts), nil
	case FormatCodex:
		return ParseCodex(data, opts), nil
	case FormatChat:
		return ParseChat(data, opts), nil
	case FormatMarkdown:
		return ParseMarkdown(data, opts), nil
	}
	return nil, fmt.Errorf("parse %q: %w", f, ErrUnknownFormat)
}

// builder collects the events of one parse and remembers the last point
// where nothing was waiting (no open message, no tool call without its
// result): only what lies before that point is returned, unless the parse
// is Final.
type builder struct {
	opts Options
	main []Event
	side []Event
	errs []*LineError

	pending map[string]pendingCall // calls waiting for their result, by id
	open    map[string]*message    // by chain
	seen    map[string]struct{}    // line uuids
	ids     []string               // the keys of seen, in order

	// the line being processed
	off  int64
	line int
	key  string // event id base
	n    int    // events the line has yielded

	lines   int
	lastEnd int64 // just past the last line processed
	mark    mark
}

type mark struct {
	main, side, errs, lines, ids int
	end                          int64
}

type pendingCall struct {
	chain, name, summary string
}

// message is an assistant message whose lines may not all have been read.
type message struct {
	id    string
	side  bool
	first int // index of its first event, -1 before it has one
	text  int // index of the text event later text blocks join, -1 if none
	usage *Usage
}

func newBuilder(opts Options) *builder {
	if opts.Line == 0 && opts.Offset == 0 {
		opts.Line = 1
	}
	return &builder{
		opts:    opts,
		pending: make(map[string]pendingCall),
		open:    make(map[string]*message),
		seen:    make(map[string]struct{}),
		lastEnd: opts.Offset,
		mark:    mark{end: opts.Offset},
	}
}

// eachLine calls fn for every complete line of data (without its newline
// and any carriage return), and records a resume point after each line that
// leaves nothing waiting. takeLast says whether an unterminated last line may
// be taken when the parse is Final.
func (b *builder) eachLine(data []byte, takeLast func([]byte) bool, fn func(line []byte)) {
	// About one event a line: growing the list as it fills cost more than
	// the parse itself (an Event is a few hundred bytes; a line that yields
	// one is longer).
	b.main = make([]Event, 0, bytes.Count(data, []byte("\n"))+1)
	pos := 0
	for pos < len(data) {
		n := bytes.IndexByte(data[pos:], '\n')
		end := pos + n + 1
		if n < 0 {
			if !b.opts.Final || !takeLast(data[pos:]) {
				break
			}
			n, end = len(data)-pos, len(data)
		}
		line := data[pos : pos+n]
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		b.begin(b.opts.Offset + int64(pos))
		fn(line)
		b.lines++
		pos = end
		b.lastEnd = b.opts.Offset + int64(pos)
		if b.quiet() {
			b.setMark(b.opts.Offset + int64(pos))
		}
	}
}

// begin starts a new line at absolute offset off.
func (b *builder) begin(off int64) {
	b.off = off
	if b.opts.Line > 0 {
		b.line = b.opts.Line + b.lines
	}
	b.key = "@" + strconv.FormatInt(off, 10)
	b.n = 0
}

func (b *builder) quiet() bool { return len(b.pending) == 0 && len(b.open) == 0 }

func (b *builder) setMark(end int64) {
	b.mark = mark{main: len(b.main), side: len(b.side), errs: len(b.errs), lines: b.lines, ids: len(b.ids), end: end}
}

// result returns what lies before the last resume point, or everything
// processed when the parse is Final.
func (b *builder) result() *Parsed {
	if b.opts.Final {
		b.setMark(b.lastEnd)
	}
	m := b.mark
	return &Parsed{
		Events:    b.main[:m.main:m.main],
		Sidechain: b.side[:m.side:m.side],
		Errors:    b.errs[:m.errs:m.errs],
		Consumed:  m.end,
		Lines:     m.lines,
		IDs:       b.ids[:m.ids:m.ids],
	}
}

// repeat reports whether a line with this id was read before, in this
// range or before it (Options.Seen), and remembers it if not.
func (b *builder) repeat(id string) bool {
	if _, dup := b.opts.Seen[id]; dup {
		return true
	}
	if _, dup := b.seen[id]; dup {
		return true
	}
	b.seen[id] = struct{}{}
	b.ids = append(b.ids, id)
	return false
}

// fail records that the current line could not be read.
func (b *builder) fail(err error) {
	b.errs = append(b.errs, &LineError{File: b.opts.Name, Line: b.line, Offset: b.off, Err: err})
}

// emit adds an event for the current line, giving it its id and position,
// and returns its index in the main or sidechain list.
func (b *builder) emit(e Event) int {
	e.ID = b.key
	if b.n > 0 {
		e.ID += "#" + strconv.Itoa(b.n)
	}
	b.n++
	e.Offset, e.Line = b.off, b.line
	if e.Sidechain {
		b.side = append(b.side, e)
		return len(b.side) - 1
	}
	b.main = append(b.main, e)
	return len(b.main) - 1
}

func (b *builder) list(side bool) []Event {
	if side {
		return b.side
	}
	return b.main
}

// call records a tool call as waiting for its result.
func (b *builder) call(e Event, chain string) int {
	if e.Call.ID != "" {
		b.pending[e.Call.ID] = pendingCall{chain: chain, name: e.Call.Name, summary: e.Call.Summary}
	}
	return b.emit(e)
}

// pair fills in a result from the call waiting for it. A result whose call
// is not waiting (it is in an earlier range, or its turn ended) stays
// unpaired: pairing must not depend on where a range starts.
func (b *builder) pair(r *ToolResult) {
	if c, ok := b.pending[r.ToolUseID]; ok {
		r.Name, r.Summary = c.name, c.summary
		delete(b.pending, r.ToolUseID)
	}
}

// endTurn closes a chain's open message and gives up on its calls still
// waiting: a new prompt or a compaction means they will not be answered in
// this turn. The end of a main-chain turn ends its subagents' too.
func (b *builder) endTurn(chain string) {
	if chain == "" {
		clear(b.open)
		clear(b.pending)
		return
	}
	delete(b.open, chain)
	for id, c := range b.pending {
		if c.chain == chain {
			delete(b.pending, id)
		}
	}
}

// validJSON reports whether a line is a complete JSON value.
func validJSON(line []byte) bool {
	return len(bytes.TrimSpace(line)) > 0 && json.Valid(line)
}

// isObject reports whether a line looks like a JSON object.
func isObject(line []byte) bool {
	line = bytes.TrimLeft(line, " \t")
	return len(line) > 0 && line[0] == '{'
}

// blank reports whether a line holds only white space.
func blank(line []byte) bool { return len(bytes.TrimSpace(line)) == 0 }

// decode unmarshals a JSONL line into v. It records an error and returns
// false for a line that is not a JSON object or not valid JSON. A field of an
// unexpected type is returned as soft: the rest of v is filled, and the
// caller records it only if it uses the line (lines of unknown types may
// have any shape).
func (b *builder) decode(line []byte, v any) (soft error, ok bool) {
	if !isObject(line) {
		b.fail(errors.New("not a JSON object"))
		return nil, false
	}
	err := json.Unmarshal(line, v)
	if err == nil {
		return nil, true
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("field %s has an unexpected type: %w", te.Field, err), true
	}
	b.fail(fmt.Errorf("invalid JSON: %w", err))
	return nil, false
}
