package model

import "strings"

// Claude Code's hook events, by the names its settings and payloads use
// (hook_event_name). Codex and Gemini CLI send the same shapes under some
// of these names.
const (
	HookSessionStart       = "SessionStart"
	HookUserPromptSubmit   = "UserPromptSubmit"
	HookPreToolUse         = "PreToolUse"
	HookPostToolUse        = "PostToolUse"
	HookPostToolUseFailure = "PostToolUseFailure"
	HookStop               = "Stop"
	HookSubagentStart      = "SubagentStart"
	HookSubagentStop       = "SubagentStop"
	HookPreCompact         = "PreCompact"
	HookPostCompact        = "PostCompact"
	HookSessionEnd         = "SessionEnd"
	HookNotification       = "Notification"
	HookPermissionRequest  = "PermissionRequest"
)

// HookAgentKey is the key cairn hook adds to a payload it captures for an
// agent other than Claude Code (cairn hook --agent), naming the agent
// (AgentCodex, ...): the payload waits in the inbox, and the session it
// starts records that agent.
const HookAgentKey = "cairn_agent"

// HookEvents are the hook events cairn knows, in the order a session
// fires them.
func HookEvents() []string {
	return []string{HookSessionStart, HookUserPromptSubmit, HookPreToolUse, HookPermissionRequest,
		HookPostToolUse, HookPostToolUseFailure, HookNotification, HookStop, HookSubagentStart,
		HookSubagentStop, HookPreCompact, HookPostCompact, HookSessionEnd}
}

// CaptureEvents are the hook events the capture script records into the
// inbox: what a session did, not what it asked permission for.
func CaptureEvents() []string {
	return []string{HookPostToolUse, HookPostToolUseFailure, HookUserPromptSubmit, HookStop,
		HookSubagentStop, HookPreCompact, HookPostCompact, HookSessionEnd}
}

// HookEventName turns session-start, session_start or sessionstart into
// SessionStart; a name it does not know is returned as it is.
func HookEventName(arg string) string {
	key := strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(arg))
	for _, ev := range HookEvents() {
		if strings.ToLower(ev) == key {
			return ev
		}
	}
	return arg
}
