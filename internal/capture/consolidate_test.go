package capture

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/summarize"
	"github.com/cairn-mem/cairn/internal/transcript"
)

// git runs git in the memory's repository.
func git(t *testing.T, m *memory.Memory, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", m.Dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestConsolidateSupersedes stores a first statement, then a later one,
// as two captures, and checks what core memory holds: a later statement
// about the same subject with another value replaces the first (which git
// keeps), the same thing said again confirms it, and a statement about
// something else leaves it alone.
func TestConsolidateSupersedes(t *testing.T) {
	dec, fact, pref := summarize.Decision, summarize.Fact, summarize.Preference
	for _, tc := range []struct {
		name          string
		kind          summarize.Kind
		first, second string // titles, as the summarizer writes them
		body2         string
		subj1, subj2  string // "" lets consolidation read them from the titles
		want          string // superseded, confirmed, added
	}{
		{name: "port moved", kind: fact, first: "The API listens on port 8080", second: "The API now listens on 8081", want: "superseded"},
		{name: "port moved, said as a move", kind: fact, first: "The API server listens on port 8080",
			second: "We moved the API server to port 9090 because 8080 clashed with the admin UI", want: "superseded"},
		{name: "version bumped", kind: fact, first: "We're on Python 3.11", second: "Bumped Python to 3.12 in the Dockerfile", want: "superseded"},
		{name: "library switched", kind: dec, first: "Let's go with chi for the HTTP router", second: "Switched the HTTP router from chi to gorilla/mux", want: "superseded"},
		{name: "router chosen again differently", kind: dec, first: "Use chi as the router", second: "Use gorilla/mux as the router", want: "superseded"},
		{name: "decision reversed", kind: dec, first: "We'll use Redis for pub/sub between the API and the workers",
			second: "We're dropping Redis after all, Postgres LISTEN/NOTIFY is enough", want: "superseded"},
		{name: "test command changed", kind: fact, first: "Tests are run with `make test`", second: "Run the tests with `just test` now", want: "superseded"},
		{name: "url moved", kind: fact, first: "Staging lives at https://staging.acme.dev", second: "Staging is now at https://stage.acme.io", want: "superseded"},
		{name: "subjects given by the summarizer", kind: fact, first: "Jobs are claimed with advisory locks", second: "Jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED",
			subj1: "job claiming", subj2: "job claiming", want: "superseded"},
		{name: "bucket moved", kind: fact, first: "The raw bucket is gs://acme-raw", second: "heads up: the raw bucket is now gs://acme-raw-v2, the old one is read-only", want: "superseded"},
		{name: "default branch renamed", kind: fact, first: "The default branch is master", second: "The default branch is main now, not master", want: "superseded"},
		{name: "Airflow upgraded", kind: fact, first: "Airflow is on 2.7.3 in prod", second: "We upgraded Airflow to 2.9.1", want: "superseded"},
		{name: "same port said again", kind: fact, first: "The API listens on port 8080", second: "The API listens on port 8080", want: "confirmed"},
		{name: "same decision reworded", kind: dec, first: "Use PostgreSQL for the job queue", second: "Using PostgreSQL for the job queues", want: "confirmed"},

		// Near misses: other subjects, however alike the wording.
		{name: "two services, two ports", kind: fact, first: "The API listens on port 8080", second: "The admin UI listens on port 3000", want: "added"},
		{name: "same port, other service", kind: fact, first: "The API listens on port 8080", second: "The web app listens on port 8080", want: "added"},
		{name: "a service's test command changed", kind: fact, first: "The billing service is in services/billing and its tests run with `make test-billing`",
			second: "Billing tests now run with `just test billing`", want: "superseded"},
		{name: "one service and its metrics endpoint", kind: fact, first: "The API listens on port 8080", second: "The API's metrics endpoint listens on 9100", want: "added"},
		{name: "two services' test commands", kind: fact, first: "Billing tests run with `make test-billing`", second: "Frontend tests run with `pnpm test`", want: "added"},
		{name: "two databases", kind: fact, first: "Postgres runs on localhost:5433", second: "Redis runs on localhost:6379", want: "added"},
		{name: "two versions of two tools", kind: fact, first: "We're on Python 3.12", second: "Node 20.11 is required for the frontend build", want: "added"},
		{name: "test and lint commands", kind: fact, first: "Tests are run with `make test`", second: "Lint with `make lint` before pushing", want: "added"},
		{name: "two decisions on two subjects", kind: dec, first: "Use chi for the HTTP router", second: "Use sqlc for database access", want: "added"},
		{name: "dropping something else", kind: dec, first: "We'll use Redis for pub/sub", second: "We're dropping Celery in favour of RQ for background jobs", want: "added"},
		{name: "two buckets", kind: fact, first: "The raw bucket is gs://acme-raw", second: "Curated data lands in gs://acme-curated", want: "added"},
		{name: "two tools' versions", kind: fact, first: "Airflow is on 2.9.1 in prod", second: "dbt is pinned to 1.7.4", want: "added"},
		{name: "two preferences", kind: pref, first: "Never push directly to main", second: "Keep commit messages under 72 characters", want: "added"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testMemory(t)
			ctx := context.Background()
			capture := func(session, key string, c summarize.Candidate) *CaptureResult {
				t.Helper()
				res, err := Capture(ctx, m, Batch{Session: session, Key: key, Final: true, Trigger: "stop",
					Events:     []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "work on it"}},
					Summarizer: fixed{c}})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Items) != 1 {
					t.Fatalf("items %+v", res.Items)
				}
				return res
			}
			first := capture("s1", "k1", summarize.Candidate{Kind: tc.kind, Title: tc.first, Importance: 0.7, Subject: tc.subj1}).Items[0]
			second := capture("s2", "k2", summarize.Candidate{Kind: tc.kind, Title: tc.second, Body: tc.body2, Importance: 0.6, Subject: tc.subj2}).Items[0]
			if second.Action != tc.want {
				t.Fatalf("%q then %q: %s, want %s", tc.first, tc.second, second.Action, tc.want)
			}
			tree := git(t, m, "ls-tree", "-r", "--name-only", "HEAD")
			hist := git(t, m, "log", "--format=", "--name-only", "HEAD")
			switch tc.want {
			case "superseded":
				if strings.Contains(tree, first.Path) || !strings.Contains(hist, first.Path) {
					t.Errorf("old item %s: in the tree %t, in history %t", first.Path, strings.Contains(tree, first.Path), strings.Contains(hist, first.Path))
				}
				data := git(t, m, "show", "HEAD:"+second.Path)
				if !strings.Contains(data, model.KeySupersedes+": "+first.ID) || second.Supersedes != first.ID {
					t.Errorf("new item does not record what it supersedes:\n%s", data)
				}
			case "confirmed":
				if second.ID != first.ID || !strings.Contains(tree, first.Path) {
					t.Errorf("confirmed %+v, first %+v", second, first)
				}
			case "added":
				if !strings.Contains(tree, first.Path) || !strings.Contains(tree, second.Path) {
					t.Errorf("both items should be in the tree:\n%s", tree)
				}
			}
		})
	}
}

