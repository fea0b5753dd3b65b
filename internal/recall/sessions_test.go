package recall

import (
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/digest/open"
	"github.com/cairn-mem/cairn/internal/digest/retire"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall/derived"
	"github.com/cairn-mem/cairn/internal/recall/recent"
)

// sess is a session of the given summary parts, for the rules below.
func sess(id string, parts map[int][]string, open ...string) *recent.Session {
	d := &digest.Summary{Open: open}
	for p, b := range parts {
		d.Parts[p] = b
	}
	return &recent.Session{ID: id, Dir: "sessions/" + id, Digest: d}
}

func TestOpenItemsLater(t *testing.T) {
	older := sess("a1", map[int][]string{digest.Request: {"Add a gateway for the billing service."}},
		"Tomorrow I'll wire the token-bucket rate limiter into the gateway middleware.",
		"Still to do: rotate the webhook signing secret.")
	mid := sess("b2", map[int][]string{digest.Request: {"The invoice PDF renders blank pages; fix it."},
		digest.Outcome: {"The PDF renderer now embeds its fonts."}},
		"Still open: rotating the webhook signing secret, which the vault migration blocks.")
	newest := sess("c3", map[int][]string{digest.Request: {"let's do the rate limiter now"},
		digest.Outcome: {"Requests over 50 per second get a 429 from the gateway."}})
	sessions := []*recent.Session{newest, mid, older}
	g := openGroup(sessions, open.NewVocab(recent.Digests(sessions)))
	var got []string
	for _, u := range g.units {
		got = append(got, u.text)
	}
	text := strings.Join(got, "")
	if strings.Contains(text, "rate limiter") {
		t.Errorf("a to-do the newest session did is listed:\n%s", text)
	}
	if !strings.Contains(text, "vault migration blocks") || strings.Contains(text, "session a1") {
		t.Errorf("the newest statement of a to-do should be the one listed:\n%s", text)
	}
}

// TestOpenItemsSaidTwice: an item said twice is listed once; two items
// of one list that share a file name are two.
func TestOpenItemsSaidTwice(t *testing.T) {
	s := sess("a1", map[int][]string{digest.Request: {"Turn the notebooks into a pipeline."}},
		"src/prepare.py, src/train.py and src/evaluate.py still need writing from notebook 03.",
		"src/prepare.py, src/train.py and src/evaluate.py from notebook 03 (featurize already exists).",
		"Evaluate only writes metrics.json; there is no precision-recall plot yet, and Priya picks the threshold from it.")
	sessions := []*recent.Session{s}
	g := openGroup(sessions, open.NewVocab(recent.Digests(sessions)))
	var got []string
	for _, u := range g.units {
		got = append(got, u.text)
	}
	if text := strings.Join(got, ""); len(got) != 2 || !strings.Contains(text, "precision-recall") {
		t.Errorf("want the scripts once and the plot:\n%s", text)
	}
}

