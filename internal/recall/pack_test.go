package recall

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

var update = flag.Bool("update", false, "rewrite the golden packs in testdata/pack")

// projectMemory is a realistic memory of a Go service after a week of
// work: core items (one superseded by a newer one still in the tree),
// six sessions with summaries in the format of docs/formats.md, one in
// the older format, and three sessions /clear left empty, changed last.
func projectMemory(t *testing.T) *memory.Memory {
	t.Helper()
	m, _ := newTestMemory(t)
	files := map[string]string{}
	n := 0
	item := func(kind model.Kind, title, body string, imp float64, pinned bool, day int, keys ...string) string {
		n++
		when := time.Date(2026, 3, day, 10, 0, 0, 0, time.UTC)
		it := model.NewItem(kind, title, when)
		it.ID = fmt.Sprintf("01JQ%020d%02d", 0, n)
		it.Body, it.Importance, it.Pinned = body, imp, pinned
		data, err := it.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) > 0 {
			data = model.WithKeys(data, keys...)
		}
		files[it.Path()] = string(data)
		return it.ID
	}
	item(model.Preference, "Answer in British English", "The user wants British spelling in code comments, commit messages and docs.", 0.6, true, 2)
	item(model.Decision, "Jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED", "Workers never block each other and a crashed worker's rows come back after its transaction ends. Rejected: advisory locks, which leak when a connection dies.", 0.9, false, 3)
	item(model.Decision, "Use PostgreSQL for the job queue", "We chose PostgreSQL over Redis because enqueueing must commit with the data it refers to.", 0.85, false, 2)
	old := item(model.Fact, "The API listens on port 8080", "Set in cmd/api/main.go.", 0.6, false, 2, "tags", "environment")
	item(model.Fact, "The API listens on port 8081", "Moved from 8080 because the metrics exporter took 8080 on the staging hosts.", 0.7, false, 6, model.KeySupersedes, old)
	item(model.Fact, "Hourly totals were wrong because minutes were multiplied by time.Hour", "The report converted minutes with time.Duration(m) * time.Hour. It now uses time.Minute, and a test covers a day with 90-minute slots.", 0.75, false, 4)
	item(model.Preference, "Never use an ORM", "Queries are written by hand with pgx; the user finds generated SQL hard to review.", 0.7, false, 2)
	item(model.Fact, "Run the tests with make test", "make test runs go test -race ./... with the test database from docker compose; make test-short skips the integration tests.", 0.6, false, 3)
	item(model.Fact, "Migrations run with goose", "Migrations live in db/migrations and run with goose up at start-up; never edit an applied migration.", 0.6, false, 3)
	item(model.Pattern, "Errors are wrapped with what failed", "Wrap with fmt.Errorf(\"claim job %d: %w\", id, err): the message says what failed and where, never just \"failed\".", 0.55, false, 4)
	item(model.Fact, "Staging runs on two hosts behind Caddy", "staging-1 and staging-2; Caddy terminates TLS and forwards to the API. Deploys go through make deploy-staging.", 0.5, false, 5)
	item(model.Decision, "Retries back off exponentially up to ten minutes", "A failed job is retried after 2^n seconds, capped at ten minutes, at most eight times, so that a broken upstream is not hammered.", 0.65, false, 5)
	item(model.Note, "The CI runner is slow on Mondays", "Shared runners are busy at the start of the week; the cache makes up for most of it.", 0.2, false, 5)
	item(model.Fact, "Customer ids are ULIDs", "Ids are ULIDs made by the database default; they sort by creation time, which the report pages rely on.", 0.5, false, 1)
	item(model.Pattern, "Handlers take a context first", "Every handler and store method takes ctx as its first argument and honours its deadline; the request timeout is 15 seconds.", 0.5, false, 1)
	item(model.Fact, "Logs are JSON on stdout", "The service logs JSON with slog to stdout; Loki collects it on staging. Log the job id on every line about a job.", 0.45, false, 1)
	item(model.Preference, "Keep pull requests under 400 lines", "The user reviews every change by hand; split bigger ones by layer.", 0.5, false, 1)
	item(model.Fact, "Reports are cached for five minutes", "The hourly report is cached in memory for five minutes per customer; invalidation happens on job completion.", 0.5, false, 6)

	type session struct {
		id, title string
		day       int
		summary   string
	}
	sessions := []session{
		{"0b5e7a11-0000", "Scaffold the service", 1, `## Segment 1 (09:00–12:00)

**Request**
- Scaffold a Go service for customer reports with an HTTP API, a PostgreSQL store and a worker.

**Outcome**
- The service builds, serves /healthz and /reports, and the store talks to PostgreSQL through pgx; CI runs make test on every push.

**Decisions**
- Use chi for routing — it is small and uses net/http handlers.
- Ids are ULIDs made by the database default — they sort by creation time.

**Preferences**
- Keep pull requests under 400 lines; the user reviews each by hand.

**Environment**
- Go 1.26; PostgreSQL 16 in docker compose; make test runs the race detector.
- Logs are JSON with slog on stdout.

**Files changed** (9)
- cmd/api/main.go (written)
- internal/store/store.go (written)
- internal/http/router.go (written)
- Makefile (written)
- docker-compose.yml (written)
- .github/workflows/ci.yml (written)
- go.mod (written)
- internal/store/store_test.go (written)
- README.md (written)
`},
		{"1d0c5a22-0000", "Paginate the report list", 1, `## Segment 1 (14:00–16:20)

**Request**
- The report list times out for big customers; paginate it.

**Outcome**
- /reports pages with a cursor of the last id and a limit of 100; the slow query is gone and the handler test covers the last page.

**Root causes**
- The list loaded every report of a customer and sorted them in Go, which took seconds for customers with 200,000 reports.

**Decisions**
- Keyset pagination on the id — offsets get slower with every page.

**Rejected**
- OFFSET and LIMIT, because deep pages scan everything before them.

**Files changed** (3)
- internal/store/reports.go (edited)
- internal/http/reports.go (edited)
- internal/http/reports_test.go (written)
`},
		{"3f2a9c1b-0001", "Set up the job queue", 2, `## Segment 1 (09:00–10:10)

**Request**
- Set up a job queue for the report worker; it must survive restarts.

**Outcome**
- The queue is a jobs table in PostgreSQL; workers poll it and tests pass.

**Decisions**
- Use PostgreSQL for the job queue — enqueueing must commit with the data it refers to.

**Rejected**
- Redis streams, since a job could be enqueued for data that was rolled back.

**Preferences**
- Never use an ORM; write the SQL by hand.

**Environment**
- The API listens on port 8080.
- The test database runs with docker compose up db.

**Files changed** (3)
- db/migrations/001_jobs.sql (written)
- internal/queue/queue.go (written)
- internal/queue/queue_test.go (written)
`},
		{"7c41d2e0-0002", "Claim jobs without blocking", 3, `## Segment 1 (14:00–15:30)

**Request**
- Two workers sometimes process the same job; make claiming safe.

**Outcome**
- Jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED; the duplicate processing is gone and the race test passes.

**Root causes**
- The worker read the next job and marked it taken in two statements, so two workers could read the same row between them.

**Decisions**
- Claim with SELECT ... FOR UPDATE SKIP LOCKED — workers never block each other.

**Rejected**
- Advisory locks, which leak when a connection dies.

**Open**
- Add a test for DST transitions in the hourly report.

**Files changed** (2)
- internal/queue/claim.go (edited 3×)
- internal/queue/claim_test.go (written)
`},
		{"a9e03b77-0003", "Fix hourly totals", 4, `## Segment 1 (10:00–11:45)

**Request**
- The hourly totals in the customer report are far too high; find out why and fix them.

**Outcome**
- Totals are right again and a test covers days with 90-minute slots.

**Root causes**
- The bug was that minutes were multiplied by time.Hour instead of time.Minute when slots were converted.

**Decisions**
- Convert durations in one helper, durationOf, so that the unit is stated once.

**Files changed** (2)
- internal/report/hourly.go (edited)
- internal/report/hourly_test.go (edited)

## Segment 2 (11:45–12:30)

**Request**
- Also add the DST transition test for the hourly report.

**Outcome**
- The DST transition test for the hourly report passes on both the spring and the autumn change.

**Open**
- Check whether the weekly report has the same unit bug.
`},
		{"c0ffee12-0004", "Retry failed jobs", 5, `## Segment 1 (09:30–11:00)

**Request**
- Failed jobs are lost; retry them with backoff.

**Outcome**
- Failed jobs are retried with exponential backoff capped at ten minutes, at most eight times; tests pass.

**Decisions**
- Back off exponentially up to ten minutes — a broken upstream must not be hammered.

**Environment**
- Staging runs on staging-1 and staging-2 behind Caddy; deploy with make deploy-staging.

**Open**
- Decide what happens to a job after its eighth failure.

**Files changed** (2)
- internal/queue/retry.go (written)
- internal/queue/retry_test.go (written)
`},
		{"d15ea5e0-0005", "Move the API port", 6, `## Segment 1 (08:00–08:40)

**Request**
- The metrics exporter took port 8080 on staging; move the API.

**Outcome**
- The API listens on port 8081 now, on staging and in docker compose.

**Environment**
- The API listens on port 8081.

**Open**
- Document the new port in the README.
- Tell the mobile team about the new port.

**Files changed** (2)
- cmd/api/main.go (edited)
- docker-compose.yml (edited)
`},
		{"e7a1b2c3-0006", "", 6, `## Segment 1

**Request**
- Cache the hourly report per customer.

**Done**
- The report is cached for five minutes; completed jobs invalidate it.

**Files changed** (1)
- internal/report/cache.go (written)

**Commands** (4 run, 1 failed)
- ` + "`make test`" + ` (3×)

**Notes**
- (fact) Reports are cached for five minutes
`},
	}
	for _, s := range sessions {
		started := time.Date(2026, 3, s.day, 9, 0, 0, 0, time.UTC)
		files["sessions/"+s.id+"/session.yaml"] = fmt.Sprintf("schema: 1\nid: %s\nagent: claude-code\nstatus: ended\ntitle: %q\nprompts: 3\nturns: 40\nstarted: %s\n", s.id, s.title, started.Format(time.RFC3339))
		files["sessions/"+s.id+"/summary.md"] = "---\nsession: " + s.id + "\n---\n" + s.summary
	}
	for i := range 3 {
		id := fmt.Sprintf("c1ea0%03d-clear", i)
		files["sessions/"+id+"/session.yaml"] = fmt.Sprintf("schema: 1\nid: %s\nagent: claude-code\nstatus: ended\nprompts: 0\nturns: 0\nstarted: 2026-03-07T0%d:00:00Z\n", id, i+1)
	}
	writeFiles(t, m, files)
	// The folders changed in the order of the sessions, the empty ones last.
	base := time.Now().Add(-time.Hour)
	for i, s := range sessions {
		chtimes(t, m, "sessions/"+s.id, base.Add(time.Duration(i)*time.Minute))
	}
	for i := range 3 {
		chtimes(t, m, fmt.Sprintf("sessions/c1ea0%03d-clear", i), base.Add(time.Duration(30+i)*time.Minute))
	}
	return m
}

