package capture

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/capture/ranges"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/watcher"
)

// splitWriteLines is a session that reads package.json and writes it
// whole with engines raised, as Claude Code's transcript has it.
func splitWriteLines(t *testing.T) []string {
	t.Helper()
	line := func(typ, uuid string, msg any) string {
		b, err := json.Marshal(map[string]any{
			"type": typ, "uuid": uuid, "sessionId": basicID, "cwd": "/p",
			"timestamp": "2026-03-02T10:00:0" + uuid[len(uuid)-1:] + ".000Z", "message": msg,
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	call := func(id, name string, input map[string]string) map[string]any {
		return map[string]any{"role": "assistant", "model": "claude-opus-4-5", "type": "message",
			"content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}}
	}
	result := func(id, out string) map[string]any {
		return map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out}}}
	}
	was := "{\n  \"name\": \"quill-tools\",\n  \"engines\": { \"vscode\": \"^1.85.0\" },\n  \"version\": \"0.1.0\"\n}\n"
	now := strings.NewReplacer("^1.85.0", "^1.90.0", "0.1.0", "0.2.0").Replace(was)
	numbered := ""
	for i, l := range strings.Split(strings.TrimSuffix(was, "\n"), "\n") {
		numbered += "     " + string(rune('1'+i)) + "→" + l + "\n"
	}
	return []string{
		line("user", "u1", map[string]any{"role": "user", "content": "Raise the minimum VS Code to 1.90 in package.json, and make it version 0.2.0."}),
		line("assistant", "a2", call("toolu_read", "Read", map[string]string{"file_path": "/p/package.json"})),
		line("user", "u3", result("toolu_read", numbered)),
		line("assistant", "a4", call("toolu_write", "Write", map[string]string{"file_path": "/p/package.json", "content": now})),
		line("user", "u5", result("toolu_write", "The file /p/package.json has been updated.")),
		line("assistant", "a6", map[string]any{"role": "assistant", "model": "claude-opus-4-5", "type": "message",
			"content": []any{map[string]any{"type": "text", "text": "engines.vscode is ^1.90.0 now and the version is 0.2.0."}}}),
	}
}

// TestWriteAfterReadInAnotherJob: the daemon may capture the Read of a
// file in one job and its Write in the next (the watcher takes a
// transcript as it grows); the summary still says what setting the Write
// changed, as a capture of the whole transcript at once does.
func TestWriteAfterReadInAnotherJob(t *testing.T) {
	ctx := context.Background()
	lines := splitWriteLines(t)
	summary := func(m *memory.Memory) string {
		e, err := m.Sessions().Find(basicID)
		if err != nil {
			t.Fatal(err)
		}
		return readRepo(t, m, e.File(model.SummaryFile))
	}

	one := testMemory(t)
	tp := followedTranscript(t, one, []byte(strings.Join(lines, "")))
	if _, err := Ingest(ctx, one, tp, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `"^1.85.0" }, → "engines": { "vscode": "^1.90.0" },`
	if s := summary(one); !strings.Contains(s, "^1.90.0") || !strings.Contains(s, "→") {
		t.Fatalf("one pass: the files line shows no change:\n%s", s)
	}

	md := testMemory(t)
	tp = followedTranscript(t, md, nil)
	q, err := Queue(md, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	size := int64(0)
	for _, chunk := range []string{strings.Join(lines[:3], ""), strings.Join(lines[3:], "")} {
		f, err := os.OpenFile(tp, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(chunk)
		f.Close()
		transcripts = ranges.New(0) // as a daemon started again between the two
		r := watcher.Range{Path: tp, From: size, To: size + int64(len(chunk))}
		size = r.To
		if _, err := q.Enqueue(ctx, watcher.Job{Kind: watcher.KindTranscriptDelta, Pointer: &r, AgentSession: basicID}); err != nil {
			t.Fatal(err)
		}
		if res, err := Drain(ctx, md, watcher.QueueOptions{}, 0); err != nil || res.Failed != 0 {
			t.Fatalf("drain: %+v, %v", res, err)
		}
	}
	if _, err := Ingest(ctx, md, tp, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := summary(md); !strings.Contains(s, "^1.90.0") || !strings.Contains(s, "→") {
		t.Errorf("two jobs: the files line shows no change (want it like %q):\n%s", want, s)
	}
}
