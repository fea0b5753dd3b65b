package capture

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/cairn-mem/cairn/internal/redact"
	"github.com/cairn-mem/cairn/internal/transcript"
)

// reviewCall and reviewResult are a tool call and its answer, as the
// parser gives them.
func reviewCall(id, name string, input map[string]string) transcript.Event {
	in, _ := json.Marshal(input)
	return transcript.Event{Kind: transcript.KindToolCall, Call: &transcript.ToolCall{ID: id, Name: name, Input: in, Summary: name}}
}

func reviewResult(id, out string, isErr bool) transcript.Event {
	return transcript.Event{Kind: transcript.KindToolResult, Result: &transcript.ToolResult{ToolUseID: id, Output: out, IsError: isErr}}
}

// TestReviewWriteAfterFailedWrite: a Write that failed (the user said no
// to it, or the file was not writable) changed nothing on disk, so the
// next Write of the file is compared with what the Read showed, not with
// the refused text.
func TestWriteAfterFailedWrite(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []transcript.Event
		want   string // the replacements of call w2
	}{
		{"refused write, then another", []transcript.Event{
			reviewCall("r1", "Read", map[string]string{"file_path": "/p/wrangler.toml"}),
			reviewResult("r1", "     1→name = \"shotbox-api\"\n     2→compatibility_date = \"2024-09-23\"\n", false),
			reviewCall("w1", "Write", map[string]string{"file_path": "/p/wrangler.toml", "content": "name = \"shotbox-api\"\ncompatibility_date = \"2025-01-01\"\n"}),
			reviewResult("w1", "The user doesn't want to proceed with this tool use. The tool use was rejected. Use 2025-03-10.", true),
			reviewCall("w2", "Write", map[string]string{"file_path": "/p/wrangler.toml", "content": "name = \"shotbox-api\"\ncompatibility_date = \"2025-03-10\"\n"}),
			reviewResult("w2", "The file /p/wrangler.toml has been updated.", false),
		}, `[[compatibility_date = "2024-09-23" compatibility_date = "2025-03-10"]]`},
		{"failed write retried with the same text", []transcript.Event{
			reviewCall("r1", "Read", map[string]string{"file_path": "/p/app.toml"}),
			reviewResult("r1", "1\tport = 8790\n", false),
			reviewCall("w1", "Write", map[string]string{"file_path": "/p/app.toml", "content": "port = 9000\n"}),
			reviewResult("w1", "EACCES: permission denied, open '/p/app.toml'", true),
			reviewCall("w2", "Write", map[string]string{"file_path": "/p/app.toml", "content": "port = 9000\n"}),
			reviewResult("w2", "The file /p/app.toml has been updated.", false),
		}, `[[port = 8790 port = 9000]]`},
	} {
		r := &renderer{red: &redact.Redactor{}, maxOut: 4000}
		for _, e := range tc.events {
			r.sanitize(e)
		}
		if got := fmt.Sprint(r.replaced["w2"]); got != tc.want {
			t.Errorf("%s: the second write replaced %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestWriteAfterEdit: an Edit between the Read and a Write changes what
// the Write is compared with.
func TestWriteAfterEdit(t *testing.T) {
	events := []transcript.Event{
		reviewCall("r1", "Read", map[string]string{"file_path": "/p/app.toml"}),
		reviewResult("r1", "1\tport = 8790\n2\tworkers = 2\n", false),
		reviewCall("e1", "Edit", map[string]string{"file_path": "/p/app.toml", "old_string": "port = 8790", "new_string": "port = 9000"}),
		reviewResult("e1", "The file /p/app.toml has been updated.", false),
		reviewCall("w1", "Write", map[string]string{"file_path": "/p/app.toml", "content": "port = 9000\nworkers = 4\n"}),
		reviewResult("w1", "The file /p/app.toml has been updated.", false),
	}
	r := &renderer{red: &redact.Redactor{}, maxOut: 4000}
	for _, e := range events {
		r.sanitize(e)
	}
	if got, want := fmt.Sprint(r.replaced["w1"]), `[[workers = 2 workers = 4]]`; got != want {
		t.Errorf("the write after the edit replaced %s, want %s", got, want)
	}
}
