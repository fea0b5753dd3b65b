package gemini

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/transcript"
)

// record is one line of a chat file: the metadata line, a message, or
// one of the updates ($set, $rewindTo) the parser skips.
type record struct {
	// the metadata line
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
	Kind        string `json:"kind"`

	// a message
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []toolCall      `json:"toolCalls"`
	Tokens    *struct {
		Input  int64 `json:"input"`
		Output int64 `json:"output"`
		Cached int64 `json:"cached"`
	} `json:"tokens"`
	Model string `json:"model"`

	Set      json.RawMessage `json:"$set"`
	RewindTo *string         `json:"$rewindTo"`
}

// toolCall is a message's record of a tool it called, with the result
// once the tool ran.
type toolCall struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	Status        string          `json:"status"`
	ResultDisplay json.RawMessage `json:"resultDisplay"`
}

// document is a legacy chat file: one JSON object, rewritten whole.
type document struct {
	SessionID string   `json:"sessionId"`
	StartTime string   `json:"startTime"`
	Messages  []record `json:"messages"`
}

// Parse reads data, a range of a Gemini CLI chat file, as described by
// opts (see package transcript: Consumed, Final and Seen mean what they
// mean there). A message is taken once a line of another message
// follows it, or with Final: Gemini CLI appends a message again, whole,
// each time it grows (a tool call, its result, the token count), and the
// last copy before the next message is the one that counts. A legacy
// file (one JSON object) is read whole, from offset 0 only, and only once
// it is valid JSON.
func Parse(data []byte, opts transcript.Options) *transcript.Parsed {
	p := &parser{opts: opts, out: &transcript.Parsed{Consumed: opts.Offset}}
	if opts.Offset == 0 && isDocument(data) {
		p.document(data)
		return p.out
	}
	p.lines(data)
	return p.out
}

// SessionID is the session id of the chat file whose first bytes are
// head: its metadata line's (or its document's) sessionId, "" if none.
func SessionID(head []byte) string {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	var r record
	if json.Unmarshal(line, &r) == nil && r.SessionID != "" {
		return r.SessionID
	}
	var d document
	if json.Unmarshal(head, &d) == nil {
		return d.SessionID
	}
	return ""
}

// isDocument reports whether data is a legacy chat file: its first line
// is not a JSON value of its own.
func isDocument(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	line, _, _ := bytes.Cut(t, []byte("\n"))
	return !json.Valid(bytes.TrimSpace(line))
}

type parser struct {
	opts    transcript.Options
	out     *transcript.Parsed
	session string
	// the message whose lines may still grow: its last copy, and where
	// its first line starts
	open      *record
	openAt    int64
	openLine  int
	openLines int             // lines before the open message's first
	seen      map[string]bool // message ids taken in this parse
}

func (p *parser) document(data []byte) {
	var d document
	if err := json.Unmarshal(data, &d); err != nil {
		if p.opts.Final {
			p.out.Errors = append(p.out.Errors, &transcript.LineError{File: p.opts.Name, Line: 1, Err: err})
			p.out.Consumed = p.opts.Offset + int64(len(data))
		}
		return // still being written: read it when it is whole
	}
	p.session = cmp.Or(p.opts.SessionID, d.SessionID)
	p.emit(transcript.Event{Kind: transcript.KindSessionStart, ID: "@0", Source: "startup", Meta: p.meta(d.StartTime, 0, 1)})
	for i := range d.Messages {
		p.message(&d.Messages[i], 0, 1)
	}
	p.out.Consumed = int64(len(data))
	p.out.Lines = bytes.Count(data, []byte("\n"))
}

func (p *parser) lines(data []byte) {
	p.session = p.opts.SessionID
	line := p.opts.Line
	if line == 0 && p.opts.Offset == 0 {
		line = 1
	}
	off, n := p.opts.Offset, 0
	for rest := data; len(rest) > 0; {
		raw, next, complete := bytes.Cut(rest, []byte("\n"))
		if !complete && !(p.opts.Final && json.Valid(bytes.TrimSpace(raw))) {
			break // a line still being written
		}
		size := int64(len(raw))
		if complete {
			size++
		}
		p.line(bytes.TrimSpace(raw), off, line, n)
		off += size
		n++
		if line > 0 {
			line++
		}
		// Resume at the open message's first line, or past this one.
		if p.open == nil {
			p.out.Consumed, p.out.Lines = off, n
		} else {
			p.out.Consumed, p.out.Lines = p.openAt, p.openLines
		}
		rest = next
	}
	if p.open != nil && p.opts.Final {
		p.close()
		p.out.Consumed, p.out.Lines = off, n
	}
}