// TestConsolidateRetiresSetting: a decision that gives a named setting a
// new value retires the fact that gave it the old one, whatever the
// wording; a fact about another setting stays.
func TestConsolidateRetiresSetting(t *testing.T) {
	m := testMemory(t)
	capture := func(key string, cs ...summarize.Candidate) *CaptureResult {
		t.Helper()
		return captureFixed(t, m, key, cs...)
	}
	first := capture("s1",
		summarize.Candidate{Kind: summarize.Fact, Title: "The service config still has max_idle_conns = 4"},
		summarize.Candidate{Kind: summarize.Fact, Title: "The service config sets read-timeout to 30"})
	second := capture("s2", summarize.Candidate{Kind: summarize.Decision, Title: "Raise max_idle_conns to 16 so bursts stop opening sockets"})
	tree := git(t, m, "ls-tree", "-r", "--name-only", "HEAD")
	retired := 0
	for _, c := range second.Items {
		if c.Action == "retired" && c.ID == first.Items[0].ID {
			retired++
		}
	}
	if retired != 1 || strings.Contains(tree, first.Items[0].Path) || !strings.Contains(tree, first.Items[1].Path) {
		t.Errorf("changes %+v\ntree:\n%s", second.Items, tree)
	}
}

// captureFixed captures one prompt as session key, the summarizer
// proposing cs.
func captureFixed(t *testing.T, m *memory.Memory, key string, cs ...summarize.Candidate) *CaptureResult {
	t.Helper()
	res, err := Capture(context.Background(), m, Batch{Session: key, Key: key, Final: true, Trigger: "stop",
		Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "go"}}, Summarizer: fixed(cs)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestConsolidateAfterRetiring: a batch whose first candidate retires an
// item and whose next one reads like that item captures (a retired item
// is no match: it has no file left to confirm or supersede); the
// capture job failed on it, and the session's last segment was never
// summarised.
func TestConsolidateAfterRetiring(t *testing.T) {
	m := testMemory(t)
	capture := func(key string, cs ...summarize.Candidate) *CaptureResult {
		t.Helper()
		return captureFixed(t, m, key, cs...)
	}
	first := capture("s1", summarize.Candidate{Kind: summarize.Fact, Title: "The service config still has max_idle_conns = 4"})
	second := capture("s2",
		summarize.Candidate{Kind: summarize.Decision, Title: "Raise max_idle_conns to 16 so bursts stop opening sockets"},
		summarize.Candidate{Kind: summarize.Fact, Title: "The service config still has max_idle_conns"})
	var actions []string
	for _, c := range second.Items {
		actions = append(actions, c.Action)
	}
	tree := git(t, m, "ls-tree", "-r", "--name-only", "HEAD")
	if strings.Contains(tree, first.Items[0].Path) || !slices.Contains(actions, "retired") {
		t.Errorf("changes %v\ntree:\n%s", actions, tree)
	}
}

// TestConsolidateKeepsSubject: items remember their subject, so that a
// later statement worded quite differently still finds them.
func TestConsolidateKeepsSubject(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	var ids []string
	for i, c := range []summarize.Candidate{
		{Kind: summarize.Decision, Title: "Claim jobs with advisory locks", Subject: "job claiming"},
		{Kind: summarize.Decision, Title: "Workers take jobs with SKIP LOCKED", Subject: "job claiming"},
	} {
		res, err := Capture(ctx, m, Batch{Session: fmt.Sprint("s", i), Key: fmt.Sprint("k", i), Final: true, Trigger: "stop",
			Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "go"}}, Summarizer: fixed{c}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, res.Items[0].ID)
		data := readRepo(t, m, res.Items[0].Path)
		if !strings.Contains(data, "subject: job claiming") {
			t.Errorf("item without its subject:\n%s", data)
		}
	}
	items, _, err := m.List(ctx, memory.Filter{Kind: model.Decision})
	if err != nil || len(items) != 1 || items[0].Item.ID != ids[1] {
		t.Errorf("decisions: %d, %v", len(items), err)
	}
}

