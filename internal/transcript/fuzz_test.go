package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// seed adds the fixtures of a format, whole and cut, to a fuzz corpus.
func seed(f *testing.F, dir string, extra ...string) {
	f.Helper()
	files, _ := filepath.Glob(filepath.Join(fixtures, dir, "*"))
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint16(len(data)/2), true)
		f.Add(data[:len(data)/3], uint16(17), false)
	}
	for _, s := range extra {
		f.Add([]byte(s), uint16(len(s)/2), false)
	}
}

// checkParse holds what must be true of any parse of any input.
func checkParse(t *testing.T, parse func([]byte, Options) *Parsed, data []byte, split uint16, final bool) {
	base := int64(0) // where a Markdown front matter is read
	if split%2 == 1 {
		base = 1000
	}
	opts := Options{Name: "fuzz", Offset: base, Line: 1, Final: final}
	p := parse(data, opts)
	c := p.Consumed - base
	if c < 0 || c > int64(len(data)) {
		t.Fatalf("consumed %d outside the input [%d, %d]", p.Consumed, base, base+int64(len(data)))
	}
	if c > 0 && data[c-1] != '\n' && !(final && c == int64(len(data))) {
		t.Fatalf("consumed %d is not at a line boundary", p.Consumed)
	}
	if n := bytes.Count(data[:c], []byte("\n")); p.Lines != n && p.Lines != n+1 {
		t.Fatalf("took %d lines of %d bytes holding %d newlines", p.Lines, c, n)
	}
	for _, evs := range [][]Event{p.Events, p.Sidechain} {
		for _, e := range evs {
			if e.Offset < base || e.Offset >= p.Consumed {
				t.Fatalf("event at %d outside the range taken [%d, %d)", e.Offset, base, p.Consumed)
			}
			if e.SessionID != "" && ValidateSessionID(e.SessionID) != nil {
				t.Fatalf("event with unsafe session id %q", e.SessionID)
			}
		}
		if _, err := json.Marshal(evs); err != nil {
			t.Fatalf("events do not marshal: %v", err)
		}
	}
	for _, e := range p.Errors {
		if e.Offset < base || e.Offset >= p.Consumed || e.Error() == "" {
			t.Fatalf("error %v at %d outside the range taken", e, e.Offset)
		}
	}
	if again := parse(data, opts); !reflect.DeepEqual(p, again) {
		t.Fatal("two parses of the same range differ")
	}
	// Resuming from where a parse of a prefix stopped takes as much.
	k := int(split) % (len(data) + 1)
	first := parse(data[:k], Options{Offset: base})
	fc := first.Consumed - base
	rest := parse(data[fc:], Options{Offset: first.Consumed, Final: final})
	if rest.Consumed != p.Consumed || first.Lines+rest.Lines != p.Lines {
		t.Fatalf("resumed at %d: took up to %d (%d lines), one pass %d (%d lines)",
			first.Consumed, rest.Consumed, first.Lines+rest.Lines, p.Consumed, p.Lines)
	}
}

func FuzzClaude(f *testing.F) {
	seed(f, "claude",
		`{"type":"user","uuid":"u","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"<system-reminder>x"}}`+"\n",
		`{"type":"assistant","uuid":"a","message":{"id":"m","content":"str","usage":{"output_tokens":1}}}`+"\n"+`{"type":"assistant","uuid":"b","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":1}]}}`,
		`{"type":"user","uuid":"u","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"image"}],"is_error":true}]},"toolUseResult":"Error"}`+"\r\n",
		"{\"type\":\"system\",\"subtype\":\"compact_boundary\",\"compactMetadata\":null}\n\n\n{",
	)
	f.Fuzz(func(t *testing.T, data []byte, split uint16, final bool) {
		checkParse(t, ParseClaude, data, split, final)
	})
}

func FuzzCodex(f *testing.F) {
	seed(f, "codex",
		`{"type":"session_meta","payload":{"id":"../x","git":null}}`+"\n",
		`{"type":"response_item","payload":{"type":"function_call","arguments":"{\"command\":[\"bash\",\"-lc\"]}","call_id":"c"}}`+"\n"+`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":{"content":1}}}`,
		`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"a"},{"type":"input_image"},7]}}`+"\n"+`{"type":"compacted","payload":{"message":"m","replacement_history":[{"type":"message"}]}}`,
	)
	f.Fuzz(func(t *testing.T, data []byte, split uint16, final bool) {
		checkParse(t, ParseCodex, data, split, final)
	})
}

func FuzzChat(f *testing.F) {
	seed(f, "chat",
		`{"role":"assistant","tool_calls":[{"id":"","function":{"arguments":"[1"}}],"timestamp":1e300}`+"\n",
		`{"role":"tool","content":[{"type":"text","text":"x"}],"session_id":"a/b"}`,
		`{"speaker":"Maya","dia_id":"D3:1","text":"hi","date":"1:56 pm on 8 May, 2023"}`+"\n"+`{"name":"Tom","session":"x9","message":"yo","time":1e20}`+"\n",
		`{"author":"User","session":[1],"content":[{"type":"text","text":"x"}],"date":"2025-02-30"}`,
	)
	f.Fuzz(func(t *testing.T, data []byte, split uint16, final bool) {
		checkParse(t, ParseChat, data, split, final)
	})
}

func FuzzMarkdown(f *testing.F) {
	seed(f, "markdown",
		"---\nsession: ../../x\n---\n## User\n```\n## Assistant\n",
		"**User (2025-01-01T00:00:00Z):** hi\n~~~\n**Assistant:** no\n",
		"<!-- speakers: Tom, User -->\n## Session 2 — 2025-03-09 25:99\nMaya: hi\n**Tom (x):** yo\n### March 9, 2025\n## Assistant\nNote: x\n",
		"## 9 Feb 2025 at 12:00 am\n**Ana Lu**: a\n```\nBen: b\n```\n## Session 0\nBen: c\n",
	)
	f.Fuzz(func(t *testing.T, data []byte, split uint16, final bool) {
		checkParse(t, ParseMarkdown, data, split, final)
	})
}

func FuzzHook(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(hookFixtures, "*", "*.json"))
	more, _ := filepath.Glob(filepath.Join(hookFixtures, "*.json"))
	for _, path := range append(files, more...) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"hook_event_name":"PostToolUse","session_id":"s","tool_response":[1],"tool_input":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := ParseHook(data)
		if err != nil {
			if h != nil {
				t.Fatal("a hook and an error")
			}
			return
		}
		if err := ValidateSessionID(h.SessionID); err != nil {
			t.Fatalf("accepted a hook with %v", err)
		}
		evs := h.Events()
		if _, err := json.Marshal(evs); err != nil {
			t.Fatalf("events do not marshal: %v", err)
		}
	})
}