func TestHeading(t *testing.T) {
	for _, tc := range []struct {
		title, req   string
		head, bullet string
	}{
		{"Checkout is slow since the upgrade. Can you…", "Checkout is slow since the upgrade. Can you profile the cart service?", "Checkout is slow since the upgrade", "Can you profile the cart service?"},
		{"Rotate the keys", "Rotate the keys", "Rotate the keys", ""},
		{"Billing cleanup", "Drop the legacy invoices table.", "Billing cleanup", "Drop the legacy invoices table."},
		// The request left out the words that opened the prompt.
		{"ok makes sense, go on. Make it 5 days. Also drop the lock file issue, I fixed…", "Make it 5 days. Also drop the lock file issue, I fixed the export script myself.", "Make it 5 days", "Also drop the lock file issue, I fixed the export script myself."},
		// A long first sentence is cut at a clause, not inside parentheses.
		{"A customer's IT department (Hartmann Logistik, 400 seats) wants to roll…",
			"A customer's IT department (Hartmann Logistik, 400 seats) wants to roll Tallybook out with Intune across every site, and they asked for an MSI.",
			"A customer's IT department (Hartmann Logistik, 400 seats) wants to roll Tallybook out…",
			"A customer's IT department (Hartmann Logistik, 400 seats) wants to roll Tallybook out with Intune across every site, and they asked for an MSI."},
		// A sentence a few words over the length heads whole, rather
		// than cut and said again as the request.
		{"Owen from the billing-svc team says they get the same invoice.paid event two or three…",
			"Owen from the billing-svc team says they get the same invoice.paid event two or three times.",
			"Owen from the billing-svc team says they get the same invoice.paid event two or three times", ""},
		// Cut at a clause, the bullet says the rest of the sentence.
		{"Nomad 1.9.3 this week, the new client nomad-cli-5 (10.20.0.25) arrived yesterday as well, it's…",
			"Nomad 1.9.3 this week, the new client nomad-cli-5 (10.20.0.25) arrived yesterday as well, it's provisioned like the others and needs the job constraints.",
			"Nomad 1.9.3 this week, the new client nomad-cli-5 (10.20.0.25) arrived yesterday as well",
			"It's provisioned like the others and needs the job constraints."},
		// A sigh or a count of what follows heads nothing.
		{"ugh", "ugh. 6 hour print, layer shift on Y at about 70mm height. Mainsail shows nothing.", "6 hour print, layer shift on Y at about 70mm height", "Mainsail shows nothing."},
		{"Two things", "Two things. I swapped to a hardened steel nozzle. And a long PETG print died this morning.", "I swapped to a hardened steel nozzle", "And a long PETG print died this morning."},
		{"Big one", "Our counsel reviewed the rounding. It is only legal if it is neutral over time.", "Our counsel reviewed the rounding", "It is only legal if it is neutral over time."},
		{"two things today", "two things today. The report goes out at 04:45 now.", "The report goes out at 04:45 now", ""},
		{"Problem", "Problem. The nightly export stopped on Friday.", "The nightly export stopped on Friday", ""},
	} {
		s := sess("h", map[int][]string{digest.Request: {tc.req}})
		s.Title = tc.title
		head, reqs := digest.Heading(s.Title, s.Digest.Parts[digest.Request])
		if head != tc.head || strings.Join(reqs, "|") != tc.bullet {
			t.Errorf("heading(%q, %q) = %q, %q; want %q, %q", tc.title, tc.req, head, reqs, tc.head, tc.bullet)
		}
	}
}

func TestRetiredSessions(t *testing.T) {
	newest := sess("c3", map[int][]string{digest.Environment: {"The image registry moved to ghcr.io/acme instead of quay.io/acme."}})
	older := sess("a1", map[int][]string{digest.Environment: {"Images are pushed to quay.io/acme by the release job. Tags follow semver."}})
	sessions := []*recent.Session{newest, older}
	core := []retire.Statement{{Text: "The release job pushes images to quay.io/acme", Rank: recent.Rank(sessions, "a1", time.Time{})}}
	for _, f := range filler {
		core = append(core, retire.Statement{Text: f, Rank: 2})
	}
	r := retire.New(core, recent.Digests(sessions))
	if got := r.DropRetired(older.Digest.Parts[digest.Environment][0], 1); got != "Tags follow semver." {
		t.Errorf("older bullet = %q, want only the sentence nothing changed", got)
	}
	if !r.Retired("The release job pushes images to quay.io/acme", recent.Rank(sessions, "a1", time.Time{})) {
		t.Error("the core item of the older session is not retired")
	}
	if r.Retired("The image registry moved to ghcr.io/acme instead of quay.io/acme.", 0) {
		t.Error("the newest statement is retired")
	}
}

