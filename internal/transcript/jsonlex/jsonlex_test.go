package jsonlex

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestLexer(t *testing.T) {
	t.Parallel()
	valid := []string{
		`{}`, `[]`, `""`, `0`, `-1.5e+10`, `true`, `false`, `null`,
		` {"a" : [1, {"b": null}, "x\"y\\"], "c":{}} `,
		`"\u00e9\ud83d\ude00\n\t\/"`,
		`[[[[[]]]]]`,
	}
	for _, s := range valid {
		lx := Lexer{b: []byte(s)}
		lx.Skip()
		lx.End()
		if lx.err != nil {
			t.Errorf("skip(%s): %v", s, lx.err)
		}
	}
	invalid := []string{
		``, `{`, `[1,`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1 2]`, `"abc`, `"abc\"`, `tru`, `nul`, `{a:1}`, `]`, `}`, `{"a":1}}`, `[}`, `{"a":1]`,
	}
	for _, s := range invalid {
		lx := Lexer{b: []byte(s)}
		lx.Skip()
		lx.End()
		if lx.err == nil {
			t.Errorf("skip(%q) accepted invalid JSON", s)
		}
	}
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	lx := Lexer{b: []byte(deep)}
	if lx.Skip(); lx.err == nil || !strings.Contains(lx.err.Error(), "nested too deeply") {
		t.Errorf("skip of %d nested arrays: %v", maxDepth+1, lx.err)
	}
	for _, s := range []string{`"plain"`, `"esc\"aped\\"`, `"\u00e9t\u00e9"`, `"\ud83d\ude00 pair"`, `"\ud83d lone"`, "\"bad \xff utf8\""} {
		var want string
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatal(err)
		}
		lx := Lexer{b: []byte(s)}
		if got, ok := lx.Str(); !ok || got != want {
			t.Errorf("str(%s) = %q, %v; want %q", s, got, ok, want)
		}
	}
}

func FuzzLexer(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x\"",{"b":null}]}`, `"\ud83d\ude00"`, `[[]]`, `-0.5e3`, `{"type":"user","message":{"content":[{"type":"text","text":"hi"}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := json.Valid(data)
		lx := Lexer{b: data}
		lx.Skip()
		lx.End()
		if valid && lx.err != nil {
			t.Fatalf("skip rejects valid JSON: %v", lx.err)
		}
		if lx.i > len(data) {
			t.Fatalf("moved to %d past the end %d", lx.i, len(data))
		}
		if !valid {
			return
		}
		if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '"' {
			var want string
			_ = json.Unmarshal(data, &want)
			lx := Lexer{b: data}
			if got, ok := lx.Str(); !ok || got != want {
				panic("str differs from encoding/json: " + got + " vs " + want)
			}
		}
	})
}
