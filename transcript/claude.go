package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// ParseClaude reads Claude Code session JSONL (see Options and Parsed for
// ranges and resuming).
//
// The lines of one assistant message (one per content block, sharing
// message.id) become one message: adjacent text blocks join into one event
// and its usage is counted once. Tool results are paired with their calls by
// tool_use_id. Sidechain (subagent) lines go to Parsed.Sidechain. Lines
// marked isMeta, line types other than user, assistant and system, and
// duplicate uuids are skipped; <system-reminder> and other blocks Claude
// Code adds to the user's text are removed.
func ParseClaude(data []byte, opts Options) *Parsed {
	b := newBuilder(opts)
	b.eachLine(data, validJSON, b.claudeLine)
	return b.result()
}

type claudeLine struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	UUID             string          `json:"uuid"`
	ParentUUID       json.RawMessage `json:"parentUuid"`
	SessionID        string          `json:"sessionId"`
	Timestamp        string          `json:"timestamp"`
	CWD              string          `json:"cwd"`
	GitBranch        string          `json:"gitBranch"`
	Version          string          `json:"version"`
	IsSidechain      bool            `json:"isSidechain"`
	AgentID          string          `json:"agentId"`
	IsMeta           bool            `json:"isMeta"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	CompactMetadata  struct {
		Trigger   string `json:"trigger"`
		PreTokens int64  `json:"preTokens"`
	} `json:"compactMetadata"`
	Message       claudeMessage   `json:"message"`
	ToolUseResult json.RawMessage `json:"toolUseResult"`
}

type claudeMessage struct {
	ID         string          `json:"id"`
	Model      string          `json:"model"`
	StopReason string          `json:"stop_reason"`
	Content    json.RawMessage `json:"content"` // a string or blocks
	Usage      *Usage          `json:"usage"`
}

type claudeBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"` // a string or blocks
	IsError   bool            `json:"is_error"`
}

func (b *builder) claudeLine(line []byte) {
	if blank(line) {
		return
	}
	var l claudeLine
	soft, ok := b.decode(line, &l)
	if !ok {
		return
	}
	switch l.Type {
	case "user", "assistant", "system":
	default:
		// summary, file-history-snapshot, progress, titles, queue-operation
		// and whatever later versions add.
		return
	}
	if soft != nil {
		b.fail(soft)
	}
	if l.UUID != "" {
		if _, dup := b.seen[l.UUID]; dup {
			return
		}
		b.seen[l.UUID] = struct{}{}
		b.key = l.UUID
	}
	m := b.claudeMeta(&l)
	chain := ""
	if m.Sidechain {
		chain = "side:" + m.AgentID
	}
	// A main-chain line without a parent starts a session; compaction
	// boundaries and sidechains have none either, and are not starts.
	if !m.Sidechain && string(l.ParentUUID) == "null" && l.Type != "system" && !l.IsCompactSummary {
		b.emit(Event{Kind: KindSessionStart, Meta: m})
	}
	switch {
	case l.Type == "system":
		if l.Subtype == "compact_boundary" {
			b.endTurn(chain)
			b.emit(Event{Kind: KindCompaction, Meta: m,
				Trigger: l.CompactMetadata.Trigger, PreTokens: l.CompactMetadata.PreTokens})
		}
	case l.IsMeta:
		// injected by Claude Code, not typed by the user
	case l.Type == "user":
		b.claudeUser(&l, m, chain)
	default:
		b.claudeAssistant(&l, m, chain)
	}
}

func (b *builder) claudeMeta(l *claudeLine) Meta {
	m := Meta{
		UUID:      l.UUID,
		SessionID: l.SessionID,
		Time:      parseTime(l.Timestamp),
		Sidechain: l.IsSidechain,
		AgentID:   l.AgentID,
		CWD:       l.CWD,
		GitBranch: l.GitBranch,
		Version:   l.Version,
	}
	if len(l.ParentUUID) > 0 && l.ParentUUID[0] == '"' {
		_ = json.Unmarshal(l.ParentUUID, &m.ParentUUID)
	}
	m.SessionID = b.checkSession(m.SessionID)
	return m
}

// checkSession returns id if it is a valid session id, and otherwise records
// why and returns "": ids become directory names downstream.
func (b *builder) checkSession(id string) string {
	if id == "" {
		return b.opts.SessionID
	}
	if err := ValidateSessionID(id); err != nil {
		b.fail(err)
		return b.opts.SessionID
	}
	return id
}

func (b *builder) claudeUser(l *claudeLine, m Meta, chain string) {
	c := l.Message.Content
	if l.IsCompactSummary {
		b.endTurn(chain)
		text, _ := contentText(c)
		b.emit(Event{Kind: KindCompactSummary, Meta: m, Text: strings.TrimSpace(dropTag(text, "system-reminder"))})
		return
	}
	if len(c) > 0 && c[0] == '"' {
		var s string
		if err := json.Unmarshal(c, &s); err != nil {
			b.fail(fmt.Errorf("message.content: %w", err))
			return
		}
		b.claudePrompt(s, m, chain, true)
		return
	}
	var blocks []claudeBlock
	if err := json.Unmarshal(c, &blocks); err != nil {
		if len(c) > 0 && string(c) != "null" {
			b.fail(fmt.Errorf("message.content is neither text nor blocks: %w", err))
		}
		return
	}
	var texts []string
	results := 0
	for i := range blocks {
		if blocks[i].Type == "tool_result" {
			results++
		}
	}
	for i := range blocks {
		switch blk := &blocks[i]; blk.Type {
		case "text":
			texts = append(texts, blk.Text)
		case "tool_result":
			var structured json.RawMessage
			if results == 1 {
				// toolUseResult belongs to the line, so only to a lone result
				structured = l.ToolUseResult
			}
			b.claudeResult(blk, structured, m)
		}
	}
	// Text beside tool results was typed while tools ran: a prompt, but
	// not the end of the turn.
	b.claudePrompt(strings.Join(texts, "\n"), m, chain, results == 0)
}

