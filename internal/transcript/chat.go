package transcript

import (
	"encoding/json"
	"errors"
	"strings"
	"time"
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
func ParseChat(data []byte, opts Options) *Parsed {
	b := newBuilder(opts)
	b.eachLine(data, validJSON, b.chatLine)
	return b.result()
}

type chatLine struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	Timestamp  json.RawMessage `json:"timestamp"`
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

func (b *builder) chatLine(line []byte) {
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
		b.fail(errors.New(`not a chat message: no "role"`))
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
