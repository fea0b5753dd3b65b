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

// A value moved ("the database now lives at X instead of Y") turned no
// option down: no Rejected line names the old path.
func TestMovedValueNotRejected(t *testing.T) {
	turns := []Turn{
		{Role: User, Text: "We moved to the new box: the database now lives at /srv/linkshort/links.db instead of /var/lib/linkshort/links.db. Write a systemd unit for linkshort-api under deploy/ that points at it."},
		{Role: Assistant, Text: "I wrote deploy/linkshort-api.service; it sets LINKSHORT_DB=/srv/linkshort/links.db."},
	}
	res, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: turns}, First: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Summary, "passed over") || strings.Contains(res.Summary, "Rejected") {
		t.Errorf("a moved path read as a rejected option:\n%s", res.Summary)
	}
	for _, it := range res.Items {
		if strings.Contains(it.Body, "Rejected:") {
			t.Errorf("item %q: %q", it.Title, it.Body)
		}
	}
}

// "The next time the service starts" is a moment, not work left for
// next time.
func TestNextTimeIsAMoment(t *testing.T) {
	for _, c := range []struct {
		say  string
		open bool
	}{
		{"I added a unique index links_slug on links(slug). Existing databases get the index the next time the service starts, because connect() runs the schema each time.", false},
		{"I added a unique index links_slug on links(slug). The certbot timer I'll write next time.", true},
	} {
		turns := []Turn{
			{Role: User, Text: "Redirects got really slow since the import. Dig in."},
			{Role: Assistant, Text: c.say},
		}
		res, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: turns}, First: true})
		if err != nil {
			t.Fatal(err)
		}
		_, open, _ := strings.Cut(res.Summary, "**Open**")
		if got := strings.Contains(open, "index") || strings.Contains(open, "certbot"); got != c.open {
			t.Errorf("%q: open %v, want %v:\n%s", c.say, got, c.open, res.Summary)
		}
	}
}

// From the same trial, the offer and the pick in one segment: the list
// of options is no outcome once one is taken (it read as a choice still
// open, and as current after a later session reversed the pick), the
// bare "SQLite it is." is no decision beside the pick that names the
// option with its reason, and a reason said as what something is keeps
// its subject ("the database is already there", not "the database — is
// already there").
func TestPickFromListedOptions(t *testing.T) {
	zero := 0
	turns := []Turn{
		{Role: User, Text: "Next up: people are hammering /shorten, so it needs rate limiting. Would you keep the counters in Redis or in a table in SQLite?"},
		{Role: Assistant, Text: "Options: Redis, or a small table in the SQLite database we already have. Redis would be fast, but it is one more service to run and monitor on that box, and it needs the redis-py dependency. " +
			"I'd go with a SQLite table keyed by client IP and minute, a fixed one-minute window: the database is already there and the counters survive restarts. Shall I go ahead?"},
		{Role: User, Text: "Agreed, SQLite it is. Please never add a new pip dependency without asking me first."},
		{Role: Tool, Tool: "Bash", Input: "make test", Text: "Ran 3 tests\nOK", ExitCode: &zero},
		{Role: Assistant, Text: "Done: linkshort/ratelimit.py keeps one row per client IP and minute in a ratelimit table, and a client over 30 requests a minute is refused."},
	}
	res, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: turns}, First: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"- Options:", "- SQLite it is.", "the database — is"} {
		if strings.Contains(res.Summary, bad) {
			t.Errorf("summary holds %q:\n%s", bad, res.Summary)
		}
	}
	if !strings.Contains(res.Summary, "A small table in the SQLite database we already have — The database is already there") {
		t.Errorf("summary lacks the pick with its reason:\n%s", res.Summary)
	}
}