func TestManifestSaid(t *testing.T) {
	item := &group{sec: secCore, id: "01J0000000000000000000ITEM", title: "The queue is drained nightly", fetch: "cairn show ITEM"}
	iu := item.add(0.7, "- **The queue is drained nightly**\n")
	sess := &group{sec: secSessions, id: "s1", title: "Drain the queue", fetch: "cairn session show s1", head: "\n### Drain the queue\n"}
	su := sess.add(0.9, "- Decision: The queue is drained nightly by the cleanup job.\n")
	su.dup, iu.dup = []*unit{iu}, []*unit{su}
	other := &group{sec: secCore, id: "01J0000000000000000000BIGX", title: "A long note that did not fit", fetch: "cairn show BIGX"}
	other.add(0.1, "- **A long note that did not fit**: "+strings.Repeat("word ", 400)+"\n")
	var heads [numSections]string
	heads[secCore], heads[secSessions] = "## Core memory", "## Latest sessions"
	groups := []*group{item, other, sess}
	fill(groups, heads, 300)
	text, _ := assemble(groups, heads, 300)
	if !su.taken || iu.taken {
		t.Fatalf("taken: bullet %v, item %v; want the bullet only", su.taken, iu.taken)
	}
	if !strings.Contains(text, "Left out for room: 1 memory") || strings.Contains(text, "drained nightly” (") {
		t.Errorf("manifest lists the item the bullet says:\n%s", text)
	}
}

// TestUntakeLists: a unit the pack drops to fit takes with it the reason
// its twin, and a bullet its words held, were not shown: their groups
// are left out for room, listed, not said.
func TestUntakeLists(t *testing.T) {
	item := &group{sec: secCore, id: "01J0000000000000000000ITEM", title: "The queue is drained nightly", fetch: "cairn show ITEM"}
	iu := item.add(0.7, "- **The queue is drained nightly**\n")
	sess := &group{sec: secSessions, id: "s1", title: "Drain the queue", fetch: "cairn session show s1", head: "\n### Drain the queue\n"}
	su := sess.add(0.9, "- Decision: The queue is drained nightly by the cleanup job at 02:00 from cron.\n")
	su.dup, iu.dup = []*unit{iu}, []*unit{su}
	older := &group{sec: secSessions, id: "s0", title: "Cleanup job", fetch: "cairn session show s0", head: "\n### Cleanup job\n"}
	ou := older.add(0.5, "- The cleanup job drains the queue nightly at 02:00 from cron.\n")
	ou.words = lex.ContentWords(ou.text)
	var heads [numSections]string
	heads[secCore], heads[secSessions] = "## Core memory", "## Latest sessions"
	groups := []*group{item, sess, older}
	fill(groups, heads, 2000)
	if !su.taken || !iu.skip || !ou.skip {
		t.Fatalf("after fill: bullet taken %v, item skipped %v, older bullet skipped %v; want all three", su.taken, iu.skip, ou.skip)
	}
	untake(groups, su)
	text, _ := assemble(groups, heads, 2000)
	for _, want := range []string{"Left out for room: 3 memories", "drained nightly", "Cleanup job"} {
		if !strings.Contains(text, want) {
			t.Errorf("pack lacks %q once the bullet is dropped:\n%s", want, text)
		}
	}
}

// A group that has nothing to show (no unit, or units that say nothing
// once the rest is shown) is not listed as left out for room: the pack
// had room, and a session asked "What do you remember?" and answered
// "Ok." is no memory the agent should fetch.
func TestManifestNothingToShow(t *testing.T) {
	bare := &group{sec: secSessions, id: "s1", title: "What do you remember about this project", fetch: "cairn session show s1", head: "\n### What do you remember about this project\n"}
	answered := &group{sec: secSessions, id: "s2", title: "Is the export done", fetch: "cairn session show s2", head: "\n### Is the export done\n"}
	au := answered.add(0.8, "")
	au.render = func(int) string { au.skip = true; return "" }
	item := &group{sec: secCore, id: "01J0000000000000000000ITEM", title: "The export runs nightly", fetch: "cairn show ITEM"}
	item.add(0.7, "- **The export runs nightly**\n")
	var heads [numSections]string
	heads[secCore], heads[secSessions] = "## Core memory", "## Latest sessions"
	groups := []*group{item, bare, answered}
	fill(groups, heads, 2000)
	text, _ := assemble(groups, heads, 2000)
	if strings.Contains(text, "Left out") || !strings.Contains(text, "The export runs nightly") {
		t.Errorf("pack:\n%s", text)
	}
}

