package transcript

import (
	"encoding/json"
	"regexp"
	"strings"
)

// ParseCodex reads a Codex CLI rollout (~/.codex/sessions/…/rollout-*.jsonl):
// {timestamp, type, payload} lines. session_meta starts the session;
// response_item messages, function calls and their outputs (paired by
// call_id) become events; compacted lines become a compaction and its
// summary; event_msg lines repeat response items and are skipped.
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
	Timestamp string       `json:"timestamp"`
	Type      string       `json:"type"`
	Payload   codexPayload `json:"payload"`
}

type codexPayload struct {
	Type string `json:"type"`
	// session_meta and turn_context
	ID         string `json:"id"`
	CWD        string `json:"cwd"`
	CLIVersion string `json:"cli_version"`
	Git        struct {
		Branch string `json:"branch"`
	} `json:"git"`
	Model string `json:"model"`
	// response_item
	Role    string `json:"role"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"` // JSON text in a string
	Input     json.RawMessage `json:"input"`     // custom tools: raw text
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Action    struct {
		Command []string `json:"command"`
	} `json:"action"`
	// compacted
	Message string `json:"message"`
}

func (c *codexParser) line(line []byte) {
	b := c.b
	if blank(line) {
		return
	}
	var l codexLine
	soft, ok := b.decode(line, &l)
	if !ok {
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
		c.cwd, c.branch, c.version = p.CWD, p.Git.Branch, p.CLIVersion
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
		var parts []string
		for _, part := range p.Content {
			if part.Text != "" {
				parts = append(parts, part.Text)
			}
		}
		text := strings.TrimSpace(strings.Join(parts, "\n"))
		switch {
		case text == "":
		case p.Role == "user" && !codexContext(text):
			b.endTurn("")
			b.emit(Event{Kind: KindUserPrompt, Meta: m, Text: text})
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
			input = codexArgs(p.Arguments)
		case "custom_tool_call":
			input = p.Input
		default:
			name = "local_shell"
			input, _ = json.Marshal(map[string][]string{"command": p.Action.Command})
		}
		id := firstOf(p.CallID, p.ID)
		b.call(Event{Kind: KindToolCall, Meta: m, Call: &ToolCall{
			ID: id, Name: name, Input: input, Summary: summarize(name, input, m.CWD),
		}}, "")
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		r := &ToolResult{ToolUseID: p.CallID}
		r.Output, r.ExitCode, r.IsError = codexOutput(p.Output)
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

// codexArgs returns a function call's arguments, which Codex stores as
// JSON text inside a string, as JSON.
func codexArgs(raw json.RawMessage) json.RawMessage {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return raw
	}
	if t := strings.TrimSpace(s); t != "" && (t[0] == '{' || t[0] == '[') && json.Valid([]byte(t)) {
		return json.RawMessage(t)
	}
	return raw
}

var codexExit = regexp.MustCompile(`(?m)^(?:Exit code:|Process exited with code) (-?\d+)`)

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
	if t := strings.TrimSpace(out); strings.HasPrefix(t, "{") {
		var o struct {
			Output   *string `json:"output"`
			Metadata struct {
				ExitCode *int `json:"exit_code"`
			} `json:"metadata"`
		}
		if json.Unmarshal([]byte(t), &o) == nil && o.Output != nil {
			out, exit = *o.Output, o.Metadata.ExitCode
			return out, exit, exit != nil && *exit != 0
		}
	}
	if m := codexExit.FindStringSubmatch(out); m != nil {
		exit = leadingInt(m[1])
	}
	return out, exit, exit != nil && *exit != 0
}
