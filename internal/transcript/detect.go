package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// Detect tells the format of a transcript from its file name and its first
// bytes (a few kilobytes are enough; the last line may be cut short).
// Markdown is known by its extension (.md, .markdown) or by a role marker
// or a bold speaker ("**Maya:**") near the start; the JSONL formats by the
// fields of their first lines (chat by "role" and "content", or by
// "speaker" and "text" for a dialogue).
func Detect(name string, head []byte) (Format, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown":
		return FormatMarkdown, nil
	}
	if isGemini(head) {
		return FormatGemini, nil
	}
	lines := bytes.Split(head, []byte("\n"))
	for i, line := range lines {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if line[0] != '{' {
			break
		}
		var probe struct {
			Type       string          `json:"type"`
			Payload    json.RawMessage `json:"payload"`
			Role       json.RawMessage `json:"role"`
			Content    json.RawMessage `json:"content"`
			SessionID  json.RawMessage `json:"sessionId"`
			ParentUUID json.RawMessage `json:"parentUuid"`
			Speaker    json.RawMessage `json:"speaker"`
			Text       json.RawMessage `json:"text"`
		}
		if err := json.Unmarshal(line, &probe); err != nil {
			if _, ok := err.(*json.UnmarshalTypeError); !ok {
				if i == len(lines)-1 {
					if f, ok := detectPrefix(line); ok {
						return f, nil // the last line is cut short
					}
				}
				continue
			}
		}
		switch {
		case probe.Payload != nil && codexTypes[probe.Type]:
			return FormatCodex, nil
		case probe.SessionID != nil || probe.ParentUUID != nil || claudeTypes[probe.Type]:
			return FormatClaude, nil
		case probe.Role != nil && probe.Content != nil:
			return FormatChat, nil
		case probe.Speaker != nil && (probe.Text != nil || probe.Content != nil):
			return FormatChat, nil // a dialogue between people
		}
		if i >= 20 {
			break
		}
	}
	for _, line := range lines {
		l := string(bytes.TrimRight(line, "\r"))
		if _, _, _, ok := mdMarker(l); ok {
			return FormatMarkdown, nil
		}
		// A bold name is Markdown's; "Maya: hi" alone could be any text.
		if _, _, ok := dialogueMarker(l); ok && strings.HasPrefix(l, "**") {
			return FormatMarkdown, nil
		}
	}
	return "", fmt.Errorf("detect format of %s: %w", firstOf(name, "transcript"), ErrUnknownFormat)
}

var (
	codexTypes  = map[string]bool{"session_meta": true, "response_item": true, "turn_context": true, "event_msg": true, "compacted": true}
	claudeTypes = map[string]bool{"user": true, "assistant": true, "system": true, "summary": true, "file-history-snapshot": true, "queue-operation": true, "progress": true, "custom-title": true, "ai-title": true}
)

// isGemini reports whether head starts a Gemini CLI chat: its first line
// is the metadata {sessionId, projectHash, ...}, or, in a legacy chat
// (one indented document), the first keys are those.
func isGemini(head []byte) bool {
	first, _, _ := bytes.Cut(bytes.TrimLeft(head, " \t\r\n"), []byte("\n"))
	var probe struct {
		SessionID   *string `json:"sessionId"`
		ProjectHash *string `json:"projectHash"`
	}
	if json.Unmarshal(first, &probe) == nil {
		return probe.SessionID != nil && probe.ProjectHash != nil
	}
	return string(bytes.TrimSpace(first)) == "{" && bytes.Contains(head[:min(len(head), 1024)], []byte(`"projectHash"`))
}

// detectPrefix guesses the format from the start of a line too long to
// have been read whole.
func detectPrefix(line []byte) (Format, bool) {
	switch {
	case bytes.Contains(line, []byte(`"payload":`)) && bytes.Contains(line, []byte(`"type":"`)):
		return FormatCodex, true
	case bytes.Contains(line, []byte(`"parentUuid":`)) || bytes.Contains(line, []byte(`"sessionId":`)):
		return FormatClaude, true
	case bytes.Contains(line, []byte(`"role":`)) || bytes.Contains(line, []byte(`"speaker":`)):
		return FormatChat, true
	}
	return "", false
}