// TestPackGolden compares whole packs of the project memory with
// testdata/pack/*.md (go test -run TestPackGolden -update rewrites them),
// and checks what every pack must do whatever its wording.
func TestPackGolden(t *testing.T) {
	m := projectMemory(t)
	x := mustOpenIndex(t, m)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		budget int
		query  string
	}{
		{"budget-1500", 1500, ""},
		{"budget-2500", 2500, ""},
		{"budget-600", 600, ""},
		{"query-port", 1500, "which port does the api listen on"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := x.Context(ctx, ContextOptions{Budget: tc.budget, Query: tc.query})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", "pack", tc.name+".md"), p.Text)
			checkPack(t, p)
		})
	}
}

// checkPack checks what every pack of projectMemory must do.
func checkPack(t *testing.T, p *Pack) {
	t.Helper()
	text := p.Text
	if p.UsedTokens > p.BudgetTokens || p.UsedTokens != indexer.EstimateTokens(text) {
		t.Errorf("used %d of %d; text has %d", p.UsedTokens, p.BudgetTokens, indexer.EstimateTokens(text))
	}
	for _, stale := range []string{"port 8080**", "listens on port 8080.", "(session c1ea0"} {
		if strings.Contains(text, stale) {
			t.Errorf("pack holds %q", stale)
		}
	}
	for line := range strings.Lines(text) {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(strings.TrimLeft(l, "-* "), "…") || strings.Contains(l, "…\n") || strings.Contains(l, "…-") {
			t.Errorf("a cut line: %q", l)
		}
	}
	// Order: pinned, core, open, sessions, related.
	last := -1
	for _, h := range []string{"## Pinned", "## Core memory", "## Open items", "## Latest sessions", "## Related to"} {
		i := strings.Index(text, h)
		if i < 0 {
			continue
		}
		if i < last {
			t.Errorf("%s out of order", h)
		}
		last = i
	}
	if strings.Contains(text, "DST transitions in the hourly report (session") {
		t.Error("an open item a later session resolved is listed")
	}
	if !strings.Contains(text, "### Move the API port — Mar 6 (session d15ea5e0)") {
		t.Error("the latest real session has no heading")
	}
}