// retirerFor is what a pack asks of sessions: their digests, their
// vocabulary and the retirer over them and the filler.
func retirerFor(m *memory.Memory, sessions []*recent.Session) ([]*digest.Summary, *open.Vocab, *derived.Retirer) {
	sums := recent.Digests(sessions)
	v := open.NewVocab(sums)
	stmts := make([]retire.Statement, 0, len(filler))
	for _, f := range filler {
		stmts = append(stmts, retire.Statement{Text: f, Rank: 2})
	}
	return sums, v, derived.New(m, stmts, sums, v)
}

// filler are, as in digest's tests, statements about other things, so that the words of the
// statements under test are rare in the memory, as they are in one.
var filler = []string{
	"The nightly report is mailed to the finance team at six.",
	"Invoices are rendered with a headless browser to PDF.",
	"The login form keeps the session in an httpOnly cookie.",
	"Migrations run with `make migrate` before the app starts.",
	"Search results are cached for ten minutes in memory.",
	"We never log request bodies because they hold card numbers.",
	"The mobile app reads the same API as the dashboard.",
	"Error pages show a support code the help desk can look up.",
	"Translations live in locales/ as one JSON file per language.",
	"The design system's buttons come from the shared UI package.",
	"Uploads larger than 20 MB are refused by the gateway.",
	"Feature flags are read once at startup from the flags table.",
}

// TestSessionSaysOnce: what a session's taken bullets already say is not
// said again: a preference the user stated in the request, a root cause
// that joins two outcome bullets, an ended session's request sentence a
// bullet says word for word. A request is not left out for a bullet that
// says only part of it, since the decision and its reason often sit in
// two of its sentences.
func TestSessionSaysOnce(t *testing.T) {
	m, _ := newTestMemory(t)
	pref := "From now on run the linter before every commit, it caught me twice last month."
	newest := sess("c3", map[int][]string{
		digest.Request:     {"The retry test is flaky again, fix it. " + pref},
		digest.Outcome:     {"The flake is gone after the clock change.", "The backoff read the wall clock while the test runs in virtual time."},
		digest.Root:        {"The flake is gone after the clock change. The backoff read the wall clock while the test runs in virtual time."},
		digest.Preferences: {pref},
	})
	older := sess("a1", map[int][]string{
		digest.Request:   {"Set up the booking table.", "Two nodes behind the load balancer, so forget the GenServer. Do the exclusion constraint. Keep it in one migration file."},
		digest.Outcome:   {"The robust fix is an exclusion constraint on the booking slot."},
		digest.Rejected:  {"Two nodes behind the load balancer, so forget the GenServer."},
		digest.Decisions: {"Bookings are claimed with an exclusion constraint."},
	})
	text := sessionsPack(m, newest, older)
	if n := strings.Count(text, "run the linter before every commit"); n != 1 {
		t.Errorf("the preference is shown %d times, want once:\n%s", n, text)
	}
	if strings.Contains(text, "Root cause:") {
		t.Errorf("a root cause the outcome bullets hold is shown again:\n%s", text)
	}
	if !strings.Contains(text, "Request: Do the exclusion constraint. Keep it in one migration file.") || strings.Count(text, "so forget the GenServer") != 1 || !strings.Contains(text, "The backoff read the wall clock") {
		t.Errorf("a request lost a sentence no bullet says, said one again, or what only one bullet says is missing:\n%s", text)
	}

	// An older request whose every sentence the session's bullets say
	// between them is left out whole.
	older.Digest.Parts[digest.Request] = []string{"Set up the booking table.", "Two nodes behind the load balancer, so forget the GenServer. Do the exclusion constraint."}
	text = sessionsPack(m, newest, older)
	if strings.Contains(text, "Do the exclusion constraint") || !strings.Contains(text, "Rejected: Two nodes behind the load balancer") {
		t.Errorf("an older request its bullets say in full is shown, or its bullets are not:\n%s", text)
	}
}

