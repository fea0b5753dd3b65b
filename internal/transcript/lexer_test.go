package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
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
		lx := lexer{b: []byte(s)}
		lx.skip()
		lx.end()
		if lx.err != nil {
			t.Errorf("skip(%s): %v", s, lx.err)
		}
	}
	invalid := []string{
		``, `{`, `[1,`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1 2]`, `"abc`, `"abc\"`, `tru`, `nul`, `{a:1}`, `]`, `}`, `{"a":1}}`, `[}`, `{"a":1]`,
	}
	for _, s := range invalid {
		lx := lexer{b: []byte(s)}
		lx.skip()
		lx.end()
		if lx.err == nil {
			t.Errorf("skip(%q) accepted invalid JSON", s)
		}
	}
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	lx := lexer{b: []byte(deep)}
	if lx.skip(); lx.err == nil || !strings.Contains(lx.err.Error(), "nested too deeply") {
		t.Errorf("skip of %d nested arrays: %v", maxDepth+1, lx.err)
	}
	for _, s := range []string{`"plain"`, `"esc\"aped\\"`, `"\u00e9t\u00e9"`, `"\ud83d\ude00 pair"`, `"\ud83d lone"`, "\"bad \xff utf8\""} {
		var want string
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatal(err)
		}
		lx := lexer{b: []byte(s)}
		if got, ok := lx.str(); !ok || got != want {
			t.Errorf("str(%s) = %q, %v; want %q", s, got, ok, want)
		}
	}
}

// TestClaudeDecoderAgrees checks the lexer-based decoder against
// encoding/json on every line of the Claude Code fixtures.
func TestClaudeDecoderAgrees(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(fixtures, "claude", "*.jsonl"))
	n := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for line := range bytes.Lines(data) {
			if !json.Valid(line) {
				continue
			}
			n++
			compareDecoders(t, line)
		}
	}
	if n < 50 {
		t.Fatalf("compared only %d lines", n)
	}
}

// refLine is a Claude Code line as encoding/json reads it.
type refLine struct {
	Type      string  `json:"type"`
	UUID      string  `json:"uuid"`
	Parent    *string `json:"parentUuid"`
	SessionID string  `json:"sessionId"`
	Timestamp string  `json:"timestamp"`
	Sidechain bool    `json:"isSidechain"`
	Message   struct {
		ID      string          `json:"id"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
		Usage   *Usage          `json:"usage"`
	} `json:"message"`
}

func compareDecoders(t *testing.T, line []byte) {
	t.Helper()
	var ref refLine
	if err := json.Unmarshal(line, &ref); err != nil {
		return // a type the reference does not take: nothing to compare
	}
	var got claudeLine
	var soft error
	lx := lexer{b: line}
	readClaude(&lx, &got, &soft)
	if lx.end(); lx.err != nil {
		t.Fatalf("lexer rejects valid JSON %s: %v", line, lx.err)
	}
	parent := ""
	if ref.Parent != nil {
		parent = *ref.Parent
	}
	if got.Type != ref.Type || got.UUID != ref.UUID || got.Parent != parent || got.SessionID != ref.SessionID ||
		got.Timestamp != ref.Timestamp || got.IsSidechain != ref.Sidechain ||
		got.Message.ID != ref.Message.ID || got.Message.Model != ref.Message.Model {
		t.Fatalf("line %s\nlexer %+v\n json %+v", line, got, ref)
	}
	if (ref.Message.Usage == nil) != (got.Message.Usage == nil) || ref.Message.Usage != nil && *ref.Message.Usage != *got.Message.Usage {
		t.Fatalf("usage of %s: lexer %+v, json %+v", line, got.Message.Usage, ref.Message.Usage)
	}
	c := ref.Message.Content
	switch {
	case len(c) > 0 && c[0] == '"':
		var s string
		_ = json.Unmarshal(c, &s)
		if !got.Message.IsText || got.Message.Text != s {
			t.Fatalf("content of %s: lexer %q, json %q", line, got.Message.Text, s)
		}
	case len(c) > 0 && c[0] == '[':
		var blocks []struct {
			Type      string          `json:"type"`
			Text      string          `json:"text"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Input     json.RawMessage `json:"input"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
			IsError   bool            `json:"is_error"`
		}
		if json.Unmarshal(c, &blocks) != nil {
			return
		}
		if len(blocks) != len(got.Message.Blocks) {
			t.Fatalf("blocks of %s: lexer %d, json %d", line, len(got.Message.Blocks), len(blocks))
		}
		for i, b := range blocks {
			g := got.Message.Blocks[i]
			text, _ := contentText(b.Content)
			if g.Type != b.Type || g.Text != b.Text || g.ID != b.ID || g.Name != b.Name || g.ToolUseID != b.ToolUseID ||
				g.IsError != b.IsError || !bytes.Equal(g.Input, b.Input) || g.Content != text {
				t.Fatalf("block %d of %s:\nlexer %+v\n json %+v", i, line, g, b)
			}
		}
	}
}

func FuzzLexer(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x\"",{"b":null}]}`, `"\ud83d\ude00"`, `[[]]`, `-0.5e3`, `{"type":"user","message":{"content":[{"type":"text","text":"hi"}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := json.Valid(data)
		lx := lexer{b: data}
		lx.skip()
		lx.end()
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
			lx := lexer{b: data}
			if got, ok := lx.str(); !ok || got != want {
				panic("str differs from encoding/json: " + got + " vs " + want)
			}
		}
		if isObject(data) && !caseVariants(data) {
			compareDecoders(t, data)
		}
	})
}

// caseVariants reports whether data has a key that encoding/json would
// match to a field of refLine though its case differs: json ignores case in
// keys, the transcript format does not.
func caseVariants(data []byte) bool {
	lower := bytes.ToLower(data)
	for _, k := range []string{"type", "uuid", "parentUuid", "sessionId", "timestamp", "isSidechain", "message", "id", "model",
		"content", "usage", "text", "name", "input", "tool_use_id", "is_error", "input_tokens", "output_tokens",
		"cache_creation_input_tokens", "cache_read_input_tokens"} {
		if bytes.Count(lower, []byte(`"`+strings.ToLower(k)+`"`)) != bytes.Count(data, []byte(`"`+k+`"`)) {
			return true
		}
	}
	return false
}