// TestPackBudgetUse checks that a pack uses at least 80% of budgets of
// 1,500 to 2,500 tokens, or of all the memory holds when that is less,
// and that the default's text stays well under the hook's 10,000
// characters.
func TestPackBudgetUse(t *testing.T) {
	ctx := context.Background()
	for _, mem := range []struct {
		name string
		m    *memory.Memory
	}{{"project", projectMemory(t)}, {"big", bigMemory(t, 200)}} {
		all, err := Context(ctx, mem.m, ContextOptions{Budget: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, budget := range []int{1500, 2000, 2500} {
			p, err := Context(ctx, mem.m, ContextOptions{Budget: budget})
			if err != nil {
				t.Fatal(err)
			}
			use := float64(p.UsedTokens) / float64(min(budget, all.UsedTokens))
			t.Logf("%s memory (%d tokens in all), budget %d: %d tokens (%.0f%% of what fits), %d characters, %d memories, %d left out",
				mem.name, all.UsedTokens, budget, p.UsedTokens, 100*use, len(p.Text), len(p.Items), len(p.LeftOut))
			if use < 0.8 {
				t.Errorf("%s memory, budget %d: uses %.0f%%\n%s", mem.name, budget, 100*use, p.Text)
			}
			if budget == DefaultContextBudget && len(p.Text) > 9000 {
				t.Errorf("%s memory, budget %d: %d characters", mem.name, budget, len(p.Text))
			}
		}
	}
}

// TestPackClearSessions checks that sessions /clear left empty never
// take the place of real ones.
func TestPackClearSessions(t *testing.T) {
	m := projectMemory(t)
	p, err := Context(context.Background(), m, ContextOptions{Budget: 2500})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"d15ea5e0", "c0ffee12", "a9e03b77"} {
		if !strings.Contains(p.Text, "(session "+id+")") {
			t.Errorf("session %s missing:\n%s", id, p.Text)
		}
	}
	for _, it := range append(p.Items, PackItem{}) {
		if strings.Contains(it.ID, "clear") {
			t.Errorf("empty session %s packed", it.ID)
		}
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("%v (run with -update to make it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run with -update to accept):\n%s", name, got)
	}
}
