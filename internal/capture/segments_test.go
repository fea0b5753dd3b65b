package capture

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/memory/backlog"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// claudeLines writes the Claude Code transcript lines of one exchange:
// the prompt, a word from the assistant, a Bash call and its result, and
// the answer that ends the turn.
func claudeLines(session string, i int, at time.Time) string {
	var b strings.Builder
	parent := ""
	line := func(typ string, msg any) {
		id := fmt.Sprintf("%08d-0000-4000-8000-%012d", i, b.Len())
		v := map[string]any{
			"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": "/home/dev/src/tidepool",
			"sessionId": session, "version": "2.0.76", "gitBranch": "main", "type": typ, "message": msg,
			"uuid": id, "timestamp": at.Add(time.Duration(b.Len()) * time.Millisecond).Format(time.RFC3339Nano),
		}
		if parent == "" {
			v["parentUuid"] = nil
		}
		parent = id
		data, _ := json.Marshal(v)
		b.Write(data)
		b.WriteByte('\n')
	}
	assistant := func(content any, stop any) map[string]any {
		return map[string]any{"model": "claude-sonnet-4-5-20250929", "id": fmt.Sprintf("msg_%d_%d", i, b.Len()), "type": "message",
			"role": "assistant", "content": content, "stop_reason": stop}
	}
	tool := fmt.Sprintf("toolu_%d", i)
	line("user", map[string]any{"role": "user", "content": fmt.Sprintf("Step %d: make the retry queue handle case %d.", i, i)})
	line("assistant", assistant([]any{map[string]any{"type": "text", "text": fmt.Sprintf("Looking at case %d.", i)}}, nil))
	line("assistant", assistant([]any{map[string]any{"type": "tool_use", "id": tool, "name": "Bash", "input": map[string]any{"command": "go test ./internal/queue/"}}}, "tool_use"))
	line("user", map[string]any{"role": "user", "content": []any{map[string]any{"tool_use_id": tool, "type": "tool_result", "content": "ok  \tqueue\t0.01s"}}})
	line("assistant", assistant([]any{map[string]any{"type": "text", "text": fmt.Sprintf("Case %d is handled and the tests pass.", i)}}, "end_turn"))
	return b.String()
}

// A long session of many short turns, each ended by a Stop, is summarised
// in segments of capture.segment_turns (400 turns, 100 Stops: 10), each
// starting with a prompt, and the rest at SessionEnd; not a segment per
// Stop.
func TestSegmentsManyStops(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	id := basicID
	tp := followedTranscript(t, m, nil)
	hook := func(event string) []byte {
		return []byte(fmt.Sprintf(`{"session_id":%q,"transcript_path":%q,"cwd":"/home/dev/src/tidepool","hook_event_name":%q}`, id, tp, event))
	}
	f, err := os.OpenFile(tp, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	start := time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC)
	for i := range 100 {
		if _, err := f.WriteString(claudeLines(id, i, start.Add(time.Duration(i)*time.Minute))); err != nil {
			t.Fatal(err)
		}
		if _, err := CaptureHook(ctx, m, hook("Stop")); err != nil {
			t.Fatalf("Stop %d: %v", i, err)
		}
	}
	e, err := m.Sessions().Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if e.Turns != 400 || e.Prompts != 100 {
		t.Fatalf("captured %d turns, %d prompts; want 400, 100", e.Turns, e.Prompts)
	}
	if e.Summarized.Segments != 9 || e.Summarized.Turns != 360 {
		t.Errorf("before the end: %d segments of %d turns; want 9 of 360", e.Summarized.Segments, e.Summarized.Turns)
	}
	if _, err := CaptureHook(ctx, m, hook("SessionEnd")); err != nil {
		t.Fatal(err)
	}
	e, _ = m.Sessions().Get(ctx, id)
	if e.Summarized.Segments != 10 || e.Summarized.Turns != 400 || e.Status != model.StatusSuspended {
		t.Errorf("after the end: %d segments of %d turns, %s; want 10 of 400, suspended", e.Summarized.Segments, e.Summarized.Turns, e.Status)
	}
	sum := readRepo(t, m, e.File(model.SummaryFile))
	if n := strings.Count(sum, "\n## Segment "); n != 10 {
		t.Errorf("summary.md has %d segments, want 10", n)
	}
}