// line takes one line at off.
func (p *parser) line(raw []byte, off int64, line, n int) {
	if len(raw) == 0 {
		return
	}
	var r record
	err := json.Unmarshal(raw, &r)
	if p.open != nil && (err != nil || r.ID != p.open.ID && r.Set == nil) {
		// The open message ends at another message, or at anything but
		// the $set that follows each of its copies.
		p.close()
	}
	if err != nil {
		p.out.Errors = append(p.out.Errors, &transcript.LineError{File: p.opts.Name, Line: line, Offset: off, Err: err})
		return
	}
	switch {
	case r.ID != "" && r.Type != "":
		if p.open == nil {
			p.openAt, p.openLine, p.openLines = off, line, n
		}
		p.open = &r
	case r.SessionID != "" && r.ProjectHash != "":
		if p.opts.SessionID == "" {
			p.session = r.SessionID
		}
		source := "startup"
		if off > 0 {
			source = "resume" // a resumed legacy chat starts over as JSONL
		}
		p.emit(transcript.Event{Kind: transcript.KindSessionStart, ID: "@" + itoa(off), Source: source, Meta: p.meta(r.StartTime, off, line)})
	}
	// $set and $rewindTo change the chat Gemini resumes, not what
	// happened: a rewound turn stays in the record.
}

// close takes the open message.
func (p *parser) close() {
	r := p.open
	p.open = nil
	p.message(r, p.openAt, p.openLine)
}

// message turns one message into events.
func (p *parser) message(r *record, off int64, line int) {
	if _, ok := p.opts.Seen[r.ID]; ok || p.seen[r.ID] {
		return
	}
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	p.seen[r.ID] = true
	p.out.IDs = append(p.out.IDs, r.ID)
	m := p.meta(r.Timestamp, off, line)
	m.MessageID, m.Model = r.ID, r.Model
	n := 0
	add := func(e transcript.Event) {
		e.ID = r.ID
		if n > 0 {
			e.ID += "#" + itoa(int64(n))
		}
		e.Meta = m
		if n == 0 && r.Tokens != nil {
			e.Usage = &transcript.Usage{Input: r.Tokens.Input, Output: r.Tokens.Output, CacheRead: r.Tokens.Cached}
		}
		n++
		p.emit(e)
	}
	text := strings.TrimSpace(contentText(r.Content))
	switch r.Type {
	case "user":
		if text == "" {
			return
		}
		if cmd, _, _ := strings.Cut(text, " "); strings.HasPrefix(cmd, "/") && !strings.Contains(cmd[1:], "/") {
			add(transcript.Event{Kind: transcript.KindCommand, Text: text, Command: cmd})
			return
		}
		add(transcript.Event{Kind: transcript.KindUserPrompt, Text: text})
	case "gemini":
		if text != "" {
			add(transcript.Event{Kind: transcript.KindAssistantText, Text: text})
		}
		for _, c := range r.ToolCalls {
			summary := summarize(c.Name, c.Args)
			add(transcript.Event{Kind: transcript.KindToolCall, Call: &transcript.ToolCall{ID: c.ID, Name: c.Name, Input: c.Args, Summary: summary}})
			if c.Status == "" || c.Status == "executing" || c.Status == "scheduled" || c.Status == "validating" || c.Status == "awaiting_approval" {
				continue // no result yet
			}
			res := &transcript.ToolResult{ToolUseID: c.ID, Name: c.Name, Summary: summary, Output: resultText(c),
				IsError: c.Status == "error", Interrupted: c.Status == "cancelled"}
			if code, ok := ExitCode(c.Name, res.Output); ok {
				// Gemini's shell tool works when the command fails; the
				// failure is what the session learns from.
				res.ExitCode, res.IsError = &code, res.IsError || code != 0
			}
			add(transcript.Event{Kind: transcript.KindToolResult, Result: res})
		}
	}
	// info, error and warning messages are the CLI's own notices.
}