// TestRootCauseLimitChanged: a root cause that blames a value being only
// so much goes once a newer session gave the value another (blind AR's
// transit feed: "ops-02 only has Python 3.9" once it has 3.12); the rest
// of the cause, and a cause of no such value, stay.
func TestRootCauseLimitChanged(t *testing.T) {
	m, _ := newTestMemory(t)
	newest := sess("c3", map[int][]string{
		digest.Request: {"IT upgraded ops-02 to Ubuntu 24.04, so it has Python 3.12 now."},
		digest.Outcome: {"The lookback is 7 days now, so late files are picked up."},
	})
	older := sess("a1", map[int][]string{
		digest.Request: {"Why is the converter stdlib only?"},
		digest.Root: {"Heads-up: the ops server, ops-02, only has Python 3.9, which is why the converter is stdlib only.",
			"Store 114 had a 4-day outage. fct_sales missed its files because our lookback is only 3 days.",
			"The report only ran once because the timer had Persistent=false."},
	})
	text := sessionsPack(m, newest, older)
	for _, gone := range []string{"Python 3.9", "only 3 days"} {
		if strings.Contains(text, gone) {
			t.Errorf("%q is shown after a newer session changed it:\n%s", gone, text)
		}
	}
	for _, kept := range []string{"Store 114 had a 4-day outage.", "Persistent=false"} {
		if !strings.Contains(text, kept) {
			t.Errorf("%q is missing:\n%s", kept, text)
		}
	}
	// A newer statement on the same server that gives Python no other
	// number leaves the cause alone.
	cron := sess("c3", map[int][]string{
		digest.Request: {"Schedule the nightly build."},
		digest.Outcome: {"Cron on ops-02 (user feedbuild) runs it every night at 02:15 from /srv/feedbuild, logging to /var/log/feedbuild.log.",
			"`python3 tools/set_interval.py 1800` prints the commands."},
	})
	if text := sessionsPack(m, cron, older); !strings.Contains(text, "Python 3.9") {
		t.Errorf("the cause went without a newer Python:\n%s", text)
	}
}

// TestRequestLeavesItsRule: a rule the user stated in a request and that
// its Preference bullet shows is said once, under its label; the rest of
// the request stays (over all packs, 454 preference bullets were said
// again word for word by a request shown beside them).
func TestRequestLeavesItsRule(t *testing.T) {
	m, _ := newTestMemory(t)
	rule := "From now on every DAG gets an owner and an on_failure_callback that posts to #data-alerts."
	newest := sess("c3", map[int][]string{
		digest.Request: {"Add the backfill for March."},
		digest.Outcome: {"March is backfilled: 31 runs, all green."},
	})
	older := sess("a1", map[int][]string{
		digest.Request:     {"Schedule the marts on the staging tables.", "Datasets it is, the marts wait for the staging tables and not for a cron at six. " + rule},
		digest.Outcome:     {"The marts DAG is scheduled on the staging datasets."},
		digest.Preferences: {rule},
	})
	text := sessionsPack(m, newest, older)
	if n := strings.Count(text, "every DAG gets an owner"); n != 1 {
		t.Errorf("the rule is shown %d times, want once:\n%s", n, text)
	}
	if !strings.Contains(text, "Datasets it is, the marts wait for the staging tables and not for a cron at six.") {
		t.Errorf("the request lost what it asked:\n%s", text)
	}
}

