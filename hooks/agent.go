package hooks

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/transcript/gemini"
)

// Gemini CLI's hook events (its settings.json and hook_event_name).
const (
	GeminiSessionStart = "SessionStart"
	GeminiBeforeAgent  = "BeforeAgent"
	GeminiAfterTool    = "AfterTool"
	GeminiAfterAgent   = "AfterAgent"
	GeminiPreCompress  = "PreCompress"
	GeminiSessionEnd   = "SessionEnd"
)

// Cursor's hook events (its hooks.json and hook_event_name).
const (
	CursorBeforeSubmitPrompt  = "beforeSubmitPrompt"
	CursorAfterShellExecution = "afterShellExecution"
	CursorAfterFileEdit       = "afterFileEdit"
	CursorAfterMCPExecution   = "afterMCPExecution"
	CursorAfterAgentResponse  = "afterAgentResponse"
	CursorStop                = "stop"
)

// Normalized is a payload of another agent in Claude Code's shape: the
// event by Claude Code's name (model.Hook*), and the payload with Claude
// Code's fields and model.HookAgentKey naming the agent, as TagAgent
// does. Payload is nil for an event cairn does not capture (Cursor's
// stop: afterAgentResponse brought the answer).
type Normalized struct {
	Event   string
	Payload []byte
	Session string // the agent's session id
	CWD     string // its working folder, which finds the memory
	// Native is the event by the agent's own name, for the answer.
	Native string
}