// TestConsolidateFromSessions: two sessions summarised by the built-in
// summarizer; what the second one changes (a port, a decision) replaces
// what the first one said, and what it does not touch stays.
func TestConsolidateFromSessions(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	session := func(id string, said ...string) []model.ItemChange {
		t.Helper()
		var evs []transcript.Event
		for i, s := range said {
			k := transcript.KindAssistantText
			if i%2 == 0 {
				k = transcript.KindUserPrompt
			}
			evs = append(evs, transcript.Event{Kind: k, Text: s})
		}
		res, err := Capture(ctx, m, Batch{Session: id, Key: id, Final: true, Trigger: "stop", Events: evs})
		if err != nil {
			t.Fatal(err)
		}
		return res.Items
	}
	session("s1",
		"Set up the notifier. The API listens on port 8080 and the admin UI serves on port 3000.",
		"Done. We'll use Redis for pub/sub between the API and the workers, because it is already deployed.")
	changes := session("s2",
		"8080 clashes with the new proxy, so the API now listens on 8081.",
		"Updated the config. We're dropping Redis after all: Postgres LISTEN/NOTIFY is enough for this volume.")
	superseded := 0
	for _, c := range changes {
		if c.Action == "superseded" {
			superseded++
		}
	}
	tree := git(t, m, "ls-tree", "-r", "--name-only", "HEAD")
	var current []string
	for _, p := range strings.Split(tree, "\n") {
		if strings.HasPrefix(p, "core/") {
			current = append(current, p)
		}
	}
	all := strings.Join(current, "\n")
	var titles []string
	for _, c := range changes {
		titles = append(titles, c.Title)
	}
	if superseded != 2 || len(current) != 3 || strings.Contains(all, "api-listens-on-port-8080") || strings.Contains(all, "use-redis") ||
		!strings.Contains(strings.Join(titles, "\n"), "listens on 8081") || !strings.Contains(all, "admin-ui-serves-on-port-3000") {
		t.Errorf("changes %+v\ncore items:\n%s", changes, all)
	}
}

