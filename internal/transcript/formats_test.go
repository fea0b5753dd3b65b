package transcript

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCodexOutput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw, out string
		exit     int // -1: nil
		isErr    bool
	}{
		{`"{\"output\":\"boom\\n\",\"metadata\":{\"exit_code\":2,\"duration_seconds\":0.1}}"`, "boom\n", 2, true},
		{`"{\"output\":\"ok\",\"metadata\":{\"exit_code\":0}}"`, "ok", 0, false},
		{`"Exit code: 1\nWall time: 0.2 seconds\nOutput:\nno"`, "Exit code: 1\nWall time: 0.2 seconds\nOutput:\nno", 1, true},
		{`"Process exited with code 0\nOutput:\nfine"`, "Process exited with code 0\nOutput:\nfine", 0, false},
		{`"plain text"`, "plain text", -1, false},
		{`"{not json"`, "{not json", -1, false},
		{`{"content":"denied","success":false}`, "denied", -1, true},
		{`42`, "42", -1, false},
	}
	for _, tt := range tests {
		out, exit, isErr := codexOutput(json.RawMessage(tt.raw))
		if out != tt.out || isErr != tt.isErr || (exit == nil) != (tt.exit == -1) || exit != nil && *exit != tt.exit {
			t.Errorf("codexOutput(%s) = %q, %v, %v; want %q, %d, %v", tt.raw, out, exit, isErr, tt.out, tt.exit, tt.isErr)
		}
	}
}

func TestCodexMidFile(t *testing.T) {
	t.Parallel()
	data := []byte(`{"timestamp":"2025-12-02T15:21:02.100Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Fix it."}]}}` + "\n" +
		`{"timestamp":"2025-12-02T15:21:03.100Z","type":"response_item","payload":{"type":"message","role":"developer","content":[{"type":"input_text","text":"rules"}]}}` + "\n" +
		`{"timestamp":"2025-12-02T15:21:04.100Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c0","output":"late"}}` + "\n")
	p := ParseCodex(data, Options{Offset: 5000, SessionID: "sess-1"})
	if got := kinds(p.Events); got != "user_prompt(Fix it.) tool_result(c0:)" {
		t.Fatalf("events: %s", got)
	}
	if p.Events[0].SessionID != "sess-1" || p.Events[0].ID != "@5000" || p.Consumed != 5000+int64(len(data)) {
		t.Errorf("event %+v, consumed %d", p.Events[0], p.Consumed)
	}
}

func TestChat(t *testing.T) {
	t.Parallel()
	data := `{"role":"user","content":"a","timestamp":1700000000}
{"role":"assistant","content":"b","timestamp":1700000000123}
{"role":"assistant","content":"","tool_calls":[{"id":"c1","function":{"name":"f","arguments":"{\"path\":\"x\"}"}}]}
{"role":"user","content":"interrupting"}
{"role":"tool","tool_call_id":"c1","content":"late"}
{"role":"robot","content":"?"}
{"content":"no role"}
`
	p := ParseChat([]byte(data), Options{Name: "c.jsonl", SessionID: "s"})
	if got := kinds(p.Events); got != "user_prompt(a) assistant_text(b) tool_call(f: x) user_prompt(interrupting) tool_result(c1:)" {
		t.Errorf("events: %s", got)
	}
	if got := p.Events[0].Time.Unix(); got != 1700000000 {
		t.Errorf("time of seconds = %d", got)
	}
	if got := p.Events[1].Time.UnixMilli(); got != 1700000000123 {
		t.Errorf("time of milliseconds = %d", got)
	}
	if len(p.Errors) != 1 || !strings.Contains(p.Errors[0].Error(), `c.jsonl:7: not a chat message: no "role"`) {
		t.Errorf("errors = %v", p.Errors)
	}
}

func TestMarkdown(t *testing.T) {
	t.Parallel()
	data := "## User\nhello\n\n## Assistant\nhi\n\n## Us"
	tail := ParseMarkdown([]byte(data), Options{})
	if got := kinds(tail.Events); got != "user_prompt(hello)" {
		t.Errorf("tail events: %s", got)
	}
	if want := int64(strings.Index(data, "## Assistant")); tail.Consumed != want {
		t.Errorf("tail consumed %d, want %d (the start of the open section)", tail.Consumed, want)
	}
	final := ParseMarkdown([]byte(data), Options{Final: true})
	if got := kinds(final.Events); got != "user_prompt(hello) assistant_text(hi\n\n## Us)" {
		t.Errorf("final events: %s", got)
	}
	if final.Consumed != int64(len(data)) || final.Lines != 7 {
		t.Errorf("final consumed %d bytes, %d lines", final.Consumed, final.Lines)
	}
	// resuming at the held-back section gives the rest
	rest := ParseMarkdown([]byte(data[tail.Consumed:]), Options{Offset: tail.Consumed, Final: true})
	if got := kinds(rest.Events); got != "assistant_text(hi\n\n## Us)" || rest.Events[0].ID != final.Events[1].ID {
		t.Errorf("resumed events: %s", got)
	}
	for _, s := range []string{"**Human:** q\n**AI:** a\n", "# Human\nq\n# Claude\na\n", "### USER\nq\n### model (10:00)\na\n"} {
		if got := kinds(ParseMarkdown([]byte(s), Options{Final: true}).Events); got != "user_prompt(q) assistant_text(a)" {
			t.Errorf("ParseMarkdown(%q): %s", s, got)
		}
	}
}
