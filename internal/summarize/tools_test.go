package summarize

import (
	"context"
	"strings"
	"testing"
)

// FuzzExtractive: any turns summarise without panicking, to a section that
// starts with its heading, the same way twice.
func FuzzExtractive(f *testing.F) {
	f.Add("fix the test", "We'll use X instead of Y because Z.", "go test ./...", "--- FAIL: TestX\nx_test.go:1: boom", 1, "a.go")
	f.Add("", "", "", "", 0, "")
	f.Add("always use tabs", "```\ncode. More\n", "git commit -m \"x\"", "Traceback (most recent call last):", 2, "a b")
	f.Fuzz(func(t *testing.T, prompt, said, cmd, out string, exit int, path string) {
		turns := []Turn{
			{Role: User, Text: prompt},
			{Role: Assistant, Text: said},
			{Role: Tool, Tool: "Bash", Input: cmd, Text: out, ExitCode: &exit, IsError: exit != 0},
			{Role: Tool, Tool: "Edit", Input: path},
			{Role: Tool, Tool: "Bash", Input: cmd, Text: out},
			{Role: Tool, Tool: "Write", Input: path, IsError: true, Text: out},
			{Role: Assistant, Text: out},
		}
		req := Request{Segment: Segment{Index: 4, Turns: turns}}
		a, err := Extractive{}.Summarize(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(a.Summary, "## Segment 4\n") {
			t.Fatalf("summary:\n%s", a.Summary)
		}
		b, _ := Extractive{}.Summarize(context.Background(), req)
		if golden(a) != golden(b) {
			t.Fatal("not deterministic")
		}
		for _, it := range a.Items {
			if it.Importance < 0 || it.Importance > 1 || it.Title == "" {
				t.Fatalf("item %+v", it)
			}
		}
	})
}

func TestSegmentIndex(t *testing.T) {
	req := Request{PreviousSummary: "## Segment 1\n\nx\n\n## Segment 2 (…)\n\n### Details\n## Segmentation is not a heading we count\n"}
	if got := SegmentIndex(req); got != 3 {
		t.Errorf("segmentIndex = %d, want 3", got)
	}
	req.Segment.Index = 9
	if got := SegmentIndex(req); got != 9 {
		t.Errorf("segmentIndex = %d, want 9", got)
	}
}