// Normalize reads a Gemini CLI or Cursor hook payload (agent is
// model.AgentGemini or model.AgentCursor) into Claude Code's shape, which
// the rest of cairn reads (transcript.ParseHook): Gemini's BeforeAgent is a
// UserPromptSubmit, AfterTool a PostToolUse (a PostToolUseFailure when its
// tool_response has an error), AfterAgent a Stop whose last message is
// prompt_response, PreCompress a PreCompact; Cursor's conversation_id is
// the session id and its first workspace root the cwd, a shell command,
// file edit or MCP call is a PostToolUse, afterAgentResponse a Stop. The
// table is in docs/capture.md. Other agents' payloads are Claude Code's
// already: they are refused here.
func Normalize(agent string, payload []byte) (*Normalized, error) {
	if agent != model.AgentGemini && agent != model.AgentCursor {
		return nil, fmt.Errorf("agent %q: its payloads are Claude Code's already", agent)
	}
	var in map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(payload), &in); err != nil {
		return nil, fmt.Errorf("%s hook payload is not a JSON object: %w", agent, err)
	}
	str := func(key string) string {
		var s string
		_ = json.Unmarshal(in[key], &s)
		return s
	}
	native := str("hook_event_name")
	out := map[string]any{model.HookAgentKey: agent}
	var event string
	if agent == model.AgentGemini {
		for _, k := range []string{"session_id", "transcript_path", "cwd", "timestamp"} {
			if v, ok := in[k]; ok {
				out[k] = v
			}
		}
		switch native {
		case GeminiSessionStart:
			event = model.HookSessionStart
			out["source"] = cmp.Or(str("source"), str("trigger"))
		case GeminiBeforeAgent:
			event = model.HookUserPromptSubmit
			out["prompt"] = str("prompt")
		case GeminiAfterTool:
			event = model.HookPostToolUse
			out["tool_name"] = str("tool_name")
			if v, ok := in["tool_input"]; ok {
				out["tool_input"] = v
			}
			text, failure := geminiToolResponse(in["tool_response"])
			if failure == "" && str("tool_name") == "run_shell_command" && shellFailed(text) {
				failure = text // as the chat file's reader takes it (transcript/gemini)
			}
			if failure != "" {
				event = model.HookPostToolUseFailure
				out["error"] = failure
			} else {
				out["tool_response"] = text
			}
		case GeminiAfterAgent:
			event = model.HookStop
			out["last_assistant_message"] = str("prompt_response")
			if v, ok := in["stop_hook_active"]; ok {
				out["stop_hook_active"] = v
			}
		case GeminiPreCompress:
			event = model.HookPreCompact
			out["trigger"] = str("trigger")
		case GeminiSessionEnd:
			event = model.HookSessionEnd
			out["reason"] = cmp.Or(str("reason"), str("trigger"))
		default:
			return nil, fmt.Errorf("gemini hook event %q: cairn does not capture it", native)
		}
	} else {
		out["session_id"] = str("conversation_id")
		var roots []string
		_ = json.Unmarshal(in["workspace_roots"], &roots)
		if len(roots) > 0 {
			out["cwd"] = roots[0]
		}
		if m := str("model"); m != "" {
			out["model"] = m
		}
		switch native {
		case CursorBeforeSubmitPrompt:
			event = model.HookUserPromptSubmit
			out["prompt"] = str("prompt")
		case CursorAfterShellExecution:
			event = model.HookPostToolUse
			out["tool_name"] = "Shell"
			out["tool_input"] = map[string]string{"command": str("command")}
			out["tool_response"] = str("output")
			var ms int64
			if json.Unmarshal(in["duration"], &ms) == nil && ms > 0 {
				out["duration_ms"] = ms
			}
		case CursorAfterFileEdit:
			event = model.HookPostToolUse
			out["tool_name"] = "Edit"
			input := map[string]any{"file_path": str("file_path")}
			if v, ok := in["edits"]; ok {
				input["edits"] = v
			}
			out["tool_input"] = input
		case CursorAfterMCPExecution:
			event = model.HookPostToolUse
			out["tool_name"] = str("tool_name")
			// Cursor sends the input and the result as JSON text.
			input := in["tool_input"]
			if s := str("tool_input"); s != "" && json.Valid([]byte(s)) {
				input = json.RawMessage(s)
			}
			if len(input) > 0 {
				out["tool_input"] = input
			}
			out["tool_response"] = cmp.Or(str("result_json"), string(in["result_json"]))
		case CursorAfterAgentResponse:
			event = model.HookStop
			out["last_assistant_message"] = str("text")
		case CursorStop:
			cwd, _ := out["cwd"].(string)
			return &Normalized{Event: model.HookStop, Native: native, Session: str("conversation_id"), CWD: cwd}, nil
		default:
			return nil, fmt.Errorf("cursor hook event %q: cairn does not capture it", native)
		}
	}
	var session string
	switch v := out["session_id"].(type) {
	case string:
		session = v
	case json.RawMessage:
		_ = json.Unmarshal(v, &session)
	}
	if session == "" {
		return nil, fmt.Errorf("%s %s hook payload has no session id", agent, cmp.Or(native, "(unnamed)"))
	}
	if event == model.HookPostToolUse || event == model.HookPostToolUseFailure {
		// Neither agent names the call; its payload does, for the pairing
		// of the call with its result and for a retried hook.
		sum := sha256.Sum256(payload)
		out["tool_use_id"] = agent + "-" + hex.EncodeToString(sum[:8])
	}
	out["hook_event_name"] = event
	data, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	return &Normalized{Event: event, Native: native, Payload: data, Session: session}, nil
}

// geminiToolResponse reads an AfterTool tool_response, {llmContent,
// returnDisplay, error}: the text the model got, or the error's message
// when the tool failed.
func geminiToolResponse(raw json.RawMessage) (text, failure string) {
	var r struct {
		LLMContent    json.RawMessage `json:"llmContent"`
		ReturnDisplay json.RawMessage `json:"returnDisplay"`
		Error         json.RawMessage `json:"error"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &r) != nil {
		return string(raw), ""
	}
	if e := errorText(r.Error); e != "" {
		return "", e
	}
	if t := partsText(r.LLMContent); t != "" {
		return t, ""
	}
	return partsText(r.ReturnDisplay), ""
}

// shellFailed reports whether the output of Gemini's shell tool gives a
// non-zero exit code ("Exit Code: 1").
func shellFailed(output string) bool {
	i := strings.LastIndex(output, "Exit Code: ")
	return i >= 0 && !strings.HasPrefix(output[i+len("Exit Code: "):], "0")
}

// errorText is an error given as a string or as {message}.
func errorText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Message != "" {
		return e.Message
	}
	return string(raw)
}

// partsText renders Gemini content (gemini.ToolText), or gives it as it
// is when it is not Gemini content.
func partsText(raw json.RawMessage) string {
	if t, ok := gemini.ToolText(raw); ok {
		return t
	}
	return string(bytes.TrimSpace(raw))
}
