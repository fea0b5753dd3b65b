package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/transcript/jsonlex"
)

// ParseClaude reads Claude Code session JSONL (see Options and Parsed for
// ranges and resuming).
//
// The lines of one assistant message (one per content block, sharing
// message.id) become one message: adjacent text blocks join into one event
// and its usage is counted once. Tool results are paired with their calls by
// tool_use_id. Sidechain (subagent) lines go to Parsed.Sidechain. Lines
// marked isMeta, line types other than user, assistant and system, and
// lines whose uuid an earlier line had (in the range, or before it:
// Options.Seen) are skipped; <system-reminder> and other blocks Claude
// Code adds to the user's text are removed.
func ParseClaude(data []byte, opts Options) *Parsed {
	b := newBuilder(opts)
	b.eachLine(data, validJSON, b.claudeLine)
	return b.result()
}

// claudeLine is what the parser uses of a line.
type claudeLine struct {
	Type, Subtype, UUID, Parent, SessionID, Timestamp string
	CWD, GitBranch, Version, AgentID                  string
	Root                                              bool // parentUuid is null
	IsSidechain, IsMeta, IsCompactSummary             bool
	Trigger                                           string // compactMetadata
	PreTokens                                         int64
	Message                                           claudeMessage
	Interrupted                                       bool // toolUseResult says so
}

type claudeMessage struct {
	ID, Model, StopReason string
	Usage                 *Usage
	Text                  string // content given as a string
	IsText                bool
	Blocks                []claudeBlock
}

type claudeBlock struct {
	Type, Text, ID, Name, ToolUseID string
	Input                           []byte // raw JSON, in the line
	Content                         string // a tool result's text
	IsError                         bool
}

// readClaude reads a line's fields; soft notes the first known field of an
// unexpected type (the rest of the line is still read).
func readClaude(lx *jsonlex.Lexer, l *claudeLine, soft *error) {
	lx.Object(func(key []byte) {
		switch string(key) {
		case "type":
			lx.Text(&l.Type, "type", soft)
		case "subtype":
			lx.Text(&l.Subtype, "subtype", soft)
		case "uuid":
			lx.Text(&l.UUID, "uuid", soft)
		case "parentUuid":
			if lx.Peek() == 'n' {
				l.Root = lx.IsNull()
			} else {
				lx.Text(&l.Parent, "parentUuid", soft)
			}
		case "sessionId":
			lx.Text(&l.SessionID, "sessionId", soft)
		case "timestamp":
			lx.Text(&l.Timestamp, "timestamp", soft)
		case "cwd":
			lx.Text(&l.CWD, "cwd", soft)
		case "gitBranch":
			lx.Text(&l.GitBranch, "gitBranch", soft)
		case "version":
			lx.Text(&l.Version, "version", soft)
		case "agentId":
			lx.Text(&l.AgentID, "agentId", soft)
		case "isSidechain":
			lx.Flag(&l.IsSidechain, "isSidechain", soft)
		case "isMeta":
			lx.Flag(&l.IsMeta, "isMeta", soft)
		case "isCompactSummary":
			lx.Flag(&l.IsCompactSummary, "isCompactSummary", soft)
		case "compactMetadata":
			lx.Members("compactMetadata", soft, func(key []byte) {
				switch string(key) {
				case "trigger":
					lx.Text(&l.Trigger, "compactMetadata.trigger", soft)
				case "preTokens":
					lx.Count(&l.PreTokens, "compactMetadata.preTokens", soft)
				}
			})
		case "toolUseResult":
			// Only Bash's interrupted flag is used; the rest (often a
			// second copy of the output, or a whole file) is skipped.
			if lx.Peek() == '{' {
				l.Interrupted = bytes.Contains(lx.Raw(), []byte(`"interrupted":true`))
			}
		case "message":
			readClaudeMessage(lx, &l.Message, soft)
		}
	})
}

func readClaudeMessage(lx *jsonlex.Lexer, m *claudeMessage, soft *error) {
	lx.Members("message", soft, func(key []byte) {
		switch string(key) {
		case "id":
			lx.Text(&m.ID, "message.id", soft)
		case "model":
			lx.Text(&m.Model, "message.model", soft)
		case "stop_reason":
			lx.Text(&m.StopReason, "message.stop_reason", soft)
		case "usage":
			u := &Usage{}
			if lx.Members("message.usage", soft, func(key []byte) {
				switch string(key) {
				case "input_tokens":
					lx.Count(&u.Input, "usage.input_tokens", soft)
				case "output_tokens":
					lx.Count(&u.Output, "usage.output_tokens", soft)
				case "cache_creation_input_tokens":
					lx.Count(&u.CacheCreation, "usage.cache_creation_input_tokens", soft)
				case "cache_read_input_tokens":
					lx.Count(&u.CacheRead, "usage.cache_read_input_tokens", soft)
				}
			}) {
				m.Usage = u
			}
		case "content":
			m.Text, m.IsText, m.Blocks = "", false, nil // a repeated key wins, as in encoding/json
			switch lx.Peek() {
			case '"':
				m.Text, m.IsText = lx.Str()
			case '[':
				lx.Array(func() {
					var blk claudeBlock
					if lx.Members("message.content", soft, func(key []byte) { readClaudeBlock(lx, &blk, soft, key) }) {
						m.Blocks = append(m.Blocks, blk)
					}
				})
			default:
				if !lx.IsNull() {
					lx.Skip()
					jsonlex.Note(soft, "message.content", "text or blocks")
				}
			}
		}
	})
}