// TestSessionSaysEachSentence: a bullet that says one sentence of
// another does not stand for it: the outcome's first sentence is shown
// once the Rejected bullet took its second (blind AB's langgraph agent).
func TestSessionSaysEachSentence(t *testing.T) {
	m, _ := newTestMemory(t)
	why := "I didn't use `create_react_agent` because we need a node between the model's tool call and its execution for the refund approval, and wedging that into the prebuilt agent is more awkward than five lines of graph."
	s := sess("c3", map[int][]string{
		digest.Request:  {"Let's build the agent."},
		digest.Outcome:  {"The agent is a hand-built StateGraph: agent, approve, tools. " + why},
		digest.Rejected: {why},
	})
	newer := sess("d4", map[int][]string{digest.Request: {"Persist the threads in Postgres."}, digest.Outcome: {"Threads are kept by the Postgres checkpointer."}})
	sessions := []*recent.Session{newer, newer, newer, s} // an older session: its outcome ranks below its rejection
	text := sessionPack(t, m, sessions, 3, 2000)
	if !strings.Contains(text, "hand-built StateGraph") {
		t.Errorf("the outcome's first sentence is missing:\n%s", text)
	}
	if n := strings.Count(text, "create_react_agent"); n != 1 {
		t.Errorf("the rejection is shown %d times, want once:\n%s", n, text)
	}
}

// TestRequestOfNothing: a request that asks nothing ("Good.") is no line.
func TestRequestOfNothing(t *testing.T) {
	m, _ := newTestMemory(t)
	s := sess("c3", map[int][]string{
		digest.Request: {"Package the gem for release.", "Good."},
		digest.Outcome: {"The gem builds and installs cleanly."},
	})
	sessions := []*recent.Session{s}
	text := sessionPack(t, m, sessions, 0, 2000)
	if strings.Contains(text, "Request: Good.") {
		t.Errorf("a request that asks nothing is shown:\n%s", text)
	}
}

// TestRequestShortenedToNothing: a request cut to its first sentence
// for room is no line when that sentence asks nothing ("ok.").
func TestRequestShortenedToNothing(t *testing.T) {
	m, _ := newTestMemory(t)
	long := "ok. Keep the refresh token in SecureStorage" + strings.Repeat(" and the access token in memory only, since it expires after ten minutes anyway", 8) + "."
	s := sess("c3", map[int][]string{digest.Request: {"Store the tokens safely.", long}})
	sessions := []*recent.Session{s}
	text := sessionPack(t, m, sessions, 0, 120)
	if strings.Contains(text, "Request: ok.") {
		t.Errorf("a request shortened to \"ok.\" is shown:\n%s", text)
	}
}

// sessionPack is the pack of budget tokens that the session of rank k of
// sessions alone makes.
func sessionPack(t *testing.T, m *memory.Memory, sessions []*recent.Session, k, budget int) string {
	t.Helper()
	sums, v, r := retirerFor(m, sessions)
	var cores derived.Titles[*unit]
	var heads [numSections]string
	heads[secSessions] = "## Latest sessions"
	groups := []*group{sessionGroup(sessions[k], k, sessions, newestYear(sessions, nil), v, r, &cores, v.DealtWith(sums))}
	fill(groups, heads, budget)
	text, _ := assemble(groups, heads, budget)
	return text
}

// TestStatusLeftOut: a report that says only that it is done ("Found and
// fixed.") is left out, an older session's short decision ("Use
// Postgres.") is not.
func TestStatusLeftOut(t *testing.T) {
	m, _ := newTestMemory(t)
	newest := sess("c3", map[int][]string{
		digest.Request: {"The export job times out on big tenants."},
		digest.Outcome: {"The export streams rows from a cursor now."},
	})
	older := sess("a1", map[int][]string{
		digest.Request:   {"Pick the database for the job queue."},
		digest.Outcome:   {"Found and fixed.", "The queue table has an index on run_at."},
		digest.Decisions: {"Use Postgres."},
	})
	text := sessionsPack(m, newest, older)
	if strings.Contains(text, "Found and fixed") || !strings.Contains(text, "Decision: Use Postgres.") {
		t.Errorf("want the status left out and the short decision kept:\n%s", text)
	}
}

