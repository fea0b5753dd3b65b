package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/transcript/jsonlex"
)

// ParseCodex reads a Codex CLI rollout (~/.codex/sessions/…/rollout-*.jsonl):
// {timestamp, type, payload} lines (Codex's RolloutLine). session_meta
// starts the session; response_item messages, function and custom tool
// calls and their outputs (paired by call_id; an output is a string or a
// list of content items) become events; compacted lines become a
// compaction and its summary; event_msg lines repeat response items and
// are skipped, and so are reasoning items (encrypted).
//
// Only session_meta and turn_context lines name the session, its cwd and
// its model: a parse that starts after them takes the session from
// Options.SessionID and leaves cwd and model empty.
func ParseCodex(data []byte, opts Options) *Parsed {
	c := &codexParser{b: newBuilder(opts), session: opts.SessionID}
	c.b.eachLine(data, validJSON, c.line)
	return c.b.result()
}

type codexParser struct {
	b                                    *builder
	session, cwd, branch, version, model string
}

type codexLine struct {
	Timestamp, Type string
	Payload         codexPayload
}

type codexPayload struct {
	Type string
	// session_meta and turn_context
	ID, CWD, CLIVersion, Branch, Model string
	// response_item
	Role      string
	Content   []string // text parts
	Name      string
	Arguments string // JSON text
	Input     string // custom tools: raw text
	CallID    string
	Output    string          // a string output
	OutputObj json.RawMessage // an object output
	Command   []string        // local_shell_call action
	// compacted
	Message string
}

func readCodex(lx *jsonlex.Lexer, l *codexLine, soft *error) {
	lx.Object(func(key []byte) {
		switch string(key) {
		case "timestamp":
			lx.Text(&l.Timestamp, "timestamp", soft)
		case "type":
			lx.Text(&l.Type, "type", soft)
		case "payload":
			readCodexPayload(lx, &l.Payload, soft)
		}
	})
}

func readCodexPayload(lx *jsonlex.Lexer, p *codexPayload, soft *error) {
	lx.Members("payload", soft, func(key []byte) {
		switch string(key) {
		case "type":
			lx.Text(&p.Type, "payload.type", soft)
		case "id":
			lx.Text(&p.ID, "payload.id", soft)
		case "cwd":
			lx.Text(&p.CWD, "payload.cwd", soft)
		case "cli_version":
			lx.Text(&p.CLIVersion, "payload.cli_version", soft)
		case "model":
			lx.Text(&p.Model, "payload.model", soft)
		case "role":
			lx.Text(&p.Role, "payload.role", soft)
		case "name":
			lx.Text(&p.Name, "payload.name", soft)
		case "call_id":
			lx.Text(&p.CallID, "payload.call_id", soft)
		case "message":
			lx.Text(&p.Message, "payload.message", soft)
		case "git":
			lx.Members("payload.git", soft, func(key []byte) {
				if string(key) == "branch" {
					lx.Text(&p.Branch, "payload.git.branch", soft)
				}
			})
		case "content":
			p.Content = nil // a repeated key wins
			switch lx.Peek() {
			case '[':
				lx.Array(func() {
					var text string
					lx.Members("payload.content", soft, func(key []byte) {
						if string(key) == "text" {
							lx.Text(&text, "payload.content text", soft)
						}
					})
					if text != "" {
						p.Content = append(p.Content, text)
					}
				})
			case 'n':
				lx.IsNull()
			default:
				lx.Skip()
				jsonlex.Note(soft, "payload.content", "an array")
			}
		case "arguments":
			p.Arguments = textOrJSON(lx, "payload.arguments", soft)
		case "input":
			p.Input = textOrJSON(lx, "payload.input", soft)
		case "output":
			p.Output, p.OutputObj = "", nil
			switch lx.Peek() {
			case '{':
				p.OutputObj = lx.Raw()
			case '[':
				// Content items, as newer versions write a tool's output:
				// [{"type": "input_text", "text": ...}, {"type": "input_image", ...}].
				var parts []string
				lx.Array(func() {
					var text string
					lx.Members("payload.output", soft, func(key []byte) {
						if string(key) == "text" {
							lx.Text(&text, "payload.output text", soft)
						}
					})
					if text != "" {
						parts = append(parts, text)
					}
				})
				p.Output = strings.Join(parts, "\n")
			default:
				lx.Text(&p.Output, "payload.output", soft)
			}
		case "action":
			lx.Members("payload.action", soft, func(key []byte) {
				if string(key) != "command" {
					return
				}
				p.Command = nil
				lx.Array(func() {
					if s, ok := lx.Str(); ok {
						p.Command = append(p.Command, s)
					}
				})
			})
		}
	})
}

// textOrJSON reads a string, or an object or array as its JSON text.
func textOrJSON(lx *jsonlex.Lexer, field string, soft *error) string {
	if c := lx.Peek(); c == '{' || c == '[' {
		return string(lx.Raw())
	}
	var s string
	lx.Text(&s, field, soft)
	return s
}