func (p *parser) meta(stamp string, off int64, line int) transcript.Meta {
	m := transcript.Meta{SessionID: p.session, Offset: off, Line: line}
	if t, err := time.Parse(time.RFC3339Nano, stamp); err == nil {
		m.Time = t
	}
	return m
}

func (p *parser) emit(e transcript.Event) {
	p.out.Events = append(p.out.Events, e)
}

// part is one part of Gemini content: a text (a thought when Thought
// says so) or a function's response.
type part struct {
	Text             *string `json:"text"`
	Thought          bool    `json:"thought"`
	FunctionResponse *struct {
		Response map[string]any `json:"response"`
	} `json:"functionResponse"`
}

// decodeParts reads Gemini content: a string (one text part), a part, or
// a list of them; ok is false when raw is none of these.
func decodeParts(raw json.RawMessage) (parts []part, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []part{{Text: &s}}, true
	}
	if raw[0] == '{' {
		var one part
		if json.Unmarshal(raw, &one) != nil {
			return nil, false
		}
		return []part{one}, true
	}
	if json.Unmarshal(raw, &parts) != nil {
		return nil, false
	}
	return parts, true
}

// contentText renders message content: a string, a part, or a list of
// parts; thoughts and non-text parts are left out.
func contentText(raw json.RawMessage) string {
	parts, _ := decodeParts(raw)
	var b []string
	for _, pt := range parts {
		if pt.Text != nil && !pt.Thought {
			b = append(b, *pt.Text)
		}
	}
	return strings.Join(b, "")
}

// ToolText renders what a tool gave the model (an AfterTool hook's
// llmContent or returnDisplay): a string, a part, or a list of parts, the
// text of each and each function response's output (or error), one a
// line; ok is false when raw is none of these.
func ToolText(raw json.RawMessage) (text string, ok bool) {
	parts, ok := decodeParts(raw)
	return outputText(parts), ok
}

// outputText is ToolText of parts read already.
func outputText(parts []part) string {
	var b []string
	for _, pt := range parts {
		switch {
		case pt.Text != nil:
			b = append(b, *pt.Text)
		case pt.FunctionResponse != nil:
			for _, k := range []string{"output", "error"} {
				if v, ok := pt.FunctionResponse.Response[k].(string); ok && v != "" {
					b = append(b, v)
				}
			}
		}
	}
	return strings.Join(b, "\n")
}

// resultText is what a tool call answered: its function response's
// output (or error), else what the CLI displayed when that is text.
func resultText(c toolCall) string {
	var parts []part
	if json.Unmarshal(c.Result, &parts) == nil {
		if t := outputText(parts); t != "" {
			return t
		}
	}
	var s string
	if json.Unmarshal(c.ResultDisplay, &s) == nil {
		return s
	}
	return ""
}

// ExitCode reads the exit status Gemini CLI's shell tool reports in its
// output ("Exit Code: 1"); ok is false for another tool or no status.
func ExitCode(tool, output string) (code int, ok bool) {
	if tool != "run_shell_command" {
		return 0, false
	}
	i := strings.LastIndex(output, "Exit Code: ")
	if i < 0 {
		return 0, false
	}
	rest := output[i+len("Exit Code: "):]
	end := strings.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(rest)
	}
	n, err := strconv.Atoi(rest[:end])
	return n, err == nil
}

// summarize describes a tool call in one line, as package transcript
// does for other agents: "run_shell_command: go test ./...",
// "read_file: main.go".
func summarize(name string, args json.RawMessage) string {
	var a struct {
		Command      string `json:"command"`
		FilePath     string `json:"file_path"`
		AbsolutePath string `json:"absolute_path"`
		Path         string `json:"path"`
		Dir          string `json:"dir_path"`
		Pattern      string `json:"pattern"`
		Query        string `json:"query"`
		URL          string `json:"url"`
		Prompt       string `json:"prompt"`
	}
	_ = json.Unmarshal(args, &a)
	arg := cmp.Or(a.Command, a.FilePath, a.AbsolutePath, a.Path, a.Dir, a.Pattern, a.Query, a.URL, a.Prompt)
	arg, _, _ = strings.Cut(arg, "\n")
	if r := []rune(arg); len(r) > 100 {
		arg = string(r[:99]) + "…"
	}
	if arg == "" {
		return name
	}
	return name + ": " + arg
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
