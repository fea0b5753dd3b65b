package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
)

// longSession writes a Claude Code transcript of turns turns (prompts,
// assistant texts, tool calls with their results) of a realistic mix:
// file reads with long outputs, edits, test runs that fail and pass,
// and a planted secret now and then. It returns the file's path.
func longSession(tb testing.TB, dir string, turns int) string {
	tb.Helper()
	id := fmt.Sprintf("bench%03d-0000-4000-8000-000000000000", turns%1000)
	var sb strings.Builder
	n := 0
	t0 := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	line := func(typ string, msg any) {
		n++
		b, _ := json.Marshal(msg)
		parent := "null"
		if n > 1 {
			parent = fmt.Sprintf(`"u-%d"`, n-1)
		}
		fmt.Fprintf(&sb, `{"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":"/home/dev/src/tidepool","sessionId":%q,"version":"2.0.76","gitBranch":"main","type":%q,"message":%s,"uuid":"u-%d","timestamp":%q}`+"\n",
			parent, id, typ, b, n, t0.Add(time.Duration(n)*3*time.Second).Format(time.RFC3339Nano))
	}
	assistant := func(content ...any) {
		line("assistant", map[string]any{"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant",
			"model": "claude-sonnet-4-5-20250929", "content": content,
			"usage": map[string]int{"input_tokens": 1200, "output_tokens": 300}})
	}
	tool := func(name string, input map[string]any, output string, isErr bool) {
		id := fmt.Sprintf("toolu_%06d", n)
		assistant(map[string]any{"type": "tool_use", "id": id, "name": name, "input": input})
		line("user", map[string]any{"role": "user", "content": []any{map[string]any{
			"type": "tool_result", "tool_use_id": id, "content": output, "is_error": isErr}}})
	}
	code := strings.Repeat("func (q *Queue) retry(job *Job) error {\n\tif job.Attempts > q.max {\n\t\treturn ErrGaveUp\n\t}\n\treturn q.push(job)\n}\n", 60)
	for turn := 0; turn < turns; {
		i := turn / 8
		file := fmt.Sprintf("internal/queue/part%d.go", i%17)
		line("user", map[string]any{"role": "user", "content": fmt.Sprintf(
			"Step %d: the retry queue loses job %d when the worker restarts. Find out why and fix it; keep the tests green. The token is ghp_%s.",
			i, i, strings.Repeat("a1B2", 9))})
		assistant(map[string]any{"type": "text", "text": fmt.Sprintf(
			"I'll read %s first. We decided to keep retries in PostgreSQL so that job %d survives a restart.", file, i)})
		tool("Read", map[string]any{"file_path": "/home/dev/src/tidepool/" + file}, code, false)
		tool("Edit", map[string]any{"file_path": "/home/dev/src/tidepool/" + file, "old_string": "a", "new_string": "b"}, "The file has been updated.", false)
		tool("Bash", map[string]any{"command": "go test ./internal/queue/"}, "Exit code 1\n--- FAIL: TestRetry (0.01s)\n    retry_test.go:41: job lost\nFAIL", true)
		tool("Edit", map[string]any{"file_path": "/home/dev/src/tidepool/" + file, "old_string": "b", "new_string": "c"}, "The file has been updated.", false)
		tool("Bash", map[string]any{"command": "go test ./internal/queue/"}, "ok  \tgithub.com/acme/tidepool/internal/queue\t0.41s", false)
		assistant(map[string]any{"type": "text", "text": fmt.Sprintf("Fixed: job %d is now written before the worker acknowledges it.", i)})
		turn += 8
	}
	name := filepath.Join(dir, id+".jsonl")
	if err := os.WriteFile(name, []byte(sb.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return name
}

func TestLongSession(t *testing.T) {
	m := testMemory(t)
	name := longSession(t, t.TempDir(), 1000)
	start := time.Now()
	res, err := Ingest(context.Background(), m, name, IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("1000 turns: %s, %+v", time.Since(start), res.CaptureResult.Segments)
	e, _ := m.Sessions().Get(context.Background(), res.Session)
	if e.Turns != 1000 || e.Prompts != 125 || e.Summarized.Turns != 1000 || res.Segments != 25 {
		t.Errorf("session: %+v; result %+v", e.Session, res.CaptureResult)
	}
	tr := readRepo(t, m, e.File(model.TranscriptFile))
	if strings.Contains(tr, strings.Repeat("a1B2", 9)) || !strings.Contains(tr, "[REDACTED:github-token]") {
		t.Error("the planted token reached transcript.md")
	}
	if strings.Count(readRepo(t, m, e.File(model.SummaryFile)), "## Segment ") != 25 {
		t.Error("summary.md lacks segments")
	}
}

// BenchmarkIngest1000 ingests a 1,000-turn session end to end: parse,
// redact, render, summarise with the built-in summarizer, consolidate,
// commit.
func BenchmarkIngest1000(b *testing.B) { benchIngest(b, false) }

// BenchmarkIngest1000Indexed does the same into a memory whose search
// index exists, so the checkpoint indexes the session's files too.
func BenchmarkIngest1000Indexed(b *testing.B) { benchIngest(b, true) }

func benchIngest(b *testing.B, indexed bool) {
	name := longSession(b, b.TempDir(), 1000)
	fi, _ := os.Stat(name)
	b.SetBytes(fi.Size())
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		m := testMemory(b)
		if indexed {
			x, err := recall.Reindex(ctx, m, recall.IndexOptions{})
			if err != nil {
				b.Fatal(err)
			}
			x.Close()
		}
		b.StartTimer()
		res, err := Ingest(ctx, m, name, IngestOptions{})
		if err != nil || res.Commit == "" {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkCaptureHookBatch captures one hook event (a prompt) into a
// session that already holds 1,000 turns: the cost of each small batch a
// daemon commits (its logs are rewritten whole, through a temporary file).
func BenchmarkCaptureHookBatch(b *testing.B) {
	m := testMemory(b)
	ctx := context.Background()
	name := longSession(b, b.TempDir(), 1000)
	res, err := Ingest(ctx, m, name, IngestOptions{})
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		r, err := CaptureHook(ctx, m, []byte(fmt.Sprintf(`{"session_id":%q,"hook_event_name":"UserPromptSubmit","prompt":"one more thing, number %d"}`, res.Session, i)))
		if err != nil || r.Commit == "" {
			b.Fatal(r, err)
		}
	}
}