func TestDueSegments(t *testing.T) {
	// u: a prompt, a: the assistant, t: a tool call; each 10 tokens.
	turns := func(s string) []backlog.Turn {
		var out []backlog.Turn
		for i, c := range s {
			r := map[rune]summarize.Role{'u': summarize.User, 'a': summarize.Assistant, 't': summarize.Tool}[c]
			out = append(out, backlog.Turn{Key: fmt.Sprint(i), Tokens: 10, Turn: summarize.Turn{Role: r}})
		}
		return out
	}
	shape := func(segs []segment) string {
		var parts []string
		for _, s := range segs {
			var b strings.Builder
			for _, t := range s.turns {
				b.WriteByte(string(t.Turn.Role)[0])
			}
			parts = append(parts, b.String())
		}
		return strings.Join(parts, "|")
	}
	for _, tc := range []struct {
		turns, tokens int
		final         bool
		in, want      string
	}{
		{4, 1000, false, "uata", ""},                          // full, but the turn may go on
		{4, 1000, false, "uatau", "uata"},                     // the next prompt cuts it
		{4, 1000, true, "uatau", "uata|u"},                    // the end takes the rest
		{4, 1000, false, "uauata", "ua"},                      // cut before the last prompt: "ua" stays whole with its answer
		{4, 1000, false, "uattttt", "uatt"},                   // one prompt, many tools: cut at the size
		{6, 1000, false, "uatttua", "uattt"},                  // the prompt at 5 of 6 starts the next one
		{10, 40, false, "uatauata", "uata"},                   // tokens count too
		{4, 1000, false, "", ""},                              // nothing
		{4, 1000, false, "uauauauauauauau", "uaua|uaua|uaua"}, // the last one waits
	} {
		got := shape(dueSegments(turns(tc.in), tc.turns, tc.tokens, tc.final))
		if got != tc.want {
			t.Errorf("dueSegments(%q, %d turns, %d tokens, final %v) = %q, want %q", tc.in, tc.turns, tc.tokens, tc.final, got, tc.want)
		}
	}
}

// A slash command a hook reports (/cost, as Claude Code sends it) is no
// prompt and no turn; a prompt that starts with a path is one.
func TestHookSlashCommand(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	for _, tc := range []struct {
		prompt string
		want   int
	}{{"/cost", 0}, {"<command-name>/clear</command-name><command-args></command-args>", 0}, {"/tmp is full again, find out why", 1}} {
		res, err := CaptureHook(ctx, m, []byte(fmt.Sprintf(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":"/p","prompt":%q}`, tc.prompt)))
		if err != nil || res.Prompts != tc.want {
			t.Errorf("%q: %+v, %v; want %d prompts", tc.prompt, res, err, tc.want)
		}
	}
	e, err := m.Sessions().Get(ctx, "s1")
	if err != nil || e.Prompts != 1 || e.Turns != 1 || e.Title != "/tmp is full again, find out why" {
		t.Errorf("session: %+v, %v", e.Session, err)
	}
	if tr := readRepo(t, m, e.File(model.TranscriptFile)); !strings.Contains(tr, "_Command: `/cost`._") {
		t.Errorf("transcript.md:\n%s", tr)
	}
}

// A session start whose budget runs out says what it left: the jobs still
// queued, counted.
func TestWorkForLeft(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	for i := range 2 {
		if err := EnqueueHook(ctx, m, "s1", []byte(fmt.Sprintf(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","prompt":"p%d"}`, i))); err != nil {
			t.Fatal(err)
		}
	}
	n, err := WorkFor(ctx, m, WorkOptions{Budget: -time.Second})
	if err != nil || !n.Left || n.Done != 0 || n.Pending != 2 {
		t.Fatalf("WorkFor with no budget: %+v, %v", n, err)
	}
	n, err = WorkFor(ctx, m, WorkOptions{Budget: time.Minute, Grace: time.Minute, EndBudget: time.Minute})
	if err != nil || n.Left || n.Done != 2 || n.Pending != 0 || len(n.Waiting) != 0 {
		t.Fatalf("WorkFor: %+v, %v", n, err)
	}
}
