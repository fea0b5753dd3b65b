package summarize

import (
	"context"
	"slices"
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

// From a second trial with the real claude CLI: the user's question put
// two options, the agent weighed them without a list of its own and
// recommended one ("My recommendation is the spool, mainly for that
// reason: …"), the user took it ("Sounds right, go with the spool
// files."). One decision says the option with the recommendation's
// reason; the option turned down is a Rejected line, no decision or fact
// of its own; the one ruled out "entirely" is rejected too; a file named
// pending.jsonl and "what still fails" are no work left.
func TestPickOfAskedOptions(t *testing.T) {
	offer := "Both can work, but they fail differently.\n\nSpool files: each failed delivery becomes one JSON line under /var/spool/relaybox (./spool in dev), and a loop re-sends them every 30 seconds. No new dependency, and you can look at the backlog with tail.\n\nPostgres on db-02: durable and queryable, but it needs the pg driver and a migration, and db-02 has its maintenance window every Tuesday night. The relay would then lose events in exactly the hours when Postgres is down, which is the situation retries are meant to cover.\n\nMy recommendation is the spool, mainly for that reason: the retry store shouldn't go down at the same time as the things it protects us from. What I'd rule out entirely is keeping pending retries in memory: every deploy or crash would throw them away.\n\nShall I build the spool?"
	turns := []Turn{
		{Role: User, Text: "billing-svc goes down for deploys a few times a week, and whatever Stripe sends us in that window is lost once Stripe gives up. We need our own retries. Would you keep failed deliveries in spool files on disk, or in a table on the Postgres at db-02?"},
		{Role: Assistant, Text: offer},
		{Role: User, Text: "Sounds right, go with the spool files. Some ground rules while I think of them: I like small commits, one change per commit. Never edit /etc/relaybox/routes.json on the box by hand, route changes go into config/routes.example.json and the deploy copies it over. And from now on everything should log JSON lines, no free-text console.log."},
		{Role: Assistant, Text: "Done, in two commits. src/spool.js appends a failed delivery to pending.jsonl in RELAY_SPOOL_DIR (/var/spool/relaybox in production, ./spool in dev), and retryAll() re-sends everything there every 30 seconds, keeping only what still fails. server.js spools an event when forwarding fails and answers 202 instead of 502, so Stripe stops retrying on its side. All logging in server.js goes through a small log() helper that writes JSON lines. Four tests pass.\n\nUnderstood on /etc/relaybox/routes.json: I'll only touch config/routes.example.json.\n\nStill open: the spool has no size limit. If billing-svc is down for a day, pending.jsonl keeps growing until the disk on hooks-01 is full; it should stop at something like 50k entries or 500 MB and alert."},
	}
	one, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: turns}, First: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- Postgres on db-02: durable and queryable, but it needs the pg driver and a migration, and db-02 has its maintenance window every Tuesday night — passed over for: failed deliveries in spool files on disk.", "- What I'd rule out entirely is keeping pending retries in memory"} {
		if !strings.Contains(one.Summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, one.Summary)
		}
	}
	if strings.Contains(one.Summary, "Both can work") {
		t.Errorf("the announcement of the weighing is an outcome:\n%s", one.Summary)
	}
	// The same in two segments, as `claude -p --continue` makes them:
	// the question and the offer in the first, the pick in the second.
	first, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: turns[:2]}, First: true})
	if err != nil {
		t.Fatal(err)
	}
	second, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: turns[2:], Before: turns[1].Text}, PreviousSummary: first.Summary})
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range []Result{one, second} {
		checkSpoolPick(t, res)
	}
}

func checkSpoolPick(t *testing.T, res Result) {
	t.Helper()
	var decisions, facts []string
	for _, it := range res.Items {
		switch it.Kind {
		case Decision:
			decisions = append(decisions, it.Title+" / "+it.Body)
		case Fact:
			facts = append(facts, it.Title)
		}
	}
	if want := []string{"Failed deliveries in spool files on disk / The retry store shouldn't go down at the same time as the things it protects us from."}; !slices.Equal(decisions, want) {
		t.Errorf("decisions = %q, want %q", decisions, want)
	}
	if slices.ContainsFunc(facts, func(f string) bool { return strings.HasPrefix(f, "Postgres on db-02") }) {
		t.Errorf("the option turned down is a fact: %q", facts)
	}
	if _, open, _ := strings.Cut(res.Summary, "**Open**"); strings.Contains(open, "src/spool.js appends") {
		t.Errorf("what the spool does is an open item:\n%s", res.Summary)
	}
}

// A list of work left said in one sentence is that many open items: the
// one a later session does closes alone.
func TestOpenList(t *testing.T) {
	turns := []Turn{
		{Role: User, Text: "What's still open on relaybox?"},
		{Role: Assistant, Text: "I added the healthz endpoint.\n\nStill open, as far as I know: an index for the outbox worker's query; billing-svc still has to drop repeats by Idempotency-Key (Owen's team); and the hand-renewed TLS certificate for hooks.example.com expires March 14."},
	}
	res, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: turns}, First: true})
	if err != nil {
		t.Fatal(err)
	}
	_, open, _ := strings.Cut(res.Summary, "**Open**")
	one, err := Extractive{}.Summarize(context.Background(), Request{Segment: Segment{Turns: []Turn{
		{Role: User, Text: "Add rate limiting."},
		{Role: Assistant, Text: "Done: linkshort/ratelimit.py keeps one row per client IP and minute. Still to do: nothing calls allow() yet, because there is no POST /shorten handler; wiring the limiter into it is the next step."},
	}}, First: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(one.Summary, "- Nothing calls allow() yet, because there is no POST /shorten handler; wiring the limiter into it is the next step.") {
		t.Errorf("an item whose second clause points back to the first was split:\n%s", one.Summary)
	}
	for _, want := range []string{"\n- An index for the outbox worker's query.\n", "\n- Billing-svc still has to drop repeats by Idempotency-Key (Owen's team).\n", "\n- The hand-renewed TLS certificate for hooks.example.com expires March 14.\n"} {
		if !strings.Contains(open, want) {
			t.Errorf("open items lack %q:\n%s", want, open)
		}
	}
}
