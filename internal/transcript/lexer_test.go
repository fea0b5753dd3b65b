package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/transcript/jsonlex"
)

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
	lx := jsonlex.New(line)
	readClaude(&lx, &got, &soft)
	if lx.End(); lx.Err() != nil {
		t.Fatalf("lexer rejects valid JSON %s: %v", line, lx.Err())
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

// FuzzClaudeDecoder checks the lexer-based decoder against encoding/json
// on any JSON object (jsonlex's own fuzz target checks the lexer).
func FuzzClaudeDecoder(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x\"",{"b":null}]}`, `{"type":"user","message":{"content":[{"type":"text","text":"hi"}]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if json.Valid(data) && isObject(data) && !caseVariants(data) {
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
