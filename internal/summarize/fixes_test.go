package summarize

import (
	"context"
	"strings"
	"testing"
)

// A failure and the success of the same command say how it passed: a
// file tool's change, a script run in between (an agent that edits with
// python3 - <<PY or sed -i), or nothing but running it again.
func TestHowItPassed(t *testing.T) {
	one, zero := 1, 0
	fail := Turn{Role: Tool, Tool: "Bash", Input: "make test", Text: "FAIL: test_new_link_has_zero_rate\nZeroDivisionError: division by zero\nFAILED (errors=1)", ExitCode: &one, IsError: true}
	pass := Turn{Role: Tool, Tool: "Bash", Input: "make test", Text: "Ran 3 tests\nOK", ExitCode: &zero}
	for _, c := range []struct {
		name    string
		between []Turn
		want    string
	}{
		{"a file tool", []Turn{{Role: Tool, Tool: "Edit", Input: "linkshort/stats.py"}}, "→ fixed in linkshort/stats.py"},
		{"a script", []Turn{
			{Role: Tool, Tool: "Bash", Input: "git status", Text: "modified: linkshort/stats.py", ExitCode: &zero},
			{Role: Tool, Tool: "Bash", Input: "sed -i 's/clicks \\/ views/clicks \\/ max(views, 1)/' linkshort/stats.py", ExitCode: &zero},
		}, "→ passed after `sed -i"},
		{"nothing", []Turn{{Role: Tool, Tool: "Bash", Input: "cat linkshort/stats.py", Text: "def click_rate(...)", ExitCode: &zero}}, "→ passed on a rerun"},
	} {
		t.Run(c.name, func(t *testing.T) {
			turns := append([]Turn{{Role: User, Text: "GET /stats blows up with a 500. Fix it."}, fail}, c.between...)
			turns = append(turns, pass, Turn{Role: Assistant, Text: "Fixed: click_rate returns 0.0 when a link has no views."})
			res, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: turns}, First: true})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Summary, c.want) {
				t.Errorf("want %q in:\n%s", c.want, res.Summary)
			}
		})
	}
}