func (b *builder) claudePrompt(s string, m Meta, chain string, endsTurn bool) {
	text, cmd := cleanPrompt(s)
	if text == "" && cmd == "" {
		return
	}
	if endsTurn {
		b.endTurn(chain)
	}
	if strings.HasPrefix(text, "[Request interrupted by user") {
		return // Claude Code's marker, not the user's words
	}
	b.emit(Event{Kind: KindUserPrompt, Meta: m, Text: text, Command: cmd})
}

func (b *builder) claudeResult(blk *claudeBlock, structured json.RawMessage, m Meta) {
	text, _ := contentText(blk.Content)
	r := &ToolResult{ToolUseID: blk.ToolUseID, IsError: blk.IsError, Output: cleanOutput(text)}
	b.pair(r)
	switch r.Name {
	case "Bash":
		r.ExitCode = exitCode(r.Output, r.IsError, true)
		if len(structured) > 0 && structured[0] == '{' {
			var s struct {
				Interrupted bool `json:"interrupted"`
			}
			_ = json.Unmarshal(structured, &s)
			r.Interrupted = s.Interrupted
		}
	case "":
		// the call is in another range: "Exit code N" is still Bash's
		r.ExitCode = exitCode(r.Output, r.IsError, false)
	}
	if strings.HasPrefix(r.Output, "[Request interrupted by user") {
		r.Interrupted = true
	}
	b.emit(Event{Kind: KindToolResult, Meta: m, Result: r})
}

func (b *builder) claudeAssistant(l *claudeLine, m Meta, chain string) {
	msg := &l.Message
	m.Model, m.MessageID = msg.Model, msg.ID
	om := b.open[chain]
	if om != nil && (msg.ID == "" || om.id != msg.ID) {
		delete(b.open, chain)
		om = nil
	}
	if om == nil {
		om = &message{id: msg.ID, side: m.Sidechain, first: -1, text: -1}
		if msg.ID != "" {
			b.open[chain] = om
		}
	}
	if msg.Usage != nil {
		if om.usage == nil {
			om.usage = &Usage{}
		}
		om.usage.merge(*msg.Usage)
		if om.first >= 0 {
			b.list(om.side)[om.first].Usage = om.usage
		}
	}
	var blocks []claudeBlock
	c := msg.Content
	if len(c) > 0 && c[0] == '"' {
		blocks = []claudeBlock{{Type: "text"}}
		_ = json.Unmarshal(c, &blocks[0].Text)
	} else if err := json.Unmarshal(c, &blocks); err != nil && len(c) > 0 && string(c) != "null" {
		b.fail(fmt.Errorf("message.content is neither text nor blocks: %w", err))
		return
	}
	for i := range blocks {
		switch blk := &blocks[i]; blk.Type {
		case "text":
			t := strings.TrimSpace(blk.Text)
			if t == "" || t == "(no content)" {
				continue
			}
			if list := b.list(om.side); om.text >= 0 && om.text == len(list)-1 {
				list[om.text].Text += "\n\n" + t
				continue
			}
			om.text = b.own(om, b.emit(Event{Kind: KindAssistantText, Meta: m, Text: t}))
		case "tool_use", "server_tool_use":
			e := Event{Kind: KindToolCall, Meta: m, Call: &ToolCall{
				ID: blk.ID, Name: blk.Name, Input: blk.Input, Summary: summarize(blk.Name, blk.Input, m.CWD),
			}}
			b.own(om, b.call(e, chain))
			om.text = -1
		}
		// thinking and redacted_thinking are left out; so are block types
		// this package does not know.
	}
	// A stop reason says the message is whole. Most lines do not have one
	// (each is written before the API says why it stopped), and then the
	// message stays open until another one, a prompt or a Final parse.
	if msg.StopReason != "" && b.open[chain] == om {
		delete(b.open, chain)
	}
}

// own makes the event at idx part of message om: the first one carries
// the message's usage.
func (b *builder) own(om *message, idx int) int {
	if om.first < 0 {
		om.first = idx
		if om.usage != nil {
			b.list(om.side)[idx].Usage = om.usage
		}
	}
	return idx
}

// contentText returns the text of a content value: a string, or the text of
// its text blocks (an image becomes "[image]"). ok is false when raw is
// neither.
func contentText(raw json.RawMessage) (text string, ok bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	if raw[0] == '"' {
		return text, json.Unmarshal(raw, &text) == nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return "", false
	}
	var sb strings.Builder
	for _, blk := range blocks {
		var t string
		switch blk.Type {
		case "text":
			t = blk.Text
		case "image":
			t = "[image]"
		default:
			continue
		}
		if sb.Len() > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(t)
	}
	return sb.String(), true
}

func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
