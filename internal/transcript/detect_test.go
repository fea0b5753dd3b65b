package transcript

import (
	"errors"
	"testing"
)

func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, head string
		want       Format
	}{
		{"notes.md", "anything", FormatMarkdown},
		{"NOTES.MARKDOWN", "", FormatMarkdown},
		{"s.jsonl", `{"type":"summary","summary":"x","leafUuid":"u"}` + "\n", FormatClaude},
		{"s.jsonl", `{"type":"file-history-snapshot","messageId":"m","snapshot":{}}` + "\n" + `{"parentUuid":null,"sessionId":"s"}`, FormatClaude},
		{"s", `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"` + repeat("long ", 100), FormatClaude},
		{"r.jsonl", `{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}` + "\n", FormatCodex},
		{"r.jsonl", `{"timestamp":"2025-01-01T00:00:00Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"` + repeat("x", 50), FormatCodex},
		{"c.jsonl", `{"role":"user","content":"hi","timestamp":"2025-01-01T00:00:00Z"}` + "\n", FormatChat},
		{"c.jsonl", "\n\n" + `{"role":"assistant","content":[{"type":"text","text":"hi"}]}`, FormatChat},
		{"log.txt", "# Chat\n\n## User\nhello\n", FormatMarkdown},
		{"log.txt", "**User:** hello\n", FormatMarkdown},
		{"log.txt", "## 2025-03-09\n**Maya:** hello\n", FormatMarkdown},
		{"d.jsonl", `{"speaker":"Maya","text":"hi","session":1,"date":"2025-03-09"}` + "\n", FormatChat},
		{"d.jsonl", `{"speaker":"Maya","dia_id":"D1:1","text":"` + repeat("long ", 100), FormatChat},
	}
	for _, tt := range tests {
		got, err := Detect(tt.name, []byte(tt.head))
		if err != nil || got != tt.want {
			t.Errorf("Detect(%q, %.40q) = %q, %v; want %q", tt.name, tt.head, got, err, tt.want)
		}
	}
	for _, head := range []string{"", "hello world\n", `{"a":1}` + "\n", "\x00\x01binary", `["x"]`, "Maya: hi\nTom: hello\n"} {
		if f, err := Detect("x.jsonl", []byte(head)); !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("Detect(%q) = %q, %v; want ErrUnknownFormat", head, f, err)
		}
	}
	if _, err := Parse("gemini", nil, Options{}); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("Parse(gemini) error = %v, want ErrUnknownFormat", err)
	}
}
