package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const hookFixtures = "../../testdata/hooks"

func TestHookGolden(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join(hookFixtures, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no hook payloads in %s (%v)", hookFixtures, err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			h, err := ParseHook(data)
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(struct {
				Hook   *Hook   `json:"hook"`
				Events []Event `json:"events"`
			}{h, h.Events()}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", "golden", "hooks", name)
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s (run go test -update and review the diff)\n%s", name, golden, firstDiff(string(want), string(got)))
			}
		})
	}
}

func TestHookBad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		is   error  // the error wraps this, if set
		says string // and says this
	}{
		{"malformed.json", nil, "hook payload is not valid JSON at byte"},
		{"not-an-object.json", nil, "not a JSON object"},
		{"unknown-event.json", ErrUnknownHook, `hook event "TeleportStart"`},
		{"no-event.json", ErrUnknownHook, "no hook_event_name"},
		{"traversal-session.json", ErrInvalidSessionID, `SessionStart hook: session id "../../../home/dev/.ssh" starts with "."`},
		{"no-session.json", ErrInvalidSessionID, "session id \"\" is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(hookFixtures, "bad", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			h, err := ParseHook(data)
			if err == nil {
				t.Fatalf("ParseHook = %+v, want an error", h)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %q does not wrap %q", err, tt.is)
			}
			if tt.is == nil && (errors.Is(err, ErrUnknownHook) || errors.Is(err, ErrInvalidSessionID)) {
				t.Errorf("error %q wraps a sentinel it should not", err)
			}
			if !strings.Contains(err.Error(), tt.says) {
				t.Errorf("error %q does not say %q", err, tt.says)
			}
		})
	}
}

func TestHookEvents(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		payload string
		kinds   []Kind
		check   func(t *testing.T, evs []Event)
	}{
		{
			name:    "bash failure keeps the exit code",
			payload: `{"hook_event_name":"PostToolUseFailure","session_id":"s1","tool_name":"Bash","tool_input":{"command":"make"},"tool_use_id":"t1","error":"Exit code 2\nmake: *** no rule"}`,
			kinds:   []Kind{KindToolCall, KindToolResult},
			check: func(t *testing.T, evs []Event) {
				r := evs[1].Result
				if !r.IsError || r.ExitCode == nil || *r.ExitCode != 2 || r.ToolUseID != "t1" || r.Summary != "Bash: make" {
					t.Errorf("result = %+v", r)
				}
			},
		},
		{
			name:    "bash success exits 0 and joins stdout and stderr",
			payload: `{"hook_event_name":"PostToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t2","tool_response":{"stdout":"a\nb\n","stderr":"warn","interrupted":false}}`,
			kinds:   []Kind{KindToolCall, KindToolResult},
			check: func(t *testing.T, evs []Event) {
				r := evs[1].Result
				if r.IsError || r.ExitCode == nil || *r.ExitCode != 0 || r.Output != "a\nb\n\nwarn" {
					t.Errorf("result = %+v (output %q)", r, r.Output)
				}
			},
		},
		{
			name:    "a tool response of another shape is kept as JSON",
			payload: `{"hook_event_name":"PostToolUse","session_id":"s1","tool_name":"Edit","tool_input":{"file_path":"/p/a.go"},"tool_response":{"filePath":"/p/a.go","structuredPatch":[]}}`,
			kinds:   []Kind{KindToolCall, KindToolResult},
			check: func(t *testing.T, evs []Event) {
				if got := evs[1].Result.Output; got != `{"filePath":"/p/a.go","structuredPatch":[]}` {
					t.Errorf("output = %q", got)
				}
			},
		},
		{
			name:    "prompt with a slash command",
			payload: `{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"<command-name>/review</command-name><command-args>queue</command-args>"}`,
			kinds:   []Kind{KindCommand},
			check: func(t *testing.T, evs []Event) {
				if evs[0].Command != "/review" || evs[0].Text != "/review queue" {
					t.Errorf("prompt = %q, command %q", evs[0].Text, evs[0].Command)
				}
			},
		},
		{
			name:    "a bare /word is a command",
			payload: `{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"/cost"}`,
			kinds:   []Kind{KindCommand},
			check: func(t *testing.T, evs []Event) {
				if evs[0].Command != "/cost" || evs[0].Text != "/cost" {
					t.Errorf("command = %q, text %q", evs[0].Command, evs[0].Text)
				}
			},
		},
		{
			name:    "a prompt that starts with a path is a prompt",
			payload: `{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"/tmp is full again, find out why"}`,
			kinds:   []Kind{KindUserPrompt},
		},
		{
			name:    "subagent stop is a sidechain stop",
			payload: `{"hook_event_name":"SubagentStop","session_id":"s1","agent_id":"a1","agent_type":"Explore","last_assistant_message":"done"}`,
			kinds:   []Kind{KindStop},
			check: func(t *testing.T, evs []Event) {
				if !evs[0].Sidechain || evs[0].AgentID != "a1" || evs[0].AgentType != "Explore" || evs[0].Text != "done" {
					t.Errorf("event = %+v", evs[0])
				}
			},
		},
		{
			name:    "unknown fields and a field of another type are tolerated",
			payload: `{"hook_event_name":"SessionEnd","session_id":"s1","reason":"other","duration_ms":"soon","new":{"x":[1]}}`,
			kinds:   []Kind{KindSessionEnd},
		},
		{
			name:    "notification gives no event",
			payload: `{"hook_event_name":"Notification","session_id":"s1","message":"waiting"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := ParseHook([]byte(tt.payload))
			if err != nil {
				t.Fatal(err)
			}
			evs := h.Events()
			var kinds []Kind
			for _, e := range evs {
				kinds = append(kinds, e.Kind)
				if e.SessionID != "s1" {
					t.Errorf("%s event has session %q", e.Kind, e.SessionID)
				}
			}
			if !equalKinds(kinds, tt.kinds) {
				t.Fatalf("kinds = %v, want %v", kinds, tt.kinds)
			}
			if tt.check != nil {
				tt.check(t, evs)
			}
		})
	}
}

func equalKinds(a, b []Kind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
