package summarize

import (
	"context"
	"strings"
	"testing"
)

// From a trial with the real claude CLI: the user takes the option the
// agent recommended, adds two rules of their own, and the agent reports.
// The decision carries the agent's reason for the option, not the
// user's next sentence (a rule, which is a Preference), and the report
// that `make test` passes is no decision.
func TestPickTakesRecommendedReason(t *testing.T) {
	before := "Options: Redis, or a small table in the SQLite database we already have. Redis would be fast, but it is one more service to run and monitor on that box, and it needs the redis-py dependency. " +
		"I'd go with a SQLite table keyed by client IP and minute, a fixed one-minute window: the database is already there and the counters survive restarts. Shall I go ahead?"
	zero := 0
	turns := []Turn{
		{Role: User, Text: "Agreed, SQLite it is. Please never add a new pip dependency without asking me first. And from now on run make test before you tell me something is done."},
		{Role: Tool, Tool: "Bash", Input: "make test", Text: "Ran 3 tests\nOK", ExitCode: &zero},
		{Role: Assistant, Text: "Done: linkshort/ratelimit.py keeps one row per client IP and minute in a ratelimit table, and a client over 30 requests a minute is refused. make test passes, and no new dependency was needed."},
	}
	res, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: turns, Before: before}, First: true})
	if err != nil {
		t.Fatal(err)
	}
	var decisions []string
	for _, it := range res.Items {
		if it.Kind == "decision" {
			decisions = append(decisions, it.Title+" / "+it.Body)
		}
	}
	got := strings.Join(decisions, "\n")
	if !strings.Contains(got, "SQLite database we already have / The database is already there and the counters survive restarts.") {
		t.Errorf("the decision lacks the recommendation's reason:\n%s", got)
	}
	if strings.Contains(got, "pip dependency") || strings.Contains(strings.ToLower(got), "make test passes") {
		t.Errorf("a rule or a report made a decision:\n%s", got)
	}
}