func readClaudeBlock(lx *jsonlex.Lexer, blk *claudeBlock, soft *error, key []byte) {
	switch string(key) {
	case "type":
		lx.Text(&blk.Type, "block type", soft)
	case "text":
		lx.Text(&blk.Text, "block text", soft)
	case "id":
		lx.Text(&blk.ID, "block id", soft)
	case "name":
		lx.Text(&blk.Name, "block name", soft)
	case "tool_use_id":
		lx.Text(&blk.ToolUseID, "tool_use_id", soft)
	case "is_error":
		lx.Flag(&blk.IsError, "is_error", soft)
	case "input":
		blk.Input = lx.Raw()
	case "content":
		switch lx.Peek() {
		case '"':
			blk.Content, _ = lx.Str()
		case '[':
			var sb strings.Builder
			lx.Array(func() {
				var typ, text string
				lx.Members("tool_result content", soft, func(key []byte) {
					switch string(key) {
					case "type":
						lx.Text(&typ, "block type", soft)
					case "text":
						lx.Text(&text, "block text", soft)
					}
				})
				switch typ {
				case "text":
				case "image":
					text = "[image]"
				default:
					return
				}
				if sb.Len() > 0 {
					sb.WriteByte('\n')
				}
				sb.WriteString(text)
			})
			blk.Content = sb.String()
		default:
			if !lx.IsNull() {
				lx.Skip()
				jsonlex.Note(soft, "tool_result content", "text or blocks")
			}
		}
	}
}

func (b *builder) claudeLine(line []byte) {
	if blank(line) {
		return
	}
	if !isObject(line) {
		b.fail(errors.New("not a JSON object"))
		return
	}
	var l claudeLine
	var soft error
	lx := jsonlex.New(line)
	readClaude(&lx, &l, &soft)
	lx.End()
	if lx.Err() != nil {
		b.fail(fmt.Errorf("invalid JSON: %w", lx.Err()))
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
		if b.repeat(l.UUID) {
			return
		}
		b.key = l.UUID
	}
	m := b.claudeMeta(&l)
	chain := ""
	if m.Sidechain {
		chain = "side:" + m.AgentID
	}
	// A main-chain line without a parent starts a session; compaction
	// boundaries and sidechains have none either, and are not starts.
	if !m.Sidechain && l.Root && l.Type != "system" && !l.IsCompactSummary {
		b.emit(Event{Kind: KindSessionStart, Meta: m})
	}
	switch {
	case l.Type == "system":
		if l.Subtype == "compact_boundary" {
			b.endTurn(chain)
			b.emit(Event{Kind: KindCompaction, Meta: m, Trigger: l.Trigger, PreTokens: l.PreTokens})
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
	m.ParentUUID = l.Parent
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
	msg := &l.Message
	if l.IsCompactSummary {
		b.endTurn(chain)
		text := msg.Text
		if !msg.IsText {
			text = blocksText(msg.Blocks)
		}
		b.emit(Event{Kind: KindCompactSummary, Meta: m, Text: strings.TrimSpace(dropTag(text, "system-reminder"))})
		return
	}
	if msg.IsText {
		b.claudePrompt(msg.Text, m, chain, true)
		return
	}
	results := 0
	for i := range msg.Blocks {
		if msg.Blocks[i].Type == "tool_result" {
			results++
		}
	}
	var texts []string
	for i := range msg.Blocks {
		switch blk := &msg.Blocks[i]; blk.Type {
		case "text":
			texts = append(texts, blk.Text)
		case "tool_result":
			// toolUseResult belongs to the line, so only to a lone result
			b.claudeResult(blk, results == 1 && l.Interrupted, m)
		}
	}
	// Text beside tool results was typed while tools ran: a prompt, but
	// not the end of the turn.
	b.claudePrompt(strings.Join(texts, "\n"), m, chain, results == 0)
}

// blocksText joins the text of text blocks.
func blocksText(blocks []claudeBlock) string {
	var texts []string
	for _, blk := range blocks {
		if blk.Type == "text" {
			texts = append(texts, blk.Text)
		}
	}
	return strings.Join(texts, "\n")
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
	kind, cmd := promptKind(text, cmd)
	b.emit(Event{Kind: kind, Meta: m, Text: text, Command: cmd})
}

func (b *builder) claudeResult(blk *claudeBlock, interrupted bool, m Meta) {
	r := &ToolResult{ToolUseID: blk.ToolUseID, IsError: blk.IsError, Output: cleanOutput(blk.Content)}
	b.pair(r)
	switch r.Name {
	case "Bash":
		r.ExitCode = exitCode(r.Output, r.IsError, true)
		r.Interrupted = interrupted
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
	blocks := msg.Blocks
	if msg.IsText {
		blocks = []claudeBlock{{Type: "text", Text: msg.Text}}
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
			input := toolInput(blk.Input)
			e := Event{Kind: KindToolCall, Meta: m, Call: &ToolCall{
				ID: blk.ID, Name: blk.Name, Input: input, Summary: summarize(blk.Name, input, m.CWD),
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

// toolInput copies a tool call's input out of the line. The lexer checks
// the structure of what it skips, not every detail: the input is checked
// in full, for it is kept as JSON.
func toolInput(raw []byte) json.RawMessage {
	if len(raw) == 0 || !json.Valid(raw) {
		return nil
	}
	return bytes.Clone(raw)
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