// sessionsPack is the "Latest sessions" part of a 2,000-token pack of
// sessions, newest first, and nothing else.
func sessionsPack(m *memory.Memory, sessions ...*recent.Session) string {
	sums, v, r := retirerFor(m, sessions)
	var cores derived.Titles[*unit]
	var heads [numSections]string
	heads[secSessions] = "## Latest sessions"
	var groups []*group
	for k, s := range sessions {
		groups = append(groups, sessionGroup(s, k, sessions, newestYear(sessions, nil), v, r, &cores, v.DealtWith(sums)))
	}
	fill(groups, heads, 2000)
	text, _ := assemble(groups, heads, 2000)
	return text
}

// TestHeadingChangedAll: a session whose title a newer session changed
// in every word is headed by what its first current outcome says, not
// by "Session".
func TestHeadingChangedAll(t *testing.T) {
	m, _ := newTestMemory(t)
	newest := sess("c3", map[int][]string{
		digest.Outcome: {"The registry is ghcr.io/acme now instead of quay.io/acme."},
	})
	older := sess("a1", map[int][]string{
		digest.Request: {"Push images to quay.io/acme."},
		digest.Outcome: {"The release job tags images with the git tag. It also signs them."},
	})
	older.Title = "Push images to quay.io/acme"
	text := sessionsPack(m, newest, older)
	if strings.Contains(text, "### Session") || !strings.Contains(text, "### The release job tags images with the git tag") {
		t.Errorf("want the older session headed by its current outcome:\n%s", text)
	}
}

// TestStopgapEnds: what an older session said holds until something
// arrives ("Until Kate's list … arrives, object pages are built without
// images") goes once a newer session says it came.
func TestStopgapEnds(t *testing.T) {
	m, _ := newTestMemory(t)
	older := sess("a1", map[int][]string{
		digest.Request: {"Build the object pages from the nightly LIDO export."},
		digest.Outcome: {"Every object has a page at /object/<accession>.", "Until Kate's list of which images we may show arrives, object pages are built without images."},
	})
	newest := sess("c3", map[int][]string{
		digest.Request: {"Kate's list is in: images may be shown when the rights term is Public domain or CC BY-NC 4.0."},
		digest.Outcome: {"Object pages show the image when its rights term is on Kate's list."},
	})
	text := sessionsPack(m, newest, older)
	if strings.Contains(text, "built without images") || !strings.Contains(text, "/object/<accession>") {
		t.Errorf("a stopgap whose wait ended is shown, or the rest of its session is not:\n%s", text)
	}
}

// TestRequestLeftOnlyThanks: a request whose rule the session's
// Preference bullet says word for word is shown without it, and what is
// left of it, only thanks ("Good catch."), is not shown at all.
func TestRequestLeftOnlyThanks(t *testing.T) {
	m, _ := newTestMemory(t)
	rule := "From now on indexes only go in via firestore.indexes.json, nobody creates them in the console."
	newest := sess("c3", map[int][]string{
		digest.Request: {"Push notifications next."},
		digest.Outcome: {"Notifications go out through FCM from the onTripUpdate trigger."},
	})
	older := sess("a1", map[int][]string{
		digest.Request:     {"The trips screen is empty on prod.", "Good catch. " + rule},
		digest.Outcome:     {"The query needed a composite index on ownerId and startDate, now in firestore.indexes.json."},
		digest.Preferences: {rule},
	})
	text := sessionsPack(m, newest, older)
	if strings.Contains(text, "Good catch") || !strings.Contains(text, "Preference: "+rule) {
		t.Errorf("want the rule as a preference and no request of thanks:\n%s", text)
	}
}
