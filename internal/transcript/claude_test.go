package transcript

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// line builds a Claude Code transcript line of session s1.
func line(typ, uuid, parent string, rest string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	return fmt.Sprintf(`{"parentUuid":%s,"isSidechain":false,"cwd":"/p","sessionId":"s1","type":%q,"uuid":%q,"timestamp":"2025-01-02T03:04:05.000Z"%s}`, p, typ, uuid, rest)
}

func user(uuid, parent, content string) string {
	return line("user", uuid, parent, `,"message":{"role":"user","content":`+content+`}`)
}

func asst(uuid, parent, msgID, block string, out int) string {
	return line("assistant", uuid, parent, fmt.Sprintf(`,"message":{"id":%q,"model":"m","role":"assistant","content":[%s],"usage":{"input_tokens":5,"output_tokens":%d}}`, msgID, block, out))
}

func lines(ls ...string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }

// kinds renders events compactly: kind, and text or tool.
func kinds(evs []Event) string {
	var out []string
	for _, e := range evs {
		s := string(e.Kind)
		switch {
		case e.Call != nil:
			s += "(" + e.Call.Summary + ")"
		case e.Result != nil:
			s += "(" + e.Result.ToolUseID + ":" + e.Result.Name + ")"
		case e.Text != "":
			s += "(" + e.Text + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestClaude(t *testing.T) {
	t.Parallel()
	prompt := user("u1", "", `"fix it"`)
	call := asst("a1", "u1", "msg1", `{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"make"}}`, 10)
	result := user("r1", "a1", `[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]`)
	reply := asst("z9", "r1", "msg2", `{"type":"text","text":"done"}`, 3)
	tests := []struct {
		name     string
		data     string
		opts     Options
		want     string // kinds(Events)
		consumed int    // -1: all of data
		errs     []string
	}{
		{
			name: "half-written last line is held back",
			data: string(lines(prompt)) + call[:40],
			want: "session_start user_prompt(fix it)", consumed: len(prompt) + 1,
		},
		{
			name: "Final takes a last line without newline if it is whole",
			data: string(lines(prompt)) + user("u2", "u1", `"more"`), opts: Options{Final: true},
			want: "session_start user_prompt(fix it) user_prompt(more)", consumed: -1,
		},
		{
			name: "Final leaves a cut last line",
			data: string(lines(prompt)) + call[:40], opts: Options{Final: true},
			want: "session_start user_prompt(fix it)", consumed: len(prompt) + 1,
		},
		{
			name: "a tool call waiting for its result is held back",
			data: string(lines(prompt, call)),
			want: "session_start user_prompt(fix it)", consumed: len(prompt) + 1,
		},
		{
			name: "a message that may continue is held back; Final takes it",
			data: string(lines(prompt, call, result, reply)), opts: Options{Final: true},
			want: "session_start user_prompt(fix it) tool_call(Bash: make) tool_result(t1:Bash) assistant_text(done)", consumed: -1,
		},
		{
			name: "a new prompt ends the turn: a call never answered does not hold back",
			data: string(lines(prompt, call, user("u2", "a1", `"never mind"`))),
			want: "session_start user_prompt(fix it) tool_call(Bash: make) user_prompt(never mind)", consumed: -1,
		},
		{
			name: "a stop reason closes the message",
			data: string(lines(prompt, strings.Replace(reply, `"usage"`, `"stop_reason":"end_turn","usage"`, 1))),
			want: "session_start user_prompt(fix it) assistant_text(done)", consumed: -1,
		},
		{
			name: "the lines of one message merge: adjacent text joins",
			data: string(lines(prompt,
				asst("a1", "u1", "msg1", `{"type":"thinking","thinking":"hmm","signature":"x"}`, 1),
				asst("a2", "a1", "msg1", `{"type":"text","text":"one"}`, 2),
				asst("a3", "a2", "msg1", `{"type":"text","text":"two"}`, 9),
				asst("a4", "a3", "msg1", `{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/p/x.go"}}`, 12),
				result, reply)), opts: Options{Final: true},
			want: "session_start user_prompt(fix it) assistant_text(one\n\ntwo) tool_call(Read: x.go) tool_result(t1:Read) assistant_text(done)", consumed: -1,
		},
		{
			name: "results pair by id, not by order",
			data: string(lines(prompt,
				asst("a1", "u1", "msg1", `{"type":"tool_use","id":"tA","name":"Read","input":{"file_path":"/p/a"}}`, 1),
				asst("a2", "a1", "msg1", `{"type":"tool_use","id":"tB","name":"Grep","input":{"pattern":"b"}}`, 1),
				user("r1", "a2", `[{"type":"tool_result","tool_use_id":"tB","content":"b"}]`),
				user("r2", "r1", `[{"type":"tool_result","tool_use_id":"tA","content":"a"}]`),
				reply)), opts: Options{Final: true},
			want: "session_start user_prompt(fix it) tool_call(Read: a) tool_call(Grep: b) tool_result(tB:Grep) tool_result(tA:Read) assistant_text(done)", consumed: -1,
		},
		{
			name: "meta lines, reminders, command output and unknown types are skipped",
			data: string(lines(
				line("user", "m0", "", `,"isMeta":true,"message":{"role":"user","content":"<local-command-caveat>Caveat</local-command-caveat>"}`),
				`{"type":"file-history-snapshot","messageId":"x","snapshot":{}}`,
				`{"type":"something-new","uuid":"n1","whatever":[1,{"a":null}]}`,
				user("u1", "m0", `"<system-reminder>be careful</system-reminder>"`),
				user("u2", "u1", `"<local-command-stdout>done</local-command-stdout>"`),
				user("u3", "u2", `[{"type":"text","text":"<system-reminder>r</system-reminder>"},{"type":"text","text":"real words"}]`),
			)),
			want: "session_start user_prompt(real words)", consumed: -1,
		},
		{
			name: "slash commands are commands, not prompts",
			data: string(lines(user("u1", "", `"<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args>keep decisions</command-args>"`))),
			want: "session_start command(/compact keep decisions)", consumed: -1,
		},
		{
			// As Claude Code 2.0 writes /cost and /clear: the command, its
			// caveat (isMeta) and its output as user lines.
			name: "/cost and /clear with their output are no prompts",
			data: string(lines(prompt,
				line("user", "m1", "u1", `,"isMeta":true,"message":{"role":"user","content":"<local-command-caveat>Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to.</local-command-caveat>"}`),
				user("c1", "m1", `"<command-name>/cost</command-name>\n            <command-message>cost</command-message>\n            <command-args></command-args>"`),
				user("o1", "c1", `"<local-command-stdout>Total cost:            $0.0421\nTotal duration (API):  12.3s</local-command-stdout>"`),
				user("c2", "o1", `"<command-name>/clear</command-name>\n            <command-message>clear</command-message>\n            <command-args></command-args>"`),
				user("o2", "c2", `"<local-command-stdout></local-command-stdout>"`),
				user("u2", "o2", `"now the real question"`),
			)),
			want: "session_start user_prompt(fix it) command(/cost) command(/clear) user_prompt(now the real question)", consumed: -1,
		},
		{
			name: "malformed lines are reported with file:line and skipped",
			data: string(lines(prompt, `{"type":"user",`, `42`, user("u2", "u1", `"after"`))), opts: Options{Name: "s.jsonl"},
			want: "session_start user_prompt(fix it) user_prompt(after)", consumed: -1,
			errs: []string{"s.jsonl:2: invalid JSON: unexpected end of JSON input", "s.jsonl:3: not a JSON object"},
		},
		{
			name: "errors say the offset when the line number is unknown",
			data: string(lines(`{oops`)), opts: Options{Name: "s.jsonl", Offset: 100},
			consumed: -1,
			errs:     []string{"s.jsonl: at offset 100: invalid JSON: invalid character 'o' looking for beginning of object key string at column 2"},
		},
		{
			name: "a duplicate uuid is read once",
			data: string(lines(prompt, prompt)),
			want: "session_start user_prompt(fix it)", consumed: -1,
		},
		{
			name: "a field of an unexpected type is reported, the line still used",
			data: string(lines(strings.Replace(prompt, `"isSidechain":false`, `"isSidechain":"no"`, 1))), opts: Options{Name: "s"},
			want: "session_start user_prompt(fix it)", consumed: -1,
			errs: []string{"s:1: field isSidechain is not a boolean"},
		},
		{
			name: "an unsafe session id is reported and replaced",
			data: string(lines(strings.Replace(prompt, `"sessionId":"s1"`, `"sessionId":"../../x"`, 1))), opts: Options{Name: "s", SessionID: "fallback"},
			want: "session_start user_prompt(fix it)", consumed: -1,
			errs: []string{`s:1: session id "../../x" starts with ".": invalid session id`},
		},
		{
			name: "CRLF line ends",
			data: strings.ReplaceAll(string(lines(prompt, user("u2", "u1", `"two"`))), "\n", "\r\n"),
			want: "session_start user_prompt(fix it) user_prompt(two)", consumed: -1,
		},
		{
			name: "text typed while tools ran is a prompt that does not end the turn",
			data: string(lines(prompt, call, user("r1", "a1", `[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"text","text":"also lint"}]`))), opts: Options{Final: true},
			want: "session_start user_prompt(fix it) tool_call(Bash: make) tool_result(t1:Bash) user_prompt(also lint)", consumed: -1,
		},
		{
			name: "a result whose call is not in the range stays unpaired",
			data: string(lines(user("r1", "a1", `[{"type":"tool_result","tool_use_id":"t9","content":"Exit code 3\nboom","is_error":true}]`))),
			want: "tool_result(t9:)", consumed: -1,
		},
		{
			name: "empty input",
			data: "", want: "", consumed: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ParseClaude([]byte(tt.data), tt.opts)
			if got := kinds(p.Events); got != tt.want {
				t.Errorf("events:\n got %s\nwant %s", got, tt.want)
			}
			want := int64(tt.consumed)
			if tt.consumed < 0 {
				want = int64(len(tt.data))
			}
			want += tt.opts.Offset
			if p.Consumed != want {
				t.Errorf("consumed %d, want %d", p.Consumed, want)
			}
			var errs []string
			for _, e := range p.Errors {
				errs = append(errs, e.Error())
			}
			if strings.Join(errs, "\n") != strings.Join(tt.errs, "\n") {
				t.Errorf("errors:\n got %q\nwant %q", errs, tt.errs)
			}
		})
	}
}

func TestClaudeDetails(t *testing.T) {
	t.Parallel()
	data := lines(
		user("u1", "", `"go"`),
		asst("a1", "u1", "msg1", `{"type":"text","text":"running"}`, 4),
		asst("a2", "a1", "msg1", `{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"go test ./...\ngo vet ./..."}}`, 40),
		line("user", "r1", "a2", `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"Exit code 1\nFAIL\n<system-reminder>x</system-reminder>","is_error":true}]},"toolUseResult":{"stdout":"","stderr":"FAIL","interrupted":true}`),
		line("system", "c1", "", `,"subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":1234}`),
		line("user", "c2", "c1", `,"isCompactSummary":true,"message":{"role":"user","content":"Summary: we ran tests."}`),
		line("user", "s1", "", `,"isSidechain":true,"agentId":"ag1","message":{"role":"user","content":"search"}`),
	)
	p := ParseClaude(data, Options{Final: true})
	if len(p.Errors) > 0 {
		t.Fatal(p.Errors[0])
	}
	ev := p.Events
	if got := kinds(ev); got != "session_start user_prompt(go) assistant_text(running) tool_call(Bash: go test ./... …) tool_result(t1:Bash) compaction compact_summary(Summary: we ran tests.)" {
		t.Fatalf("events: %s", got)
	}
	// usage once per message, the largest count
	var total int64
	for _, e := range ev {
		if e.Usage != nil {
			total += e.Usage.Output
		}
	}
	if total != 40 || ev[2].Usage == nil || ev[2].MessageID != "msg1" || ev[3].Model != "m" {
		t.Errorf("usage total %d on %+v, want 40 on the message's first event", total, ev[2].Usage)
	}
	r := ev[4].Result
	if !r.IsError || r.ExitCode == nil || *r.ExitCode != 1 || !r.Interrupted || r.Output != "Exit code 1\nFAIL" {
		t.Errorf("result = %+v (output %q)", r, r.Output)
	}
	if ev[5].Trigger != "auto" || ev[5].PreTokens != 1234 {
		t.Errorf("compaction = %+v", ev[5])
	}
	if ev[4].ParentUUID != "a2" || ev[0].ParentUUID != "" || ev[0].SessionID != "s1" || ev[0].CWD != "/p" || ev[0].Time.IsZero() {
		t.Errorf("meta = %+v / %+v", ev[4].Meta, ev[0].Meta)
	}
	if len(p.Sidechain) != 1 || !p.Sidechain[0].Sidechain || p.Sidechain[0].AgentID != "ag1" || p.Sidechain[0].Text != "search" {
		t.Errorf("sidechain = %+v", p.Sidechain)
	}
	ids := map[string]bool{}
	for _, e := range append(ev, p.Sidechain...) {
		if ids[e.ID] {
			t.Errorf("duplicate event id %s", e.ID)
		}
		ids[e.ID] = true
	}
}

func TestLineErrorUnwraps(t *testing.T) {
	t.Parallel()
	p := ParseClaude(lines(strings.Replace(user("u1", "", `"x"`), `"s1"`, `"a/b"`, 1)), Options{})
	if len(p.Errors) != 1 || !errors.Is(p.Errors[0], ErrInvalidSessionID) {
		t.Fatalf("errors = %v", p.Errors)
	}
}
