package summarize

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// session builds a realistic session of n turns: prompts, explanations
// with decisions and facts, reads, edits, and test runs that fail and then
// pass.
func session(n int) []Turn {
	t0 := time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC)
	var turns []Turn
	for i := 0; len(turns) < n; i++ {
		at := func() time.Time { return t0.Add(time.Duration(len(turns)) * 7 * time.Second) }
		pkg := fmt.Sprintf("internal/pkg%02d", i%40)
		code1, code0 := 1, 0
		for _, t := range []Turn{
			{Role: User, Text: fmt.Sprintf("Step %d: add retries to the %s client and keep the tests green. Always run the race detector.", i, pkg)},
			{Role: Assistant, Text: "Let me read the client first. The client is configured in " + pkg + "/client.go and listens on port 8" + fmt.Sprint(100+i%900) + "."},
			{Role: Tool, Tool: "Read", Input: pkg + "/client.go", Text: "     1→package pkg\n     2→\n     3→func (c *Client) Do() error {\n"},
			{Role: Tool, Tool: "Grep", Input: "Do\\(", Text: pkg + "/client.go:3:func (c *Client) Do() error {"},
			{Role: Assistant, Text: "We'll wrap Do in a bounded retry instead of retrying in every caller, because the callers should not know about transient errors."},
			{Role: Tool, Tool: "Edit", Input: pkg + "/client.go", Paths: []string{pkg + "/client.go"}},
			{Role: Tool, Tool: "Bash", Input: "go test -race ./" + pkg + "/...", ExitCode: &code1, IsError: true, Text: "Exit code 1\n--- FAIL: TestRetry (0.01s)\n    client_test.go:31: got 1 attempts, want 3\nFAIL\tgithub.com/acme/app/" + pkg + "\t0.2s"},
			{Role: Tool, Tool: "Edit", Input: pkg + "/client.go", Paths: []string{pkg + "/client.go"}},
			{Role: Tool, Tool: "Bash", Input: "go test -race ./" + pkg + "/...", ExitCode: &code0, Text: "ok  \tgithub.com/acme/app/" + pkg + "\t1.1s"},
			{Role: Assistant, Text: "Done: Do now retries up to 3 times with backoff. TODO: the timeout is still hard-coded."},
		} {
			t.Time = at()
			turns = append(turns, t)
		}
	}
	return turns[:n]
}

func BenchmarkExtractive1000(b *testing.B) {
	req := Request{SessionID: "bench", Segment: Segment{Index: 1, Turns: session(1000)}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Extractive{}).Summarize(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