func (c *codexParser) line(line []byte) {
	b := c.b
	if blank(line) {
		return
	}
	if !isObject(line) {
		b.fail(errors.New("not a JSON object"))
		return
	}
	var l codexLine
	var soft error
	lx := jsonlex.New(line)
	readCodex(&lx, &l, &soft)
	lx.End()
	if lx.Err() != nil {
		b.fail(fmt.Errorf("invalid JSON: %w", lx.Err()))
		return
	}
	p := &l.Payload
	switch l.Type {
	case "session_meta", "turn_context", "response_item", "compacted":
		if soft != nil {
			b.fail(soft)
		}
	default:
		return // event_msg and types to come
	}
	switch l.Type {
	case "session_meta":
		if id := b.checkSession(p.ID); b.opts.SessionID == "" {
			c.session = id
		}
		c.cwd, c.branch, c.version = p.CWD, p.Branch, p.CLIVersion
	case "turn_context":
		if p.CWD != "" {
			c.cwd = p.CWD
		}
		if p.Model != "" {
			c.model = p.Model
		}
		return
	}
	m := Meta{SessionID: c.session, Time: parseTime(l.Timestamp), CWD: c.cwd, GitBranch: c.branch, Version: c.version}
	switch l.Type {
	case "session_meta":
		b.emit(Event{Kind: KindSessionStart, Meta: m})
	case "compacted":
		b.endTurn("")
		b.emit(Event{Kind: KindCompaction, Meta: m})
		if t := strings.TrimSpace(p.Message); t != "" {
			b.emit(Event{Kind: KindCompactSummary, Meta: m, Text: t})
		}
	case "response_item":
		c.item(p, m)
	}
}

func (c *codexParser) item(p *codexPayload, m Meta) {
	b := c.b
	switch p.Type {
	case "message":
		text := strings.TrimSpace(strings.Join(p.Content, "\n"))
		switch {
		case text == "":
		case p.Role == "user" && !codexContext(text):
			b.endTurn("")
			kind, cmd := promptKind(text, "")
			b.emit(Event{Kind: kind, Meta: m, Text: text, Command: cmd})
		case p.Role == "assistant":
			m.Model = c.model
			b.emit(Event{Kind: KindAssistantText, Meta: m, Text: text})
		}
	case "function_call", "custom_tool_call", "local_shell_call":
		m.Model = c.model
		var input json.RawMessage
		name := p.Name
		switch p.Type {
		case "function_call":
			input = argsJSON(p.Arguments)
		case "custom_tool_call":
			input = argsJSON(p.Input)
		default:
			name = "local_shell"
			input, _ = json.Marshal(map[string][]string{"command": p.Command})
		}
		id := firstOf(p.CallID, p.ID)
		b.call(Event{Kind: KindToolCall, Meta: m, Call: &ToolCall{
			ID: id, Name: name, Input: input, Summary: summarize(name, input, m.CWD),
		}}, "")
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		r := &ToolResult{ToolUseID: p.CallID}
		if p.OutputObj != nil {
			r.Output, r.ExitCode, r.IsError = codexOutput(p.OutputObj)
		} else {
			r.Output, r.ExitCode, r.IsError = codexOutputText(p.Output)
		}
		b.pair(r)
		b.emit(Event{Kind: KindToolResult, Meta: m, Result: r})
	}
	// reasoning (often encrypted), web_search_call and types to come are left out
}

// codexContext reports whether a user message is context Codex injects
// rather than the user's words.
func codexContext(text string) bool {
	for _, p := range []string{"<environment_context>", "<user_instructions>", "<permissions instructions>", "# AGENTS.md instructions"} {
		if strings.HasPrefix(text, p) {
			return true
		}
	}
	return false
}

// codexArgs returns a function call's arguments, which Codex and OpenAI
// chat store as JSON text inside a string, as JSON.
func codexArgs(raw json.RawMessage) json.RawMessage {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		if len(raw) > 0 && json.Valid(raw) {
			return raw
		}
		return nil
	}
	return argsJSON(s)
}

// argsJSON returns arguments given as text as JSON: the text itself when
// it is a JSON object or array, or else a JSON string of it (the patch a
// custom tool takes).
func argsJSON(s string) json.RawMessage {
	if t := strings.TrimSpace(s); t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	if s == "" {
		return nil
	}
	b, _ := json.Marshal(s)
	return b
}

var codexExit = lazyre.New(`(?m)^(?:Exit code:|Process exited with code) (-?\d+)`)

// codexOutput reads a tool's output: a string, older versions' JSON
// {"output", "metadata": {"exit_code"}} inside that string, or an object
// {"content", "success"}.
func codexOutput(raw json.RawMessage) (out string, exit *int, isErr bool) {
	if len(raw) > 0 && raw[0] == '{' {
		var o struct {
			Content string `json:"content"`
			Output  string `json:"output"`
			Success *bool  `json:"success"`
		}
		_ = json.Unmarshal(raw, &o)
		out = firstOf(o.Content, o.Output)
		return out, nil, o.Success != nil && !*o.Success
	}
	if json.Unmarshal(raw, &out) != nil {
		return string(raw), nil, false
	}
	return codexOutputText(out)
}

// codexOutputText reads a tool's output given as a string.
func codexOutputText(out string) (string, *int, bool) {
	if t := strings.TrimSpace(out); strings.HasPrefix(t, "{") {
		var o struct {
			Output   *string `json:"output"`
			Metadata struct {
				ExitCode *int `json:"exit_code"`
			} `json:"metadata"`
		}
		if json.Unmarshal([]byte(t), &o) == nil && o.Output != nil {
			exit := o.Metadata.ExitCode
			return *o.Output, exit, exit != nil && *exit != 0
		}
	}
	var exit *int
	if m := codexExit.FindStringSubmatch(out); m != nil {
		exit = leadingInt(m[1])
	}
	return out, exit, exit != nil && *exit != 0
}
