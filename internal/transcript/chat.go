package transcript

import (
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/transcript/when"
)

// ParseChat reads plain chat JSONL: one message per line,
//
//	{"role": "user", "content": "…", "timestamp": "2025-06-01T10:00:00Z"}
//
// where role is user, assistant, tool or system (system and developer lines
// are skipped), content is a string or text blocks, and timestamp is RFC 3339
// or Unix seconds (or milliseconds). Optional fields: id (or uuid),
// session_id, model, and OpenAI-style tool_calls on assistant lines and
// tool_call_id on tool lines, paired by id.
//
// It reads dialogues between people too, one turn a line, the way chat
// exports and LoCoMo-style data sets write them:
//
//	{"speaker": "Maya", "text": "…", "session": 3, "date": "2025-03-09 19:45"}
//
// speaker (or name, author) names who speaks and text (or content,
// message) what they say; session (a number, or "session_3") and the
// LoCoMo turn id dia_id ("D3:4") give the session, Meta.Part; time, date
// or timestamp its time, in RFC 3339, "2025-03-09 19:45", "9 March 2025"
// or "1:56 pm on 8 May, 2023", carried to the following turns of the same
// session that give none. Speakers map to roles as in ParseMarkdown; as
// there, a parse that starts mid-dialogue knows nothing of the lines
// before it.
func ParseChat(data []byte, opts Options) *Parsed {
	c := &chatParser{b: newBuilder(opts), times: map[int]time.Time{}}
	c.b.eachLine(data, validJSON, c.line)
	return c.b.result()
}

// chatParser holds what a dialogue's lines carry to the ones after them.
type chatParser struct {
	b     *builder
	who   speakers
	times map[int]time.Time // the last time given, by session
}

type chatLine struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Timestamp  json.RawMessage `json:"timestamp"`
	Time       json.RawMessage `json:"time"`
	Date       json.RawMessage `json:"date"`
	Speaker    string          `json:"speaker"`
	Name       string          `json:"name"`
	Author     string          `json:"author"`
	Text       string          `json:"text"`
	Message    string          `json:"message"`
	Session    json.RawMessage `json:"session"`
	DiaID      string          `json:"dia_id"`
	ID         string          `json:"id"`
	UUID       string          `json:"uuid"`
	SessionID  string          `json:"session_id"`
	Model      string          `json:"model"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func (c *chatParser) line(line []byte) {
	b := c.b
	if blank(line) {
		return
	}
	var l chatLine
	soft, ok := b.decode(line, &l)
	if !ok {
		return
	}
	if soft != nil {
		b.fail(soft)
	}
	if l.Role == "" {
		if who := firstOf(l.Speaker, l.Name, l.Author); who != "" {
			c.dialogue(&l, strings.TrimSpace(who))
			return
		}
		b.fail(errors.New(`not a chat message: no "role" or "speaker"`))
		return
	}
	if id := firstOf(l.ID, l.UUID); id != "" {
		if b.repeat(id) {
			return
		}
		b.key = id
	}
	m := Meta{UUID: firstOf(l.UUID, l.ID), SessionID: b.checkSession(l.SessionID), Time: chatTime(l.Timestamp)}
	text, ok := contentText(l.Content)
	if !ok {
		b.fail(errors.New("content is neither text nor blocks"))
	}
	switch l.Role {
	case "user", "human":
		t, cmd := cleanPrompt(text)
		if t == "" {
			return
		}
		b.endTurn("")
		kind, cmd := promptKind(t, cmd)
		b.emit(Event{Kind: kind, Meta: m, Text: t, Command: cmd})
	case "assistant":
		m.Model = l.Model
		if t := strings.TrimSpace(text); t != "" {
			b.emit(Event{Kind: KindAssistantText, Meta: m, Text: t})
		}
		for _, tc := range l.ToolCalls {
			input := codexArgs(tc.Function.Arguments)
			b.call(Event{Kind: KindToolCall, Meta: m, Call: &ToolCall{
				ID: tc.ID, Name: tc.Function.Name, Input: input, Summary: summarize(tc.Function.Name, input, ""),
			}}, "")
		}
	case "tool":
		r := &ToolResult{ToolUseID: l.ToolCallID, Output: text}
		b.pair(r)
		b.emit(Event{Kind: KindToolResult, Meta: m, Result: r})
	}
}

// dialogue takes a turn of a dialogue between people.
func (c *chatParser) dialogue(l *chatLine, who string) {
	b := c.b
	if id := firstOf(l.ID, l.UUID, l.DiaID); id != "" {
		if b.repeat(id) {
			return
		}
		b.key = id
	}
	var session string
	if len(l.Session) > 0 && l.Session[0] == '"' {
		_ = json.Unmarshal(l.Session, &session)
	} else {
		session = string(l.Session)
	}
	part := sessionNumber(session, l.DiaID)
	t := time.Time{}
	for _, raw := range []json.RawMessage{l.Time, l.Date, l.Timestamp} {
		if t = chatTime(raw); !t.IsZero() {
			break
		}
		var s string
		if len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
			if t = when.Parse(s); !t.IsZero() {
				break
			}
		}
	}
	if t.IsZero() {
		t = c.times[part]
	} else {
		c.times[part] = t
	}
	text := strings.TrimSpace(firstOf(l.Text, l.Message))
	if text == "" {
		if s, ok := contentText(l.Content); ok {
			text = strings.TrimSpace(s)
		}
	}
	if text == "" {
		return
	}
	role, speaker := c.who.role(who)
	m := Meta{UUID: firstOf(l.UUID, l.ID, l.DiaID), SessionID: b.checkSession(l.SessionID), Time: t, Speaker: speaker, Part: part}
	switch role {
	case "user":
		b.endTurn("")
		b.emit(Event{Kind: KindUserPrompt, Meta: m, Text: text})
	case "assistant":
		b.emit(Event{Kind: KindAssistantText, Meta: m, Text: text})
	}
}

// chatTime reads an RFC 3339 string or a Unix time in seconds or
// milliseconds.
func chatTime(raw json.RawMessage) time.Time {
	if len(raw) == 0 {
		return time.Time{}
	}
	if raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		return parseTime(s)
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil || f <= 0 || f > 1e15 {
		return time.Time{}
	}
	if f > 1e11 { // milliseconds
		return time.UnixMilli(int64(f)).UTC()
	}
	sec := int64(f)
	return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC()
}
