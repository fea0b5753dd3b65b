package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-mem/cairn/internal/model"
)

// ErrUnknownHook is wrapped by the error ParseHook returns for a
// hook_event_name it does not know.
var ErrUnknownHook = errors.New("unknown hook event")

// Hook is the JSON a Claude Code hook receives on stdin, which Codex sends
// too. Fields an event does not carry are empty.
type Hook struct {
	Event          string `json:"hook_event_name"`
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path,omitempty"`
	CWD            string `json:"cwd,omitempty"`
	PermissionMode string `json:"permission_mode,omitempty"`
	PromptID       string `json:"prompt_id,omitempty"`
	AgentID        string `json:"agent_id,omitempty"`
	AgentType      string `json:"agent_type,omitempty"`

	Source string `json:"source,omitempty"` // SessionStart
	Model  string `json:"model,omitempty"`  // SessionStart

	Prompt string `json:"prompt,omitempty"` // UserPromptSubmit

	ToolName     string          `json:"tool_name,omitempty"` // PreToolUse, PostToolUse, PostToolUseFailure
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`
	ToolResponse json.RawMessage `json:"tool_response,omitempty"` // PostToolUse
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	DurationMS   int64           `json:"duration_ms,omitempty"`
	Error        string          `json:"error,omitempty"` // PostToolUseFailure
	IsInterrupt  bool            `json:"is_interrupt,omitempty"`

	StopHookActive       bool   `json:"stop_hook_active,omitempty"` // Stop, SubagentStop
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
	AgentTranscriptPath  string `json:"agent_transcript_path,omitempty"` // SubagentStop

	Trigger            string `json:"trigger,omitempty"` // PreCompact, PostCompact
	CustomInstructions string `json:"custom_instructions,omitempty"`
	CompactSummary     string `json:"compact_summary,omitempty"`

	Reason string `json:"reason,omitempty"` // SessionEnd

	Message string `json:"message,omitempty"` // Notification

	// Agent is the agent the payload came from, as cairn hook --agent
	// tagged it (model.HookAgentKey) or hooks.Normalize put it into this
	// shape; empty for Claude Code.
	Agent string `json:"cairn_agent,omitempty"`
}

// hookEvents are the hook events Claude Code sends, and whether this
// package turns them into events.
var hookEvents = map[string]bool{
	model.HookSessionStart:       true,
	model.HookUserPromptSubmit:   true,
	model.HookPreToolUse:         true,
	model.HookPostToolUse:        true,
	model.HookPostToolUseFailure: true,
	model.HookStop:               true,
	model.HookSubagentStop:       true,
	model.HookPreCompact:         true,
	model.HookPostCompact:        true,
	model.HookSessionEnd:         true,
	model.HookSubagentStart:      false,
	model.HookNotification:       false,
	model.HookPermissionRequest:  false,
}

// ParseHook reads a hook's stdin payload. It fails for invalid JSON, for a
// hook_event_name it does not know (wrapping ErrUnknownHook), and for a
// missing or unsafe session_id (wrapping ErrInvalidSessionID). Fields of an
// unexpected type are left empty: versions differ.
func ParseHook(data []byte) (*Hook, error) {
	if !isObject(bytes.TrimLeft(data, " \t\r\n")) {
		return nil, errors.New("hook payload is not a JSON object")
	}
	var h Hook
	var aux struct {
		Model json.RawMessage `json:"model"`
	}
	if err := json.Unmarshal(data, &h); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				return nil, fmt.Errorf("hook payload is not valid JSON at byte %d: %w", se.Offset, err)
			}
			return nil, fmt.Errorf("hook payload is not valid JSON: %w", err)
		}
	}
	if h.Event == "" {
		return nil, fmt.Errorf("hook payload has no hook_event_name: %w", ErrUnknownHook)
	}
	if _, ok := hookEvents[h.Event]; !ok {
		return nil, fmt.Errorf("hook event %q: %w", h.Event, ErrUnknownHook)
	}
	if err := ValidateSessionID(h.SessionID); err != nil {
		return nil, fmt.Errorf("%s hook: %w", h.Event, err)
	}
	// model is a string in some versions and an object in others
	if h.Model == "" && json.Unmarshal(data, &aux) == nil && len(aux.Model) > 0 && aux.Model[0] == '{' {
		var m struct {
			ID          string `json:"id"`
			DisplayName string `json:"display_name"`
		}
		_ = json.Unmarshal(aux.Model, &m)
		h.Model = firstOf(m.ID, m.DisplayName)
	}
	return &h, nil
}

// Events turns the hook into events: a tool hook gives its call and, after
// the tool ran, its result; other hooks give one event or none
// (Notification, SubagentStart, PermissionRequest). Hook events have no ID,
// offset or time: the caller knows when it received them.
func (h *Hook) Events() []Event {
	m := Meta{SessionID: h.SessionID, CWD: h.CWD, AgentID: h.AgentID, AgentType: h.AgentType, Sidechain: h.AgentID != ""}
	switch h.Event {
	case model.HookSessionStart:
		m.Model = h.Model
		return []Event{{Kind: KindSessionStart, Meta: m, Source: h.Source}}
	case model.HookUserPromptSubmit:
		text, cmd := cleanPrompt(h.Prompt)
		kind, cmd := promptKind(text, cmd)
		return []Event{{Kind: kind, Meta: m, Text: text, Command: cmd}}
	case model.HookPreToolUse:
		return []Event{h.call(m)}
	case model.HookPostToolUse:
		r := &ToolResult{Output: responseText(h.ToolResponse), DurationMS: h.DurationMS}
		if h.ToolName == "Bash" {
			r.ExitCode = exitCode("", false, true)
			var s struct {
				Interrupted bool `json:"interrupted"`
			}
			if len(h.ToolResponse) > 0 && h.ToolResponse[0] == '{' {
				_ = json.Unmarshal(h.ToolResponse, &s)
			}
			r.Interrupted = s.Interrupted
		}
		return h.callAndResult(m, r)
	case model.HookPostToolUseFailure:
		r := &ToolResult{Output: cleanOutput(h.Error), IsError: true, Interrupted: h.IsInterrupt, DurationMS: h.DurationMS}
		r.ExitCode = exitCode(r.Output, true, h.ToolName == "Bash")
		return h.callAndResult(m, r)
	case model.HookStop, model.HookSubagentStop:
		return []Event{{Kind: KindStop, Meta: m, Text: h.LastAssistantMessage}}
	case model.HookPreCompact:
		return []Event{{Kind: KindCompaction, Meta: m, Trigger: h.Trigger, Text: h.CustomInstructions}}
	case model.HookPostCompact:
		return []Event{{Kind: KindCompactSummary, Meta: m, Trigger: h.Trigger, Text: h.CompactSummary}}
	case model.HookSessionEnd:
		return []Event{{Kind: KindSessionEnd, Meta: m, Reason: h.Reason}}
	}
	return nil
}

func (h *Hook) call(m Meta) Event {
	return Event{Kind: KindToolCall, Meta: m, Call: &ToolCall{
		ID: h.ToolUseID, Name: h.ToolName, Input: h.ToolInput, Summary: summarize(h.ToolName, h.ToolInput, h.CWD),
	}}
}

func (h *Hook) callAndResult(m Meta, r *ToolResult) []Event {
	c := h.call(m)
	r.ToolUseID, r.Name, r.Summary = c.Call.ID, c.Call.Name, c.Call.Summary
	return []Event{c, {Kind: KindToolResult, Meta: m, Result: r}}
}

// responseText renders a PostToolUse tool_response as text: a string as it
// is, Bash's {stdout, stderr} joined, an object's "content" (or its file's
// content), or else the JSON itself.
func responseText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	switch raw[0] {
	case '"', '[':
		if text, ok := contentText(raw); ok {
			return cleanOutput(text)
		}
		return string(raw)
	case '{':
	default:
		return string(raw)
	}
	var o struct {
		Stdout  *string         `json:"stdout"`
		Stderr  string          `json:"stderr"`
		Content json.RawMessage `json:"content"`
		File    struct {
			Content string `json:"content"`
		} `json:"file"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return string(raw)
	}
	switch {
	case o.Stdout != nil:
		return strings.TrimRight(strings.Join(nonEmpty(*o.Stdout, o.Stderr), "\n"), "\n")
	case len(o.Content) > 0:
		if text, ok := contentText(o.Content); ok {
			return cleanOutput(text)
		}
	case o.File.Content != "":
		return o.File.Content
	}
	return string(raw)
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