// TestConsolidateRetiresChanged: a decision or fact that announces a
// change (instead of, no longer, switched, turned off, is now) retires
// the older decisions and facts about the same topic that still give
// the replaced value, across the two kinds, even when they share no
// subject; so does one that gives an attribute (a port, a path) a new
// value and names the old one, or says it is back to the default, when
// the older names no other entity; an item on another topic that holds
// the same value stays.
func TestConsolidateRetiresChanged(t *testing.T) {
	dec, fact := summarize.Decision, summarize.Fact
	for _, tc := range []struct {
		name          string
		k1, k2        summarize.Kind
		first, second string
		body1         string
		want          bool // the first is retired
	}{
		{name: "port named as replaced", k1: fact, k2: fact,
			first: "`make dev` starts everything", body1: "`make dev` starts everything: the backend listens on port 3001 and the web server proxies to it.",
			second: "The backend now listens on port 4100 instead of 3001", want: true},
		{name: "store replaced, decision then fact", k1: dec, k2: fact,
			first: "Move the filter state into a Redux slice", second: "Filters now live in the URL query string instead of the Redux slice", want: true},
		{name: "spelled-out number replaced, fact then decision", k1: fact, k2: dec,
			first: "The nightly job recomputes the last two days of orders", second: "Recompute the last 5 days of orders instead of 2, since late rows arrive up to 4 days late", want: true},
		{name: "topic said with other endings", k1: fact, k2: dec,
			first: "The rollup is now incremental, recomputing the last 2 weeks", second: "Changed: the incremental rollup recomputes the last 4 weeks instead of 2", want: true},
		{name: "no longer uses", k1: fact, k2: dec,
			first: "The orders DB password is stored as a Sealed Secret", second: "Orders no longer uses Sealed Secrets: the DB password comes from Secrets Manager", want: true},
		{name: "from X to Y", k1: dec, k2: fact,
			first: "We'll run the nightly export on cron at 02:00 UTC", second: "The nightly export moved from 02:00 to 04:30 UTC", want: true},
		{name: "new port, old one named, server worded otherwise", k1: fact, k2: fact,
			first: "The server runs on port 4000 (npm start in web/)", second: "The API now serves on 3100 since the VPN client holds 4000", want: true},
		{name: "new port said as a decision, old one named", k1: dec, k2: dec,
			first: "We'll serve the backend on port 7000", second: "Put the service on port 7100 (7000 is taken by the profiler)", want: true},
		{name: "back to the default", k1: fact, k2: fact,
			first: "The exporter's scrape-port defaults to :9400 now", second: "The exporter is back on the default :9100", want: true},
		{name: "back to an earlier value", k1: fact, k2: fact,
			first: "The dev server listens on 5174", second: "The dev server is back on port 5173", want: true},
		{name: "the option taken, named as replaced", k1: dec, k2: dec,
			first: "A small table in the SQLite database we already have", body1: "The database is already there and the counters survive restarts.",
			second: "The rate limiter now uses Redis instead of the SQLite table", want: true},

		// Near misses: the same value on another topic, or another topic
		// altogether.
		{name: "same old port, other service", k1: fact, k2: fact,
			first: "The metrics exporter listens on 3001", second: "The backend now listens on port 4100 instead of 3001", want: false},
		{name: "same store, other state", k1: dec, k2: fact,
			first: "Keep the theme in a Redux slice", second: "Filters now live in the URL query string instead of the Redux slice", want: false},
		{name: "same number, other topic", k1: fact, k2: fact,
			first: "Failed jobs are retried 3 times", second: "The nightly window now covers 7 days instead of 3", want: false},
		{name: "a change elsewhere", k1: fact, k2: dec,
			first: "The API rate limit is 100 requests per minute", second: "Switched the CI runners to arm64 instead of x86", want: false},
		{name: "no change language", k1: fact, k2: fact,
			first: "The backend listens on port 3001", second: "The admin panel listens on 3001 too", want: false},
		{name: "old port named as another service's", k1: fact, k2: fact,
			first: "Postgres runs on localhost:5433", second: "Redis now runs on localhost:6380 since 5433 belongs to Postgres", want: false},
		{name: "old port kept as one of the values", k1: fact, k2: fact,
			first: "The backend listens on 3001", second: "The web server now proxies :3000 to the backend on 3001", want: false},
		{name: "another service back on its default", k1: fact, k2: fact,
			first: "The admin UI listens on 3000", second: "The API is back on the default :8080", want: false},
		{name: "the option taken, another one replaced", k1: dec, k2: dec,
			first: "A small table in the SQLite database we already have", second: "The session store now uses Redis instead of the in-memory dict", want: false},
		{name: "a fallback is no return", k1: fact, k2: fact,
			first: "The importer keeps its spool at /var/spool/importer", second: "The importer falls back to /tmp/importer when the disk is full", want: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testMemory(t)
			ctx := context.Background()
			capture := func(key string, c summarize.Candidate) *CaptureResult {
				t.Helper()
				res, err := Capture(ctx, m, Batch{Session: key, Key: key, Final: true, Trigger: "stop",
					Events: []transcript.Event{{Kind: transcript.KindUserPrompt, Text: "go"}}, Summarizer: fixed{c}})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			first := capture("s1", summarize.Candidate{Kind: tc.k1, Title: tc.first, Body: tc.body1, Importance: 0.7}).Items[0]
			second := capture("s2", summarize.Candidate{Kind: tc.k2, Title: tc.second, Importance: 0.6})
			tree := git(t, m, "ls-tree", "-r", "--name-only", "HEAD")
			hist := git(t, m, "log", "--format=", "--name-only", "HEAD")
			gone := !strings.Contains(tree, first.Path)
			if gone != tc.want || !strings.Contains(hist, first.Path) {
				t.Errorf("%q then %q: first gone %t, want %t; changes %+v", tc.first, tc.second, gone, tc.want, second.Items)
			}
		})
	}
}

// TestConsolidateFailureReportsWrites: what consolidation wrote before it
// failed is committed and reported, not committed unsaid.
func TestConsolidateFailureReportsWrites(t *testing.T) {
	m := testMemory(t)
	if err := os.MkdirAll(filepath.Join(m.Dir, "core"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(m.Dir, "core", "patterns"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := captureFixed(t, m, "s1",
		summarize.Candidate{Kind: summarize.Fact, Title: "The API listens on port 8080"},
		summarize.Candidate{Kind: summarize.Pattern, Title: "Handlers return typed errors"})
	tree := git(t, m, "ls-tree", "-r", "--name-only", "HEAD")
	if !strings.Contains(tree, "core/facts/") {
		t.Fatalf("setup: the fact written before the failure was not committed:\n%s", tree)
	}
	if len(res.Items) == 0 {
		t.Errorf("committed a core item the result does not report: items %v\ntree:\n%s", res.Items, tree)
	}
}
