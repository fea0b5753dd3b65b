package summarize

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/outcome"
	"github.com/cairn-mem/cairn/internal/summarize/pick"
	"github.com/cairn-mem/cairn/internal/summarize/reason"
)

func TestSentences(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"## Plan\n\nWe'll use rename(2), e.g. for claims. It is atomic! Is it? Yes.\n\n```go\nx := 1. Not prose.\n```\n- Keep `a.b. C` whole.\n| table | row |\n1. Numbered item here",
			[]string{"Plan", "We'll use rename(2), e.g. for claims.", "It is atomic!", "Is it?", "Yes.", "Keep `a.b. C` whole.", "Numbered item here"}},
		{"Decision: jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED. Workers poll every 2.5 seconds.",
			[]string{"Decision: jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED.", "Workers poll every 2.5 seconds."}},
		{"We bumped to v1.2.3 in go.mod. See https://example.com/a.b?c=d. Then run `make test. Now`.",
			[]string{"We bumped to v1.2.3 in go.mod.", "See https://example.com/a.b?c=d.", "Then run `make test. Now`."}},
		{"The cache is stale, i.e. Redis keeps old keys. Dr. Smith wrote it vs. the old one. Done.",
			[]string{"The cache is stale, i.e. Redis keeps old keys.", "Dr. Smith wrote it vs. the old one.", "Done."}},
		{"This sentence is wrapped\nover two lines. And this one\nis too.\n\n- item one ends here\n  and continues. Second part.\n- item two",
			[]string{"This sentence is wrapped over two lines.", "And this one is too.", "item one ends here and continues.", "Second part.", "item two"}},
		{"He said \"stop.\" Then left. Tests, docs, etc. Next we ship…",
			[]string{"He said \"stop.\"", "Then left.", "Tests, docs, etc.", "Next we ship…"}},
		{"ok fair enough. and yeah please never add lodash back! morning. e.g. the v2. thing stays, etc. and so on",
			[]string{"ok fair enough.", "and yeah please never add lodash back!", "morning.", "e.g. the v2. thing stays, etc.", "and so on"}},
		{"    indented code. Not prose\n\n> quoted. Not mine\n$ go test ./...\nText after.",
			[]string{"Text after."}},
		// A one-line block joins the sentence that introduces it; a longer
		// one, or one after other code, stays out. A bold label that only
		// heads a paragraph says nothing.
		{"**Why it failed.** The containers have to join the network as well:\n\n```\nsam local start-api --docker-network n\n```\n\nTwo lines:\n```\na b\nc d\n```\n**Use `x`.** Done.",
			[]string{"The containers have to join the network as well: `sam local start-api --docker-network n`", "Two lines:", "Done."}},
	} {
		if got := prose.Sentences(tc.in); strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("sentences(%q):\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestUpToAndTitle(t *testing.T) {
	long := "We claim jobs with SELECT ... FOR UPDATE SKIP LOCKED because two workers must never run the same job. " +
		"The alternative was advisory locks. Those leak when a worker dies."
	if got := prose.UpTo(long, 120); got != "We claim jobs with SELECT ... FOR UPDATE SKIP LOCKED because two workers must never run the same job." {
		t.Errorf("upTo: %q", got)
	}
	for in, want := range map[string]string{
		"Use chi for the HTTP router.": "Use chi for the HTTP router",
		"Claims rename the job file into processing/ so that only one worker wins, and a crashed worker's job is requeued by the janitor": "Claims rename the job file into processing/ so that only one worker wins",
		"Averyveryverylongwordthatkeepsgoingandgoingandgoingandgoingandgoingandgoingandgoingandgoingandgoing end":                         "Averyveryverylongwordthatkeepsgoingandgoingandgoingandgoingandgoingandgoingandgoingandgoin",
	} {
		got := Title(in)
		if got != want || strings.Contains(got, "…") || len(got) > MaxTitle {
			t.Errorf("title(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDecisionTitle(t *testing.T) {
	for in, want := range map[string]string{
		"The tests were flaky under load; let's use a fake clock instead of sleeps": "Use a fake clock instead of sleeps",
		"OK, for the recompute job: let's use a one-off Go command":                 "Use a one-off Go command",
		"We'll store sessions in Redis — the TTLs come for free":                    "Store sessions in Redis",
		"Decision: jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED":         "Jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED",
		"Rather than fork the SDK, we'll wrap its client in a thin adapter":         "Wrap its client in a thin adapter",
	} {
		if got := decisionTitle(in); got != want {
			t.Errorf("decisionTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFoundItCause: "Found it: …" that gives the cause itself is one root
// cause; the fix said after it is a decision, not a second cause.
func TestFoundItCause(t *testing.T) {
	a := &analysis{byPath: map[string]*fileUse{}, seen: map[string]bool{}}
	a.prose(Assistant, 0, "Found it: receipt() ran the text through TextEncoder, which gives UTF-8, but the printer reads every byte through its code page. It now selects code page 858 and maps each character to its CP858 byte.")
	if len(a.rootCauses) != 1 || len(a.decisions) != 1 {
		t.Errorf("root causes %q, decisions %q; want one of each", a.rootCauses, a.decisions)
	}
	a = &analysis{byPath: map[string]*fileUse{}, seen: map[string]bool{}}
	a.prose(Assistant, 0, "Found it, and it's not Postgres being slow. Each booking's resolvers query their own row, an N+1 of 825 statements.")
	if len(a.rootCauses) != 1 || !strings.Contains(a.rootCauses[0], "N+1") {
		t.Errorf("root causes %q; want the explanation after the announcement", a.rootCauses)
	}
}

// TestSoThenDecision: "CAUSE, so X now does Y" decides X; the cause is its
// reason.
func TestSoThenDecision(t *testing.T) {
	if what, _ := reason.Split("docker-compose.yml publishes Postgres on 5432, so a plain psql reaches the container now.", ""); !strings.HasPrefix(what, "docker-compose.yml publishes") {
		t.Errorf("a state and its consequence: what = %q", what)
	}
	what, why := reason.Split("The halfway stops were one big transferOut overrunning the buffer, so printReceipt now sends the data in 64-byte chunks.", "")
	if what != "printReceipt now sends the data in 64-byte chunks" || why != "The halfway stops were one big transferOut overrunning the buffer" {
		t.Errorf("splitReason = %q, %q", what, why)
	}
}

func TestIsChitchat(t *testing.T) {
	for p, want := range map[string]bool{
		"thanks!": true, "ok go on": true, "Yes, do it.": true, "/cost": true, "/clear": true, "/review-pr 12": true,
		"lgtm, continue": true, "perfect thanks": true,
		"ok, now add a retry to the webhook sender": false, "fix the flaky test": false, "/usr/bin is where it lives": false,
		"no, use the other port": false,
		// A sign-off asks nothing (blind AB's "ok, leave it for today").
		"ok, leave it for today": true, "Let's stop here.": true, "That's all for now": true, "ok thanks, let's call it a day": true,
		"Leave it for today, but fix the test first.": false, "Stop the worker before the migration.": false, "Let's stop using moment.js": false,
	} {
		if got := isChitchat(p); got != want {
			t.Errorf("isChitchat(%q) = %v, want %v", p, got, want)
		}
	}
}

// classify runs the prose analysis over one statement and says which
// sections it reached.
func classify(role Role, text string) []string {
	a := &analysis{byPath: map[string]*fileUse{}, seen: map[string]bool{}}
	a.prose(role, 0, text)
	var got []string
	for _, s := range []struct {
		name string
		list []string
	}{{"root", a.rootCauses}, {"decision", a.decisions}, {"rejected", a.rejected}, {"pref", a.prefs}, {"env", a.env}} {
		if len(s.list) > 0 {
			got = append(got, s.name)
		}
	}
	if len(a.open) > 0 {
		got = append(got, "open")
	}
	return got
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		role Role
		text string
		want string // sections, comma-separated
	}{
		// Decisions, worded many ways.
		{Assistant, "We'll use PostgreSQL for the queue because it gives us transactions.", "decision"},
		// Blind AH, opened in the round of 17 December: an alternative
		// turned down with "I'd not", and the user's "no X please" with
		// its reason.
		{Assistant, "I'd not add RabbitMQ or Kafka for this, precisely because of the approval lead time you mention.", "rejected"},
		{User, "And no Camel please, nobody here reads its DSL.", "rejected"},
		{Assistant, "I didn't go for setWarningOnly(true): a warning is one click away from being ignored.", "rejected"},
		{Assistant, "I didn't go for the Redis cache: it would be one more thing to run.", "rejected"},
		{Assistant, "I didn't go for a rewrite — the old parser is fine.", "rejected"},
		// Blind AL, opened in the round of 20 December: what may be done
		// some day is neither a choice nor work left; an alternative
		// turned down with its name first; a setting given a number
		// with "I've"; a choice made for a purpose said first; a state
		// with a plural subject before "now"; a check the user is
		// asked to make before a step.
		{Assistant, "You can grow by adding another pair later, or replace one pair with bigger disks, without touching the other.", ""},
		{Assistant, "RAIDZ1 across 8 TB drives I'd rule out: losing a disk leaves no redundancy during a multi-day resilver.", "rejected"},
		{Assistant, "I've set the impact coefficient to k = 0.15, which puts simulated slippage at 6.6 bps against 6.8 live.", "decision"},
		{Assistant, "To keep the line count down I tied CC1 and CC2 together to a single 5.1k (R3): it's one part.", "decision"},
		{Assistant, "Backtests now draw the universe for each rebalance date from the point-in-time table `universe_pit`.", "decision"},
		{Assistant, "Before tagging rev-B I'd like you to look at the 3D view of the power corner.", "open"},
		{Assistant, "Moving kestrel's pull later so they don't compete, then a first restic run.", ""},
		{User, "Bodged one with a 100uF, droop is 3.17V min now, no resets in an hour.", ""},
		{User, "Please, no deploys for two weeks.", "pref"},
		{Assistant, "At today's 38% load the UPS reports 842 seconds of runtime, so there's margin, but I'd do a real pull-the-plug test before trusting that number.", "open"},
		{Assistant, "Tying CC1 and CC2 to one 5.1k was my mistake from the CC session.", "root"},
		{Assistant, "With a plain cable it works, which is why USB-A to C is fine.", ""},
		{Assistant, "The lock is never released, which is why there are no new jobs picked up.", "root"},
		{Assistant, "That was my mistake.", ""},
		{Assistant, "Committing the generated files is a mistake.", ""},
		{Assistant, "You can find the new retry logic in `client.go`: it now backs off 3 times.", "decision"},
		{Assistant, "Testing on Windows still needs to happen before the release.", "open"},
		{Assistant, "To get a stack trace I added a `panic()` at line 88.", ""},
		{Assistant, "I dropped the staging database at 14:05 as you asked.", ""},
		{Assistant, "The test fails now with a different error: `connection reset by peer`.", ""},
		{User, "We ship v2.3 today, no merges for two days after that.", "pref"},
		{Assistant, "While I had the B2 credentials loaded I also ran the restore test that was pending: checksums identical to the live files.", ""},
		{Assistant, "Proposal, now in `btengine/walkforward.py`: rolling walk-forward folds with a 36-month training window and an embargo of 5 trading days.", "decision"},
		{Assistant, "`tank/enc/photos` uses recordsize=1M: large sequential RAW and JPEG files, fewer blocks.", "env"},
		// How data is laid out, and what a command does after a clause
		// that gives its setting (blind AN, opened in the round of 22
		// December).
		{User, "The Stock tab is one row per SKU, about 310 of them, shops in columns C to F.", "env"},
		{Assistant, "`.clasp.json` already points rootDir at `dist`, so `npm run push` builds and then runs `clasp push --force`.", "env"},
		// A choice still to make is work left, not a decision.
		{Assistant, "We should pick one before the second tenant goes live.", "open"},
		// A failure the user reports, with a count in it, is no setting.
		{User, "prod rollout with 4 replicas failed to start half the pods: \"FATAL: remaining connection slots are reserved\".", ""},
		// Work asked for and specified is no way of working.
		{User, "write the ingest: chunk the articles and load them into pgvector in the compose db, it's on 5433 because my local postgres already sits on 5432.", "env"},
		// Blind AP, opened in the round of 24 December: the user telling
		// where the machine is and what runs on it.
		{User, "The new one is pbx01 at 10.20.0.5 — a Debian 12 NUC in the comms cupboard — and I built Asterisk 20.11.1 from source on it last week.", "env"},
		{User, "The Pixhawk 6C runs PX4 1.15.2 and the frame is a Holybro X500 V2.", "env"},
		{User, "The flood started from 10.20.0.5 -> 198.51.100.20 around nine.", ""},
		{User, "I read the Go 1.22 release notes last night.", ""},
		{Assistant, "I've also enabled IMU_GYRO_DNF_EN so the gyro filter puts a notch on each motor's RPM from DShot telemetry.", "decision"},
		{Assistant, "I've enabled it for you.", ""},
		{Assistant, "With 31 minutes of hover and the return at 30%, the mission cap goes up to 22 minutes of planned flight per pack.", "decision"},
		{Assistant, "The retention was lowered to 14 days.", "decision"},
		{Assistant, "p95 dropped to 40 ms after the fix.", ""},
		{User, "Write commit messages in the imperative, please.", "pref"},
		{User, "Let's go with chi for routing, it plays well with net/http.", "decision"},
		{User, "OK, sqlc it is.", "decision"},
		{Assistant, "There it is.", ""},
		{User, "Access tokens should live 5 minutes.", "decision"},
		{Assistant, "The plugin codes are Lwtd and Drft; those must never change once a build is out, or hosts see another plugin.", "env"},
		{Assistant, "I changed it to RoundingMode.HALF_UP, which matches ROUNDED for negative values too.", "decision"},
		{Assistant, "I changed it to use the new helper.", ""},
		{Assistant, "It compiles with `-std=ibm` rather than the default dialect, because BILL040 depends on IBM's truncation of binary fields.", "decision,rejected"},
		{Assistant, "I'd keep `dd conv=ascii` out of it: it translates every byte, so the packed amounts come out as garbage.", "rejected"},
		{Assistant, "Decision: jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED.", "decision"},
		{Assistant, "Settled on zerolog for structured logging.", "decision"},
		{User, "We switched the CI to GitHub Actions last week.", "decision"},
		{User, "we're dropping Redis after all, Postgres LISTEN/NOTIFY is enough", "decision,rejected"},
		{User, "Make Lookup return a bool instead of an error.", "decision,rejected"},
		{Assistant, "It returns nil instead of an error when the file is missing.", ""},
		{Assistant, "Once it's merged to main it goes out to the preview site at https://preview.example.dev on its own, so Ann can try it.", "env"},
		{Assistant, "max_open_conns is now 40 rather than 10, matching the pooler.", "env"},
		{Assistant, "0.9.0 still has to be tagged and pushed to the registry with `make release`.", "open"},
		// Root causes.
		{Assistant, "Turns out the culprit was a stale connection pool after the failover.", "root"},
		{Assistant, "The bug was that minutes were multiplied by time.Hour.", "root"},
		{User, "it happened because the cron job ran twice at DST change", "root"},
		{Assistant, "The timeout was caused by a missing index on orders.customer_id.", "root"},
		{Assistant, "The handler read the header instead of the query param, so every request looked anonymous.", "root"},
		{Assistant, "The retries were counted per request instead of per job.", "root"},
		{Assistant, "It might be caused by the proxy.", ""},
		// Preferences: the user's standing instructions, complaints included.
		{User, "From now on, run the linter before you commit.", "pref"},
		{User, "Please don't add comments that restate the code.", "pref"},
		{User, "I'd rather keep functions under 40 lines.", "pref"},
		{User, "The audit says we keep the refresh token in a cookie without HttpOnly.", ""},
		{User, "Keep the refresh token out of cookies from now on.", "pref"},
		{User, "I hate when you rewrite files I didn't ask you to touch.", "pref"},
		{User, "Never push directly to main.", "pref"},
		{User, "Make sure to use British spelling in user-facing strings.", "pref"},
		{Assistant, "Never push directly to main.", ""},
		{User, "Oh and you can run full image builds again here, the sandbox has a 500 GB disk now.", "pref"},
		{User, "Forget what I said about vim.notify, you can use it again: noice.nvim users want our errors in their popup.", "pref"},
		// Environment facts.
		{Assistant, "The API server listens on port 8080 (see cmd/api/main.go).", "env"},
		{User, "staging lives at https://staging.acme.dev and deploys from the release branch", "env"},
		{User, "Postgres runs on localhost:5433 in the compose setup.", "env"},
		{Assistant, "The config is loaded from `~/.config/tally/config.toml`.", ""},
		{User, "Tests are run with `make test` which spins up the db container.", "env"},
		{User, "We're on Python 3.12 now.", "env"},
		{User, "Production deploys on Vercel have been failing since Friday, the build log is in logs/vercel-build-2026-02-27.log.", ""},
		{User, "I ran renv::snapshot() on my machine and deployed, and Connect fails, log is in logs/connect-deploy.log.", ""},
		{User, "The deploy log is in logs/deploy.log and the app runs on port 8080.", "env"},
		{Assistant, "`DATABASE_URL` points to the local replica.", "env"},
		{Assistant, "The API server might listen on port 8080.", ""},
		{Assistant, "Let me check which port the server listens on 8080 first.", ""},
		// Open items.
		{Assistant, "We still need to backfill the old rows.", "open"},
		{User, "tomorrow: wire the webhook retries", "open"},
		{Assistant, "Next step is adding the migration for the audit table.", "open"},
		{Assistant, "Pagination is not implemented yet.", "open"},
		{User, "This is blocked on the vendor's API key.", "open"},
		{User, "I've decided we should store uploads in S3, not on local disk.", "decision"},
		{Assistant, "Going with a token bucket for rate limiting, since it smooths bursts better than a fixed window.", "decision"},
		{User, "Actually, forget the cron approach — we'll trigger the export from a webhook instead.", "decision"},
		{User, "We agreed to keep the v1 endpoints until June.", "decision"},
		{Assistant, "The flakiness came from tests sharing a single temp directory.", "root"},
		{Assistant, "So the real issue is that the JWT clock skew tolerance was zero.", "root"},
		{User, "the reason it crashed is the env var was empty in prod", "root"},
		{Assistant, "Root cause: the migration ran before the new column existed.", "root"},
		{Assistant, "This happens because the goroutine captures the loop variable.", "root"},
		{User, "Can you stop adding emojis to commit messages?", "pref"},
		{User, "I like small PRs, one concern each.", "pref"},
		{User, "Use pnpm, not npm, in this repo.", "pref"},
		{User, "It's annoying when you run the whole test suite for a one-line change.", "pref"},
		{User, "going forward put new handlers under internal/http", "pref"},
		{User, "The frontend dev server runs on port 5173.", "env"},
		{Assistant, "The worker reads its queue name from `QUEUE_NAME` (default `jobs`).", "env"},
		{User, "our CI uses Node 18.19 and pnpm 8", "env"},
		{User, "prod is on k8s, namespace billing-prod", "env"},
		{Assistant, "Migrations live in db/migrations and are applied with `make migrate`.", "env"},
		{Assistant, "Left to do: the retry backoff and the admin page.", "open"},
		{User, "remind me to rotate the API keys next week", "open"},
		{Assistant, "I didn't get to the dark mode toggle; that's for another session.", "open"},
		{Assistant, "TODO: handle the 429 from the upstream API.", "open"},
		{Assistant, "We'll need to follow up on the flaky e2e test.", "open"},
		{Assistant, "I went with a bounded channel of 100 for the fan-out because unbounded buffering hid backpressure.", "decision"},
		{User, "nah, skip the ORM. plain database/sql is fine", "decision"},
		{User, "Let's keep the old endpoint around for now and deprecate it later.", "decision,open"},
		{Assistant, "Turned out the container was built for arm64 while the cluster nodes are amd64.", "root"},
		{Assistant, "The 502s were because nginx's proxy_read_timeout (60s) is shorter than the report generation.", "root"},
		{Assistant, "Why it failed: the fixture file had Windows line endings.", "root"},
		{User, "btw I always want type hints on public functions", "pref"},
		{User, "No mocks for the database please, use the test container.", "pref"},
		{User, "keep answers short, I don't need the full file back", "pref"},
		{Assistant, "Redis is reachable at redis://cache.internal:6380/0.", "env"},
		{User, "the repo uses uv, so run things with `uv run`", "env"},
		{Assistant, "CI runs on GitHub Actions with the ubuntu-22.04 runner.", "env"},
		{User, "We deploy with `fly deploy` from the main branch.", "env"},
		{Assistant, "Still open: the Safari layout bug and the missing French strings.", "open"},
		{Assistant, "One thing I couldn't finish is the CSV export; it still times out on big accounts.", "open"},
		{Assistant, "I'll look into the memory spike next.", ""},
		{Assistant, "Here's what I changed:", ""},
		{Assistant, "All 42 tests pass.", ""},
		{Assistant, "The tests are failing because the fixture path changed in the last refactor.", "root"},
		{Assistant, "I see the issue now. The handler is registered twice.", "root"},
		{Assistant, "Found it: the cache key ignores the tenant id.", "root"},
		{User, "heads up: the raw bucket is now gs://acme-raw-v2, the old one is read-only", "env"},
		{User, "we switched from poetry to uv last sprint", "decision,rejected"},
		{Assistant, "The nightly export cron runs at 02:00 UTC on the batch host.", "env"},
		{User, "the default branch is main now, not master", "env"},
		{Assistant, "Terraform state is kept in the S3 bucket acme-tf-state with DynamoDB locking.", "env"},
		{User, "Airflow is on 2.9.1 in prod.", "env"},
		{Assistant, "The dedup step dropped rows because the join key had trailing whitespace.", "root"},
		{Assistant, "What broke the build was a transitive bump of protobuf to 5.x.", "root"},
		{User, "I don't want any new dependencies without asking me first.", "pref"},
		{User, "always format with ruff, not black", "pref"},
		{User, "Please write docstrings in Google style.", "pref"},
		{User, "Let's not bother with a cache yet; Postgres handles the load.", "open"}, // put off: open, not a standing decision,
		{Assistant, "I opted for a materialized view over a cron-refreshed table since Postgres can refresh it concurrently.", "decision,rejected"},
		{Assistant, "The backfill for 2023 is still pending; it needs the archive credentials.", "open"},
		{User, "we should eventually move the images to a CDN", "open"},
		{Assistant, "Next up would be wiring the Slack alert into the DAG.", "open"},
		{Assistant, "The DAG now has three tasks: extract, transform and load.", ""},
		{Assistant, "I'm going to refactor the loader next.", ""},
		// A report of a change that names what it replaced holds from now on.
		{Assistant, "Changed: the retention job now keeps 14 days of logs instead of 30.", "decision"},
		{Assistant, "Done — search state now lives in the query string rather than the MobX store.", "decision"},
		{Assistant, "It returns nil instead of an error when the file is missing.", ""},
		// A setting whose key holds what looks like a file's extension.
		{Assistant, "Since each hourly run only handles a slice of the day, I cut spark.sql.shuffle.partitions to 64 on the job cluster.", "env"},
		// A fact said to be kept, with its value.
		{Assistant, "For the record, the TM-m30III enumerates as USB vendor 0x04b8 and takes the data on bulk OUT endpoint 1.", "env"},
		{Assistant, "For the record, I looked at the logs too.", ""},
		// An acknowledgment promises nothing.
		{Assistant, "Understood for next time.", ""},
		{Assistant, "Sorry, the export still fails on CI.", "open"},
		// What a command does.
		{Assistant, "`wp wbd reindex --dry-run` prints the bundle id with the price it would store, and leaves the table alone.", "env"},
		{Assistant, "`go test ./...` passes on all three packages.", ""},
		// Turned down as "out".
		{Assistant, "localStorage is out for this: it's synchronous, so writing on every tap blocks the UI thread.", "rejected"},
		{Assistant, "The new release is out.", ""},
		// Pending and waiting as descriptions, not work left.
		{Assistant, "I'd keep a table of pending orders keyed by id, drained oldest first.", ""},
		{Assistant, "The review of the migration is still pending.", "open"},
		{Assistant, "printReceipt sends the data in chunks, waiting for each.", ""},
		{User, "We're waiting on the vendor for the sandbox keys.", "open"},
		// Complaints and instructions in other words.
		{User, "it drives me nuts when you run the whole suite after every tiny edit", "pref"},
		{User, "heads up, don't hand-edit anything under avro/, it is generated", "pref"},
		// A state that lasts only while something is pending, and waiting
		// that is over, are no work left.
		{Assistant, "And the upgrade button is a form submit button that disables itself through `useFormStatus` while the action is pending.", ""},
		{Assistant, "Prisma 6 came out with the fix we were waiting for; bumping it with the rest.", ""},
		{Assistant, "Nothing reads the JSON key any more, so once the new run is green I'll delete the old key secret and disable the key itself.", "open"},
		// Alternatives turned down in longer words.
		{Assistant, "I looked at the alternative of keeping database sessions and reaching the DB from the edge through Prisma Accelerate, but that's a paid proxy in every request's path.", "rejected"},
		{Assistant, "I'd rather not mock Stripe in e2e: the last mock drifted from the real Checkout page and let a broken button through.", "rejected"},
		{Assistant, "SnapStart for Python is out as well, since it can't be combined with provisioned concurrency on the same version.", "rejected"},
		{Assistant, "I would not use the Qt Installer Framework's maintenance tool: it only updates installations made by an IFW installer.", "rejected"},
		{Assistant, "I didn't give each monitor its own coordinator: every one of them would poll on its own.", "rejected"},
		{Assistant, "A scheduled warmer doesn't fit: it keeps one environment warm, and the burst needs a dozen at once.", "rejected"},
		// Work left said as what is missing; a field named in code and the
		// agent's own reading are none.
		{Assistant, "What's missing for crash reporting: the AppImage ships stripped binaries, so Linux crashes arrive in Sentry without symbols.", "open"},
		{Assistant, "Each slot item holds `capacity` and `remaining` next to its keys.", ""},
		{Assistant, "And ListSlots, which I haven't read yet.", ""},
		// Where things go and what they are called.
		{Assistant, "One table per stage (cragbook-dev, cragbook-staging and cragbook-prod), all in eu-west-1.", "env"},
		{Assistant, "Before each Weblate sync, refresh the .ts files with `cmake --build --preset dev --target update_translations`.", "env"},
		{Assistant, "The Lambda containers only have to join that network as well: `sam local start-api --docker-network cragbook-local`", "env"},
		{Assistant, "I reproduced it with `go test -run TestSlots ./...` first.", ""},
		{Assistant, "The new index is written in one commit, and scripts/reindex.ts rebuilds the old index once (it has to run against the Deploy KV too, with `deno run --unstable-kv -A scripts/reindex.ts` and KV_ACCESS_TOKEN set).", ""},
		{User, "I exported yesterday's CreateBooking log stream from 05:58 to 06:14 into logs/create-booking-2026-11-02.log.", ""},
		{User, "Power tuning finished overnight: 1536 came out as the cheapest setting. Put that in, please.", "decision"},
		{User, "Gazelle keeps generating go_proto_library rules under proto/ and then the build blows up. Make it stop.", ""},
		{User, "it's the Parcelo SDK, we ship it as com.parcelo:parcelo-sdk on Maven Central and as an XCFramework for SPM.", "env"},
		{User, "Right now the Central upload still goes through the old OSSRH staging host, s01.oss.sonatype.org.", "env"},
		{Assistant, "For local testing the CLI command becomes `stripe listen --forward-to localhost:3100/api/webhooks/stripe`.", "env"},
		// How something should behave, with the number that says how.
		{User, "And usage sync should run every 15 minutes, the hourly lag makes the usage page look broken.", "decision"},
		{User, "The test should be green before 5 pm though.", ""},
		// Noise.
		{Assistant, "This file uses the `errgroup` package to run the workers concurrently.", ""},
		{Assistant, "The `Config` struct has fields for `Port`, `Host` and `Timeout`.", ""},
		{Assistant, "Would you like me to also add a migration for the new column?", ""},
		{Assistant, "I've updated the fixture path in `testdata/loader.go`. Running the tests again.", ""},
		{Assistant, "The build passes now.", ""},
		{Assistant, "Let me look at the handler first.", ""},
		{Assistant, "Now the full test run.", ""},
		{Assistant, "Now the helper, so the notebooks get the same behaviour.", ""},
		{Assistant, "Now the notebooks' code cells, to see what each stage has to do.", ""},
		{Assistant, "Now 50 runs in a row.", ""},
		{Assistant, "Installing libxcb-cursor0 on the runner and bundling it.", ""},
		{Assistant, "Bumping the API version everywhere.", ""},
		{Assistant, "Replacing the fixed setting with a scalable target and two scheduled actions.", ""},
		{Assistant, "Pointing the Metabase connection at the replica in the config.", ""},
		{Assistant, "remaining goes negative because CreateBooking checks and writes in three separate steps.", "root"},
		{Assistant, "Two requests 18 ms apart both read remaining = 1, both pass the check and both write.", ""},
		{Assistant, "Now the repository — as it is.", ""},
		{Assistant, "Fair, host timer it is.", "decision"},
		{Assistant, "Two BOOKING items with booked_at 18 ms apart.", ""},
		{Assistant, "With more environments running in parallel at 06:00 it was only a matter of time.", ""},
		{Assistant, "Replacing it with waiting for the query response.", ""},
		{Assistant, "Great, that worked.", ""},
		{User, "what port does the api use?", ""},
		// A value given a new one, said with the old one after it or
		// with its reason first.
		{User, "The tolerance is now 0.1% of net per day, not 0.5%.", "decision"},
		{User, "Because of the late-data bug, the Metabase cutover moves from May 4th to May 11th.", "decision"},
		{User, "Also the page size: cap the limit at 100 instead of 200.", "decision"},
		// Work a future change will need, and a need denied.
		{Assistant, "`battery.c` uses the legacy `esp_adc_cal` API, which is deprecated too and will need porting whenever we do upgrade IDF.", "open"},
		{User, "The staff view never needs more, and the 200-row pages showed up in the p99 too.", ""},
		{User, "The agent never pushes to main.", "pref"},
		// Work left for the user: a value to fill in, a run to do once.
		{Assistant, "`scripts/unload.sql`: six UNLOADs as Parquet, through an IAM role (fill in the real role ARN, I made up the account id).", "open"},
		{Assistant, "To repair the past, run it once with `--full-refresh` in your dev dataset and re-export the parity CSV.", "open"},
		{Assistant, "Run the migration once per environment with `make migrate`.", "env"},
		// A check that the old is gone names no environment.
		{Assistant, "Nothing from axum 0.7, Rust 1.79 or Postgres 16 is left.", ""},
		// A name defined in an aside.
		{User, "I also had the Saleae on the two debug pins (that's CONFIG_DOORBELL_TRACE_PINS: GPIO4 is high while the button ISR runs, GPIO5 while the I2S on_sent callback runs).", "env"},
		{User, "I ran it twice (that is, once per board, as you said before).", ""},
		// Taken back as it was said.
		{User, "Do it in the app with tower_governor: 10 per minute per IP... hmm, no, that's too strict for a gym where everyone is behind the same Wi-Fi.", "rejected"},
		// A case supposed is no cause; an acknowledgment announces none.
		{Assistant, "If the slot turned out to be full or the insert fails, cancel the intent.", ""},
		// Permissions said as what is fine now or what to go ahead with.
		{User, "Front-desk training moved to its own demo environment, so load tests on staging are fine at any hour now.", "pref"},
		{User, "And since every migration has a down file, you can go ahead and run `sqlx migrate revert` on the compose DB whenever you need to.", "pref"},
		// Turned down with the reason after it; a rule for ever.
		{User, "No ESP RainMaker, no cloud: I'm not putting a third party between my front door and my LAN.", "rejected"},
		{User, "And generally: nothing that burns eFuses, ever, unless I'm the one doing it.", "pref"},
		{Assistant, "No changes: the build is green.", ""},
		// One thing to make is no way of working.
		{User, "Write the Dockerfile now, multi-stage with a distroless runtime.", ""},
		{User, "Write a changelog entry for every release, please.", "pref"},
		// The round of 13 January: the remedy is no cause, nor is the
		// reason for a choice; what the work had to change is no work
		// left.
		{Assistant, "The backup fills the link and knet declares it down. The fix is to give corosync its own network.", "decision"},
		{Assistant, "The fix is to give corosync its own network.", "decision"},
		{Assistant, "I went with a GitHub App installation token. The reason is that the app's installation tokens aren't tied to a person leaving the company.", "decision"},
		{Assistant, "The reason it failed is that the cron ran twice because the timer fired on both nodes.", "root"},
		{Assistant, "One thing that had to change with the model: bge-m3's cosine scores are shifted up compared to what we had — on-topic questions land at 0.41–0.66, and my off-topic probes now come in at 0.36–0.39, i.e. above the old 0.32 cut-off, so the bot would have answered them.", "decision"},
		{Assistant, "One more thing: the release job fails because HOMEBREW_TAP_TOKEN isn't set.", "open"},
		// A failure or a list of options is no decision, whatever it
		// names: a change of version, a thing fine, a switch offered.
		{User, "People upgrading from 1.3.1 to 1.3.2 crash on launch, the play console is full of it.", ""},
		{Assistant, "The labels themselves are fine; the glyphs are missing.", ""},
		{Assistant, "Two options: a custom executor image with libpq-dev, or switch to psycopg 3's binary wheel which bundles libpq.", ""},
		{Assistant, "Done: after the 8th failed attempt the job is moved (not deleted) into jobs_dead with the time it was buried. I kept the whole row rather than a summary since whoever is on call can then look at the payload and replay it by hand.", "decision,rejected"},
	} {
		got := strings.Join(classify(tc.role, tc.text), ",")
		if got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.role, tc.text, got, tc.want)
		}
	}
}

// squeeze is s without white space and emphasis characters, for comparing
// what sentences keep with what they came from.
func squeeze(s string) string {
	s = strings.Join(strings.Fields(s), "")
	return strings.NewReplacer("*", "", "_", "").Replace(s)
}

// FuzzSentences: splitting never invents or reorders text, never leaves a
// line break or an empty sentence, and what is shortened (upTo, title) is
// shortened at a boundary, without an ellipsis. The seed corpus is in
// testdata/fuzz/FuzzSentences.
func FuzzSentences(f *testing.F) {
	f.Add("Decision: jobs are claimed with SELECT ... FOR UPDATE SKIP LOCKED. Workers poll every 2.5s.")
	f.Add("- e.g. `a. B` and v1.2.3\n  wrapped. Next.\n```\ncode. X\n```\n## Head\n1. item")
	f.Add("**Run.** Join it as well:\n\n```sh\n$ sam local start-api --docker-network n\n```\nAfter.")
	f.Fuzz(func(t *testing.T, in string) {
		if !utf8.ValidString(in) {
			return
		}
		whole := squeeze(in)
		at := 0
		for _, s := range prose.Sentences(in) {
			if s == "" || s != strings.TrimSpace(s) || strings.Contains(s, "\n") {
				t.Fatalf("sentence %q", s)
			}
			// A one-line code block joins the sentence that ends with a
			// colon right before it: each part is in order.
			parts := []string{s}
			if j := strings.LastIndex(s, ": `"); j >= 0 && strings.HasSuffix(s, "`") {
				parts = []string{s[:j+1], strings.Trim(s[j+2:], "`")}
			}
			for _, part := range parts {
				i := strings.Index(whole[at:], squeeze(part))
				if i < 0 {
					t.Fatalf("sentence %q is not in order in %q", s, in)
				}
				at += i
			}
		}
		norm := strings.Join(strings.Fields(in), " ")
		if u := prose.UpTo(in, 120); !strings.HasPrefix(norm, u) || !utf8.ValidString(u) {
			t.Fatalf("upTo(%q) = %q, not a prefix", in, u)
		}
		tt := Title(in)
		if len(tt) > MaxTitle || strings.HasSuffix(tt, "…") || strings.Contains(tt, "\n") || !utf8.ValidString(tt) {
			t.Fatalf("title(%q) = %q", in, tt)
		}
	})
}

// TestOpenCarried: the open items of the summary so far are carried into
// the next segment's Open list unless it resolves them; a question the
// user answered is not open any more.
func TestOpenCarried(t *testing.T) {
	first := loadRequest(t, "testdata/segments/multi.json")
	res1, err := Extractive{}.Summarize(t.Context(), first)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- Not yet answered: Should the dry run write a CSV report too?", "- Next step: run it against staging"} {
		if !strings.Contains(res1.Summary, want) {
			t.Fatalf("segment 1 lacks %q:\n%s", want, res1.Summary)
		}
	}
	next := Request{SessionID: first.SessionID, PreviousSummary: "# Summary of session c41e9b07\n\n" + res1.Summary, Segment: Segment{Turns: []Turn{
		{Role: User, Text: "Yes, write a CSV with the old and new totals per invoice."},
		{Role: Tool, Tool: "Bash", Input: "go run ./cmd/recompute --dry-run --csv out.csv", ExitCode: new(int)},
		{Role: Assistant, Text: "I ran the recompute against staging with --dry-run and compared totals: 312 invoices change, all by the expected factor. The report is in out.csv."},
		{Role: User, Text: "/clear"},
	}}}
	res2, err := Extractive{}.Summarize(t.Context(), next)
	if err != nil {
		t.Fatal(err)
	}
	open := res2.Summary[strings.Index(res2.Summary, "**Open**"):]
	if !strings.HasPrefix(res2.Summary, "## Segment 2\n") || !strings.Contains(open, "- The old invoices from March still need to be recomputed") ||
		strings.Contains(open, "Not yet answered") || strings.Contains(open, "Next step: run it against staging") || strings.Contains(res2.Summary, "/clear") {
		t.Errorf("segment 2:\n%s", res2.Summary)
	}
}

// TestOpenFileWritten: an open item that says a file is missing is
// done once the file is written, later in the segment or in the next;
// a file only edited, or named as missing after it was written, is not.
func TestOpenFileWritten(t *testing.T) {
	missing := "The repo has no Dockerfile yet; the build step expects one at the root."
	for _, tc := range []struct {
		name  string
		turns []Turn
		open  bool
	}{
		{"written after", []Turn{
			{Role: User, Text: "Write the release workflow."},
			{Role: Assistant, Text: "Done: the workflow builds the image. " + missing},
			{Role: User, Text: "Yes, write the Dockerfile."},
			{Role: Tool, Tool: "Write", Input: "Dockerfile", Text: "ok"},
			{Role: Assistant, Text: "It is multi-stage with a distroless runtime."},
		}, false},
		{"written before", []Turn{
			{Role: User, Text: "Write the release workflow."},
			{Role: Tool, Tool: "Write", Input: "Dockerfile", Text: "ok"},
			{Role: Assistant, Text: "Done: the workflow builds the image. " + missing},
		}, true},
		{"edited", []Turn{
			{Role: User, Text: "Write the release workflow."},
			{Role: Assistant, Text: "Done: the workflow builds the image. " + missing},
			{Role: Tool, Tool: "Edit", Input: "Dockerfile", Text: "ok"},
			{Role: Assistant, Text: "Edited."},
		}, true},
	} {
		res, err := Extractive{}.Summarize(t.Context(), Request{SessionID: "s", First: true, Segment: Segment{Turns: tc.turns}})
		if err != nil {
			t.Fatal(err)
		}
		if open := strings.Contains(res.Summary, "**Open**\n- The repo has no Dockerfile yet"); open != tc.open {
			t.Errorf("%s: open %v, want %v:\n%s", tc.name, open, tc.open, res.Summary)
		}
	}
}

// TestRejectedIntoDecision: an alternative turned down in prose, before
// or after the decision in the same message, lands in its body.
func TestRejectedIntoDecision(t *testing.T) {
	for _, text := range []string{
		"I'd go with SQLite for the local cache. Redis looks tempting on paper, but it is one more service to run on every laptop.",
		"We thought about a Redis cache for this, but it is one more service to run on every laptop. Let's use SQLite for the local cache.",
	} {
		a := analyze([]Turn{{Role: User, Text: "what should we use for the cache?"}, {Role: Assistant, Text: text}}, "", nil)
		var body string
		for _, c := range a.items {
			if c.Kind == Decision {
				body = c.Body
			}
		}
		if !strings.Contains(body, "Rejected:") || !strings.Contains(body, "Redis") || !strings.Contains(body, "one more service") {
			t.Errorf("%q: decision body %q, items %+v", text, body, a.items)
		}
	}
}

// TestRequestIsNotOpen: what the user asks for now is the request,
// answered in the session, neither an open item nor a rejected
// alternative; what the agent leaves undone is open.
func TestRequestIsNotOpen(t *testing.T) {
	for _, tc := range []struct{ ask, left, open string }{
		{"Add the test for Backoff that is still missing.", "Open item: the test body is still empty.", "- The test body is still empty"},
		{"Please fix the login redirect, it still breaks on Safari.", "The Firefox check is not done yet.", "- The Firefox check is not done yet"},
		{"Can you write the migration that is still missing?", "Still to do: backfill the old rows.", "- Backfill the old rows"},
	} {
		res, err := Extractive{}.Summarize(t.Context(), Request{SessionID: "x", Segment: Segment{Index: 1, Turns: []Turn{
			{Role: User, Text: tc.ask},
			{Role: Tool, Tool: "Bash", Input: "make test", ExitCode: new(int), Text: "ok"},
			{Role: Assistant, Text: "Done, the change is in. " + tc.left},
		}}})
		if err != nil {
			t.Fatal(err)
		}
		open := res.Summary[strings.Index(res.Summary, "**Open**")+1:]
		if strings.Contains(res.Summary, "**Rejected**") || strings.Contains(open, tc.ask) || !strings.Contains(open, tc.open) {
			t.Errorf("%q:\n%s", tc.ask, res.Summary)
		}
	}
}

// item runs the prose analysis over one exchange (an agent message and,
// when user is not empty, the user's reply) and returns its candidates
// and open items.
func item(t *testing.T, agent, user string) *analysis {
	t.Helper()
	a := &analysis{byPath: map[string]*fileUse{}, seen: map[string]bool{}}
	a.prose(Assistant, 0, agent)
	if user != "" {
		a.prose(User, 1, user)
	}
	return a
}

// TestReasonKept: the reason for a decision, or for what the agent
// reports it did, stays with it when it is said after it: in a later
// sentence or paragraph, or in the user's reply.
func TestReasonKept(t *testing.T) {
	for _, tc := range []struct {
		name, agent, user string
		Title, body       string // substrings of the decision
	}{
		{"label after a report",
			"Added a unique index on orders.external_id and a retry on conflict; nothing is applied yet.\n\nWhy both: the index makes the database refuse a second row when two workers race, and the retry turns that refusal into a no-op.", "",
			"unique index", "the database refuse a second row"},
		{"reason paragraph after a choice",
			"I'd go with SQLite for the local cache. It is one file next to the binary.\n\nThe reason: a server process would have to be started by every developer before the tests run.", "",
			"SQLite", "server process would have to be started"},
		{"that way, in the user's reply",
			"We'll use signed URLs for the report downloads.", "That way nobody needs an account to fetch a report.",
			"signed URLs", "nobody needs an account"},
		{"the reasons named after the choice",
			"The runbook records the reasons we're staying on Grafana: the alert rules are in its format already, and the on-call rota reads its mobile app.", "",
			"staying on Grafana", "alert rules are in its format"},
		{"what was done, reported as a state, and its effect",
			"The importer now reads the upload in chunks of 64 KB and writes each chunk as it comes. Memory stays flat however large the upload is.", "",
			"importer now reads", "Memory stays flat"},
		// The round of 13 January: "The reason is that …" said once, and
		// a title cut at its colon, whose body was its reason alone.
		{"the reason is that",
			"I went with a GitHub App installation token instead of a personal access token. The reason is that the app's installation tokens aren't tied to a person leaving the company.", "",
			"GitHub App installation token", "The app's installation tokens aren't tied"},
		{"a title cut at its colon",
			"One thing that had to change with the model: bge-m3's cosine scores are shifted up compared to what we had — on-topic questions land at 0.41–0.66, and my off-topic probes now come in at 0.36–0.39, i.e. above the old 0.32 cut-off, so the bot would have answered them.", "",
			"One thing that had to change", "bge-m3's cosine scores"},
	} {
		a := item(t, tc.agent, tc.user)
		found := false
		for _, c := range a.cand {
			if c.Kind == Decision && strings.Contains(c.Title, tc.Title) {
				found = true
				if !strings.Contains(c.Body, tc.body) {
					t.Errorf("%s: body %q lacks %q", tc.name, c.Body, tc.body)
				}
			}
		}
		if !found {
			t.Errorf("%s: no decision %q in %+v", tc.name, tc.Title, a.cand)
		}
		if line := strings.Join(a.decisions, "\n"); !strings.Contains(line, tc.body) {
			t.Errorf("%s: summary line %q lacks %q", tc.name, line, tc.body)
		}
	}
}

// TestCountedNotes: "Two notes for later." counts the open items the
// sentences after it in its paragraph tell; it is none itself.
func TestCountedNotes(t *testing.T) {
	a := item(t, "Two notes for later. The client still talks to https://api-staging.example.app/v1, hard-coded in client.ts. And nothing tests the refresh path.\n\nThe build is green.", "")
	want := []string{"The client still talks to https://api-staging.example.app/v1, hard-coded in client.ts.", "Nothing tests the refresh path."}
	var got []string
	for _, o := range a.open {
		got = append(got, o.text)
	}
	if !slices.Equal(got, want) {
		t.Errorf("open = %q, want %q", got, want)
	}
}

// TestDetails: a sentence of an answer with a value or a name that no
// other part took is a detail; one another part holds, a question, a
// bare check result or the agent narrating is not.
func TestDetails(t *testing.T) {
	a := analyze([]Turn{{Role: User, Text: "Lock the HLS files down."}, {Role: Assistant, Text: "For the HLS streams I went with signed cookies rather than signed URLs. A lecture is over 500 segment requests, and with signed URLs every playlist would be rewritten per viewer. Signed URLs stay for the one place where they fit: the MP4 download button. Unit tests pass. You need to add the key pair ID to the app's .env first. Let me know if the CDN needs more.\n\nThe cookies are valid for 4 hours."}}, "", nil)
	want := []string{"Signed URLs stay for the one place where they fit: the MP4 download button."}
	if !slices.Equal(a.details, want) {
		t.Errorf("details = %q, want %q", a.details, want)
	}
	// What another part holds, however it words it, is no detail.
	a = analyze([]Turn{{Role: User, Text: "Sessions?"}, {Role: Assistant, Text: "The store is set up. It took a while to wire.\n\nWe'll use Redis 7 for the session store, since Memcached has no persistence. Two things are open. One, the Stripe key is unrotated."}}, "", nil)
	if len(a.details) != 0 {
		t.Errorf("details = %q, want none", a.details)
	}
	// What the user tells of the past after a time ("Until now …") or a
	// "So" is kept.
	if !detail("Until now Fiona (our publisher) did them in one giant Excel workbook and it took her three weeks every March.") || !detail("So the H2 2025 statements have to be out by 31 March.") {
		t.Errorf("a statement after a time or a \"So\" is no detail")
	}
	if !detail("The codes are CEN, ASH, MIL, HOL, BRD, FEN, KNT, SHW and WIT.") {
		t.Errorf("a list of codes is no detail")
	}
	// A remark the decisions hold without its lead-in is no detail either.
	a = analyze([]Turn{{Role: User, Text: "Plex or Jellyfin?"}, {Role: Assistant, Text: "Jellyfin now gets /dev/dri for VAAPI transcoding. One thing worth saying about the choice itself, since you asked: the reason Jellyfin is the better fit here is that hardware transcoding needs no paid pass."}}, "", nil)
	if len(a.details) != 0 {
		t.Errorf("details = %q, want none", a.details)
	}
}

// TestStepNamed: what the agent says before a tool call, when it only
// names the step ("Now the W&B run name."), is no decision.
func TestStepNamed(t *testing.T) {
	a := analyze([]Turn{{Role: User, Text: "Log the runs to W&B."}, {Role: Assistant, Text: "Now the W&B run name."}, {Role: Tool, Tool: "Edit", Input: "train.py"}, {Role: Assistant, Text: "Runs are named after the config hash."}}, "", nil)
	if len(a.decisions) != 0 {
		t.Errorf("decisions = %q, want none", a.decisions)
	}
}

// TestReasonOfItsOwn: a next sentence that opens on the reason for what
// it says itself gives the decision before it no reason (blind AK).
func TestReasonOfItsOwn(t *testing.T) {
	a := item(t, "The cron now runs every 2 hours. Because the record is `noupdate=\"1\"`, I'll also change the existing record on prod by hand after the upgrade.", "")
	if len(a.decisions) != 1 || a.decisions[0] != "The cron now runs every 2 hours." {
		t.Errorf("decisions = %q, want the change alone", a.decisions)
	}
}

// TestAlternativeWithCost: an alternative the agent weighed and turned
// down, with what it would have cost, is a rejected alternative.
func TestAlternativeWithCost(t *testing.T) {
	for _, s := range []string{
		"An alternative would have been to shard the table by tenant, but that means rewriting every query and a day-long migration window.",
		"We could have rebuilt the image from scratch, but every rebuild costs forty minutes of CI.",
	} {
		if got := classify(Assistant, s); !slices.Contains(got, "rejected") {
			t.Errorf("%q: %v, want rejected", s, got)
		}
	}
}

// TestCauseAfterSymptom: a failure told in one sentence and explained in
// the next is one root cause that keeps both.
func TestCauseAfterSymptom(t *testing.T) {
	for _, tc := range []struct{ text, symptom, cause string }{
		{"The nightly report timed out for the largest tenant. Each row was fetched with its own query, so 90k rows meant 90k round trips.",
			"nightly report timed out", "90k round trips"},
		{"Uploads over 2 GB failed halfway. The size was kept in an int32 until the multipart step, which wrapped it negative.",
			"Uploads over 2 GB failed", "int32"},
		{"The job runner built every payload in memory, and with ten thousand jobs queued that exhausted the heap.",
			"", "exhausted the heap"},
	} {
		a := item(t, tc.text, "")
		if len(a.rootCauses) != 1 || !strings.Contains(a.rootCauses[0], tc.symptom) || !strings.Contains(a.rootCauses[0], tc.cause) {
			t.Errorf("%q: root causes %q", tc.text, a.rootCauses)
			continue
		}
		for _, c := range a.cand {
			if slices.Contains(c.Tags, "root-cause") && !strings.Contains(c.Title+" "+c.Body, tc.cause) {
				t.Errorf("%q: item %q / %q lacks the cause", tc.text, c.Title, c.Body)
			}
		}
	}
}

// TestOpenLabelTrimmed: an open item is the work, not the label before
// it.
func TestOpenLabelTrimmed(t *testing.T) {
	for in, want := range map[string]string{
		"Still needed: an alert on the dead-letter queue.":         "An alert on the dead-letter queue.",
		"Remaining for next time: the retry budget per tenant.":    "The retry budget per tenant.",
		"Open item: the admin page still has no pagination.":       "The admin page still has no pagination.",
		"Still to do — sign the release artifacts before we ship.": "Sign the release artifacts before we ship.",
		"We still need to backfill the old rows.":                  "We still need to backfill the old rows.",
	} {
		a := item(t, in, "")
		if len(a.open) != 1 || a.open[0].text != want {
			t.Errorf("%q: open %+v, want %q", in, a.open, want)
		}
	}
}

// TestOpenWhy: the sentence after an open item that says, by a pronoun,
// why it matters is part of the item (and goes when it is done), not a
// detail of its own; one about something else is not.
func TestOpenWhy(t *testing.T) {
	a := item(t, "One thing for later: the worker's query filters on delivered_at IS NULL and nothing indexes it. That's fine at today's volume, but it will read the whole table once relay_outbox grows.", "")
	if len(a.open) != 1 || !strings.HasSuffix(a.open[0].text, "once relay_outbox grows.") || slices.ContainsFunc(a.details, func(d string) bool { return strings.Contains(d, "today's volume") }) {
		t.Errorf("open %+v, details %q", a.open, a.details)
	}
	a = item(t, "One thing for later: nothing indexes the query the outbox worker runs every 30 seconds. The relay listens on port 7070 behind nginx.", "")
	if len(a.open) != 1 || strings.Contains(a.open[0].text, "7070") {
		t.Errorf("open %+v", a.open)
	}
}

// TestAlternative: what a decision turns down and what it takes in its
// place, or nothing when the sentence names no choice beside it.
func TestAlternative(t *testing.T) {
	for _, tc := range []struct{ in, alt, choice string }{
		{"Store the cache as JSON instead of a SQLite file", "SQLite file", "Store the cache as JSON"},
		{"Rather than bump the Node image (the lockfile pins npm 9), I'll pin the old resolver", "bump the Node image", "I'll pin the old resolver"},
		{"Instead of polling the bucket, we subscribe to its notifications", "polling the bucket", "we subscribe to its notifications"},
		{"We chose zod over yup for validation", "yup", "We chose zod"},
		{"Replace the legacy parser with the generated one", "legacy parser", "Replace the legacy parser with the generated one"},
		{"Drop the stale helper and point main.go at the new package", "stale helper", "Drop the stale helper and point main.go at the new package"},
		{"Then: we're dropping the v1 endpoints, point the SDK at /v2", "v1 endpoints", "point the SDK at /v2"},
		{"Why a queue rather than a cron job: with cron, a slow run overlaps the next", "cron job", "Why a queue"},
		// No choice named beside the alternative.
		{"Replace the legacy parser and point cli.py at it", "", ""},
		{"Run the suite twice over since the cache is shared", "", ""},
		{"Drop the pool to 15: that's 45, plus some room for migrations", "", ""},
	} {
		alt, choice := prose.Alternative(tc.in)
		if alt != tc.alt || choice != tc.choice {
			t.Errorf("alternative(%q) = %q, %q; want %q, %q", tc.in, alt, choice, tc.alt, tc.choice)
		}
	}
}

// TestAnnouncedExplanation: after "Found it." or "Here's what happens."
// the explanation is the sentences that follow (after "The watermark is
// the problem." with it), kept as one root cause,
// and a check or a present state is no cause.
func TestAnnouncedExplanation(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Found it. The importer reads `encoding: latin1`. Any byte above 0x7f is then read as one character. The UTF-8 names come out as two garbled letters each.",
			"The importer reads `encoding: latin1`. Any byte above 0x7f is then read as one character. The UTF-8 names come out as two garbled letters each."},
		{"Here's what happens. The nightly job runs at 02:00 in UTC, and the cut-off is local time. So orders placed after 22:00 land in the next day's report.",
			"The nightly job runs at 02:00 in UTC, and the cut-off is local time. So orders placed after 22:00 land in the next day's report."},
		{"So it wasn't the proxy at all. The client reused a closed connection from its pool, which is why every tenth request reset.",
			"The client reused a closed connection from its pool, which is why every tenth request reset."},
		{"The trace explains the lost edits. Connection A merges rows up to seq 90412 while B inserts 90413. Then A deletes every row of the document, the new one too.",
			"Connection A merges rows up to seq 90412 while B inserts 90413. Then A deletes every row of the document, the new one too."},
		{"Turns out the failures are our own doing. OpenDKIM signs the 8-bit bodies, and Postfix rewrites them to quoted-printable on the way out. That changes the bytes after the signature was made.",
			"OpenDKIM signs the 8-bit bodies, and Postfix rewrites them to quoted-printable on the way out. That changes the bytes after the signature was made."},
		{"Reproduced: 9 bookings on a capacity of 8. What happens: `BeginTx` issues a plain `BEGIN`, which in SQLite is deferred, so the transaction takes no lock until its first write.",
			"What happens: `BeginTx` issues a plain `BEGIN`"},
		{"That explains it. The median way is 71 m long, because OSM splits a path at every junction. A 50 m tolerance collapses a 40 m way to nothing.",
			"The median way is 71 m long, because OSM splits a path at every junction. A 50 m tolerance collapses a 40 m way to nothing."},
		// A cause named in a few words is told by the sentences after it.
		{"There it is: `ST_Length(geom)` on EPSG:3857. Web Mercator units are metres only at the equator, so every length was 62 percent too long.",
			"There it is: `ST_Length(geom)` on EPSG:3857. Web Mercator units are metres only at the equator, so every length was 62 percent too long."},
		{"The watermark is the problem. The job allows 5 minutes of lateness but events arrive up to 20 minutes late, so they are dropped. I raised it to 30 minutes.",
			"The watermark is the problem. The job allows 5 minutes of lateness but events arrive up to 20 minutes late, so they are dropped."},
		{"The duplicate posts came from Synapse itself. The handler answered only after the forum POST, so the homeserver resent the transaction.",
			"The duplicate posts came from Synapse itself."},
		// The fault named after the explanation closes it; named first,
		// the explanation follows.
		{"Both are right, and our test is the one that's misleading. When the API slowed down, the VUs slowed down with it. The requests that would have waited 3 s were never sent, so k6's p95 stayed near 420 ms. That's coordinated omission. The fix is an arrival-rate executor.",
			"Coordinated omission: When the API slowed down, the VUs slowed down with it. The requests that would have waited 3 s were never sent"},
		{"That's an MTU problem. PPPoE takes 8 bytes, so pppoe-wan has an MTU of 1492 and leaves 1412 for wg0.",
			"That's an MTU problem. PPPoE takes 8 bytes"},
	} {
		a := item(t, tc.text, "")
		if len(a.rootCauses) != 1 || !strings.HasPrefix(a.rootCauses[0], tc.want) {
			t.Errorf("%q: root causes %q, want %q", tc.text, a.rootCauses, tc.want)
		}
	}
	for _, s := range []string{
		"Just to check the cache isn't involved.",
		"The upload path isn't touched.",
		"The cache is fine. That's not a problem.",
		"I moved the retry into the worker. That's the plan.",
	} {
		if a := item(t, s, ""); len(a.rootCauses) != 0 {
			t.Errorf("%q: root causes %q, want none", s, a.rootCauses)
		}
	}
}

// TestChoseOver: the agent's report of a choice made against a named
// alternative is a decision.
func TestChoseOver(t *testing.T) {
	for _, s := range []string{
		"I stored the totals in integer cents rather than floats: rounding would drift over a month of invoices.",
		"We indexed the audit rows by tenant instead of by date, since every query filters on tenant.",
	} {
		a := item(t, s, "")
		if len(a.cand) == 0 || a.cand[0].Kind != Decision {
			t.Errorf("%q: candidates %+v, want a decision", s, a.cand)
		}
	}
	if a := item(t, "I looked at the log instead of the trace.", ""); len(a.cand) != 0 && a.cand[0].Kind == Decision {
		t.Errorf("a look is no decision: %+v", a.cand)
	}
}

// TestNoCoreWithoutReferent: a statement that needs the one before it to
// say anything ("I marked it exclusive", "29318 it is") is no item of
// core memory, which is read without the conversation; a choice that
// names what it chose is one.
func TestNoCoreWithoutReferent(t *testing.T) {
	for _, s := range []string{"I marked it exclusive.", "29318 it is.", "It hadn't been written yet, so the build failed."} {
		if a := item(t, s, ""); len(a.cand) != 0 {
			t.Errorf("%q: candidates %+v, want none", s, a.cand)
		}
	}
	a := item(t, "matrix-nio it is, then, for the client side; the appservice endpoint will be a small aiohttp app of our own.", "")
	if len(a.cand) == 0 || a.cand[0].Kind != Decision {
		t.Errorf("candidates %+v, want a decision", a.cand)
	}
}

// TestChoiceSaysWhat: a short choice whose object the sentence before
// names ("Make it 5 days.") is said with that sentence.
func TestChoiceSaysWhat(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"The model misses late rows because our lookback is only 3 days. Make it 5 days.", "Make it 5 days — The model misses late rows because our lookback is only 3 days."},
		{"There are two ways: a visibility timeout or a heartbeat. I'd go with the second.", "I'd go with the second — There are two ways: a visibility timeout or a heartbeat."},
	} {
		if a := item(t, tc.text, ""); len(a.decisions) != 1 || a.decisions[0] != tc.want {
			t.Errorf("%q: decisions %q, want %q", tc.text, a.decisions, tc.want)
		}
	}
}

// TestApproachAndParagraphs: the agent's message before its first change
// keeps its diagnosis and plan, whatever their wording, and the final
// report keeps the first sentence of each paragraph, but not a later
// paragraph's proposal.
func TestApproachAndParagraphs(t *testing.T) {
	req := Request{SessionID: "s1", Segment: Segment{Turns: []Turn{
		{Role: User, Text: "The orchard stutters every few seconds on the cheap phones. Profile is in ci/profile.sh."},
		{Role: Assistant, Text: "Let me look at the capture."},
		{Role: Tool, Tool: "Bash", Input: "sh ci/profile.sh", ExitCode: new(int)},
		{Role: Assistant, Text: "The big stutters are garbage collections. Nearly all of it is `HudController.Update`: it rebuilds both labels with `string.Format` every frame. I'll make the HUD update its labels only when a value changes."},
		{Role: Tool, Tool: "Write", Input: "Assets/Scripts/UI/HudController.cs"},
		{Role: Assistant, Text: "The 41 ms spikes are gone and the HUD allocates nothing per frame now.\n\nOne thing I'd rather not do is switch on incremental GC: it would hide the stutter but keep the garbage.\n\nIf you agree I'll look at the particle spike next."},
	}}}
	res, err := Extractive{}.Summarize(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**Approach**", "`HudController.Update`: it rebuilds both labels", "I'll make the HUD update its labels only when a value changes", "incremental GC"} {
		if !strings.Contains(res.Summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, res.Summary)
		}
	}
	outcome, _, _ := strings.Cut(res.Summary[strings.Index(res.Summary, "**Outcome**"):], "\n\n**")
	if strings.Contains(outcome, "particle spike next") {
		t.Errorf("a later paragraph's proposal is an outcome:\n%s", res.Summary)
	}
}

// TestFlaggedIsOpen: a problem the agent raises beside its report is
// work left, not what the work came to.
func TestFlaggedIsOpen(t *testing.T) {
	text := "The webhook route now verifies the signature and stores the settlement.\n\n" +
		"One more thing I noticed in the route: nothing stops the same event from being applied twice."
	a := analyze([]Turn{{Role: User, Text: "wire the settlement webhook"}, {Role: Assistant, Text: text}}, "", nil)
	for _, o := range a.outcome() {
		if strings.Contains(o, "applied twice") {
			t.Errorf("outcome %q", o)
		}
	}
	if open := a.openPoints(); len(open) != 1 || !strings.Contains(open[0], "applied twice") {
		t.Errorf("open %q", open)
	}
}

// TestOpenSaysWhat: work left told with a pronoun ("I haven't fixed
// that yet", "Haven't looked into it.") carries the sentence that says what, a second problem the
// agent raises is open, and a complaint about what to do next time is a
// preference, not work left.
func TestOpenSaysWhat(t *testing.T) {
	text := "The swapchain is recreated after the fences now. There's a second problem in your log: `depth attachment extent (1280x720) is smaller than renderArea`. I haven't fixed that yet; it's the next thing to do."
	a := analyze([]Turn{{Role: User, Text: "fix the resize crash"}, {Role: Assistant, Text: text},
		{Role: User, Text: "Please don't paste the whole ninja log at me next time, it's hundreds of lines. Saving from VS Code works every time."},
		{Role: Assistant, Text: "Understood, only warnings and errors from now on."}}, "", nil)
	open := a.openPoints()
	if len(open) != 1 || !strings.Contains(open[0], "depth attachment extent") || !strings.Contains(open[0], "haven't fixed that yet") {
		t.Errorf("open %q", open)
	}
	// The same when the pronoun is the subject.
	a2 := analyze([]Turn{{Role: User, Text: "run the e2e suite"}, {Role: Assistant, Text: `One problem: "alert rule preview returns data" failed once in three runs with a 30 s timeout. It's flaky; I haven't found why yet, so I'll leave it as the first thing for next time.`}}, "", nil)
	if open := a2.openPoints(); len(open) != 1 || !strings.Contains(open[0], "alert rule preview") {
		t.Errorf("open %q", open)
	}
	var prefs []string
	for _, c := range a.cand {
		if c.Kind == Preference {
			prefs = append(prefs, c.Title)
		}
	}
	if len(prefs) != 1 || !strings.Contains(prefs[0], "ninja log") {
		t.Errorf("preferences %q, want only the ninja log one", prefs)
	}
	// The same without a subject (blind AG).
	a2 = analyze([]Turn{{Role: User, Text: "set up OTA"}, {Role: Assistant, Text: "OTA works. One thing I noticed reading the ESP loop: when the broker restarts, `mqtt.connect()` keeps failing with state -2. Haven't looked into it."}}, "", nil)
	if open := a2.openPoints(); len(open) != 1 || !strings.Contains(open[0], "mqtt.connect()") {
		t.Errorf("open %q", open)
	}
	a = analyze([]Turn{{Role: User, Text: "run the suite"}, {Role: Assistant, Text: "The cart tests pass. So the checkout coupon test passes, fails, passes on identical runs: it's flaky, failing every other run. Nothing from today touches checkout, so I'd look at it separately."}}, "", nil)
	if open := a.openPoints(); len(open) != 1 || !strings.Contains(open[0], "coupon test passes, fails") {
		t.Errorf("open %q, want the flaky test put off", open)
	}
}

func TestSplitReasonNext(t *testing.T) {
	for _, tc := range []struct{ s, next, why string }{
		{"Let's use a fake clock in the retry tests.", "That way they stop depending on the machine's speed.", "That way they stop depending on the machine's speed."},
		{"I'll stick to --target dev from now on.", "Both targets run with 4 threads on TRANSFORM_WH, so the change goes live with the next deploy.", ""},
		{"The ledger call now runs after the commit.", "A gap I want to flag: if a pod dies in between, the settlement is lost because the retry lives in memory.", ""},
		{"We decided to keep linear backoff rather than exponential, because the upstream rate limit resets every minute.", "", "because the upstream rate limit resets every minute."},
		{"Ops doesn't want to be paged for the history service, so we're going with Temporal Cloud.", "", "Ops doesn't want to be paged for the history service"},
		{"Given you know EasyBuild and the requests are mostly standard packages, I'd go with Lmod 8.7 and EasyBuild 4.9.", "", "Given you know EasyBuild and the requests are mostly standard packages"},
	} {
		if _, why := reason.Split(tc.s, tc.next); why != tc.why {
			t.Errorf("reason.Split(%q, %q): why %q, want %q", tc.s, tc.next, why, tc.why)
		}
	}
	if got := decisionTitle("We decided to keep linear backoff rather than exponential"); got != "Keep linear backoff rather than exponential" {
		t.Errorf("decisionTitle = %q", got)
	}
}

// TestSymptomNoDecision: a measure told in place of another ("wait hours
// instead of seconds") is how a bug shows, no decision and no rejected
// alternative; "make it 7 days instead of 3" is a choice.
func TestSymptomNoDecision(t *testing.T) {
	a := analyze([]Turn{{Role: User, Text: "Retries in the job queue wait hours instead of seconds. Find out why and fix it."}}, "", nil)
	for _, c := range a.cand {
		if c.Kind == Decision {
			t.Errorf("decision %q from a symptom", c.Title)
		}
	}
	if len(a.rejected) > 0 {
		t.Errorf("rejected %q from a symptom", a.rejected)
	}
	a = analyze([]Turn{{Role: User, Text: "Make the lookback window 7 days instead of 3."}}, "", nil)
	n := 0
	for _, c := range a.cand {
		if c.Kind == Decision {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d decisions from a choice, want 1", n)
	}
}

// TestOpenPutOff: the user putting off what the agent raised leaves the
// agent's item open, not a second one that names it ("leave the crash
// for tomorrow"), and the agent's "let me …" step is no open item,
// whatever later time its purpose names.
func TestOpenPutOff(t *testing.T) {
	a := analyze([]Turn{
		{Role: User, Text: "add the overlap constraint"},
		{Role: Assistant, Text: "The constraint is in. Something I noticed while testing: when you pick a slot that is already taken, the LiveView crashes with an Ecto.ConstraintError instead of showing a message on the form."},
		{Role: User, Text: "thanks! leave the crash for tomorrow"},
		{Role: Assistant, Text: "Let me note where it comes from so it's quick tomorrow."},
		{Role: Tool, Tool: "Read", Input: "lib/booking.ex"},
		{Role: Assistant, Text: "Noted: the Booking changeset needs to declare the constraint; I'll start there tomorrow."},
	}, "", nil)
	open := a.openPoints()
	if len(open) != 2 || !strings.Contains(open[0], "LiveView crashes") || !strings.Contains(open[1], "changeset needs to declare") {
		t.Errorf("open %q, want the crash and the changeset", open)
	}
}

// TestFilesSayWhat: a changed file carries what the agent said as it
// first changed it, when that says something.
func TestFilesSayWhat(t *testing.T) {
	a := analyze([]Turn{
		{Role: User, Text: "rate limit the API"},
		{Role: Assistant, Text: "Now let me add a berth loader, same key-order mapping:"},
		{Role: Tool, Tool: "Edit", Input: "src/loaders.ts"},
		{Role: Assistant, Text: "Changing it."},
		{Role: Tool, Tool: "Edit", Input: "src/server.ts"},
		{Role: Tool, Tool: "Edit", Input: "src/loaders.ts"},
	}, "", nil)
	var got []string
	for _, f := range a.files {
		got = append(got, f.path+"|"+f.what)
	}
	want := []string{"src/loaders.ts|add a berth loader, same key-order mapping", "src/server.ts|"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files %q, want %q", got, want)
	}
}

// TestCauseByContrast: "it was the test, not the shop" announces the
// explanation that follows, and "failing since Tuesday" gives no cause.
func TestCauseByContrast(t *testing.T) {
	a := analyze([]Turn{
		{Role: User, Text: "now the coupon test. It's been failing every other run since at least Tuesday and CI retries are hiding it."},
		{Role: Tool, Tool: "Bash", Input: "sh scripts/e2e.sh chromium checkout", ExitCode: new(int)},
		{Role: Assistant, Text: "It's fixed, and it was the test, not the shop. The coupon input sends the code to the cart through a 300 ms debounce, and the test waited a fixed 200 ms before clicking Apply, so whether the store already had the code depended on timing. I took the sleep out."},
	}, "", nil)
	if len(a.rootCauses) != 1 || !strings.Contains(a.rootCauses[0], "300 ms debounce") {
		t.Errorf("root causes %q, want the debounce", a.rootCauses)
	}
}

// TestFlaggedNotEnvironment: a side problem the agent flags is open, not
// an environment fact, and a bare "Not fixed yet." joins it.
func TestFlaggedNotEnvironment(t *testing.T) {
	a := analyze([]Turn{{Role: User, Text: "add the region filter"},
		{Role: Assistant, Text: "The filter is in. One thing I noticed: with \"All\" selected the filter becomes `region == 'All'`, which matches nothing, so the table comes up empty. Not fixed yet."}}, "", nil)
	if len(a.env) != 0 {
		t.Errorf("environment %q", a.env)
	}
	if open := a.openPoints(); len(open) != 1 || !strings.Contains(open[0], "table comes up empty. Not fixed yet.") {
		t.Errorf("open %q", open)
	}
}

// TestPreferenceBodyLeadIn: a preference whose sentence says nothing
// besides its title and a lead-in ("Oh and") has no body to repeat it.
func TestPreferenceBodyLeadIn(t *testing.T) {
	a := analyze([]Turn{{Role: User, Text: "Oh and you can run the integration tests again, docker is installed now."}}, "", nil)
	n := 0
	for _, c := range a.cand {
		if c.Kind == Preference {
			n++
			if c.Body != "" {
				t.Errorf("preference %q has the body %q", c.Title, c.Body)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d preferences, want 1", n)
	}
}

// TestVerdictAndWhy: an alternative turned down in a few words keeps the
// sentence after it that says why; "against" that says what a test runs
// on turns nothing down.
func TestVerdictAndWhy(t *testing.T) {
	a := item(t, "On Redis for the sessions: I'd advise against it. The sessions hold uploads of several MB and Redis keeps everything in memory, so the small instance would run out. We'll keep the sessions in Postgres against the main database.", "")
	line := strings.Join(a.rejected, "\n")
	if !strings.Contains(line, "advise against") || !strings.Contains(line, "keeps everything in memory") {
		t.Errorf("rejected %q lacks the verdict or its reason", line)
	}
	if strings.Contains(line, "passed over") {
		t.Errorf("rejected %q took what the tests run against for an alternative", line)
	}
	for _, tc := range []struct{ text, notRejected string }{
		{"Should we add Redis for the sessions? I'd advise against it. Separately, the deploy script now needs DEPLOY_TOKEN in the environment.", "DEPLOY_TOKEN"},
		{"Not worth it. The CI cache now keys on the lockfile hash.", "lockfile hash"},
	} {
		a := item(t, tc.text, "")
		if line := strings.Join(a.rejected, "\n"); strings.Contains(line, tc.notRejected) {
			t.Errorf("rejected %q holds %q, which is no reason", line, tc.notRejected)
		}
	}
	if a := item(t, "The design doc lists the reasons we're considering Kafka: the audit trail needs replay, and the batch jobs read the same events.", ""); len(a.decisions) > 0 {
		t.Errorf("a choice weighed is no decision: %q", a.decisions)
	}
}

// TestRuleStatements: a user's rules for the repository are
// preferences, whatever word opens them.
func TestRuleStatements(t *testing.T) {
	for _, s := range []string{
		"Rules for this repo: only ever use the shared HTTP client, no ad-hoc fetch calls — the retries live there.",
		"One rule from me: no panics in library code anywhere in this workspace.",
		"One rule from my side: register the compensation before you call the activity, not after it returns.",
		"Only ever write migrations with the generator, the timestamps matter.",
		"And please leave the changelog's header alone, the release tool parses it.",
		"one more thing and I mean it for the whole repo: no Date.now() or Math.random() anywhere under src/workflows, I've been bitten by that before.",
	} {
		if preference(s) == 0 {
			t.Errorf("%q is no preference", s)
		}
	}
}

// TestListedTodo: the items of a list a label says is work left are
// open items, each; the label alone is none.
func TestListedTodo(t *testing.T) {
	a := item(t, "The schema is in.\n\nStill left, roughly in this order:\n\n1. The importer for the old CSV exports.\n2. A retry for the webhook sender; it gives up after one try.\n\nThat's it for today.", "")
	var got []string
	for _, o := range a.open {
		got = append(got, o.text)
	}
	want := []string{"The importer for the old CSV exports.", "A retry for the webhook sender; it gives up after one try."}
	if !slices.Equal(got, want) {
		t.Errorf("open = %q, want %q", got, want)
	}
	a = item(t, "The handler is in. Next: the quote calculator has no unit tests at all.", "")
	if len(a.open) != 1 || !strings.HasPrefix(a.open[0].text, "The quote calculator") {
		t.Errorf("\"Next: …\" is work left: %+v", a.open)
	}
	// The user's "Next: X" names what this session does.
	a = item(t, "I'd write the hours into each controller's Schedule object.", "Next: occupancy schedules. We want to push the weekly occupied hours into the controllers instead of having techs type them in. How would you do it?")
	if len(a.open) != 0 {
		t.Errorf("the user's \"Next: …\" is taken for work left: %+v", a.open)
	}
	// "I'll write it next time" says what only with the item before it.
	a = item(t, "Test labels go to station 8 only from now on.\n\nStill to do: `labelctl reprint <shipment-id>` itself, which is a thin command over `spool.labels()` plus the printer map. I'll write it next time.", "")
	if len(a.open) != 1 || !strings.Contains(a.open[0].text, "labelctl reprint") || !strings.HasSuffix(a.open[0].text, "I'll write it next time.") {
		t.Errorf("a to-do told by a pronoun is not joined to what it names: %+v", a.open)
	}
}

// TestRejectedOtherwise: an alternative turned down as "out" or as a
// suggestion answered with "but".
func TestRejectedOtherwise(t *testing.T) {
	for _, s := range []string{
		"Kafka is out for the reasons you gave: the ops cost and a second cluster to watch.",
		"A per-module counter would be simpler, but two TUs would hand out the same numbers.",
		"I looked at a replaceWhere partition overwrite too and I'd skip it: it rewrites only the day being loaded.",
		"Someone suggested Redis instead, but the sessions hold uploads of several MB.",
		"Someone proposed a deploy key in the CI secrets; no, a long-lived key in CI defeats the point of the approval step.",
		"I'd keep gorilla/csrf out: threading a token into every hx-post is exactly the plumbing we'd forget.",
		"I left out the legacy token-based integration on purpose, it's deprecated and removed in Nomad 1.10.",
	} {
		if a := item(t, s, ""); len(a.rejected) == 0 {
			t.Errorf("%q turned nothing down", s)
		}
	}
}

// TestRejectedVerdictWithWhy: a verdict that names no fault ("I'd leave
// it out", "So pg_tileserv is out.") keeps the sentence before it that
// says what is wrong (blind AM, opened in the round of 21 December).
func TestRejectedVerdictWithWhy(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"gorilla/csrf works, but it means a token in every form. I'd leave it out and use the standard library's protection.", "gorilla/csrf works, but it means a token in every form. I'd leave it out"},
		{"pg_tileserv is a fine tool, but it serves only what is in PostGIS. So pg_tileserv is out.", "pg_tileserv is a fine tool, but it serves only what is in PostGIS. So pg_tileserv is out."},
		// However long the sentence that weighs it (blind AQ).
		{"I also looked at OpenHPC, since it packages a newer Slurm for EL9 - but it pins its own Slurm release to its own cadence and comes with Warewulf provisioning and a big meta-package stack that we don't need for nine machines that are already installed. I'd leave it out.", "I also looked at OpenHPC"},
	} {
		a := item(t, tc.text, "")
		if len(a.rejected) != 1 || !strings.HasPrefix(a.rejected[0], tc.want) {
			t.Errorf("%q: rejected %q, want it to open %q", tc.text, a.rejected, tc.want)
		}
	}
	// "So X is out." after nothing weighed may tell a release.
	for _, text := range []string{"The nightly job runs at 02:00. So Kafka is out.", "I shipped v2.3 this morning. So the fix is out.", "The staging deploy looks healthy. I'll keep an eye out."} {
		if a := item(t, text, ""); len(a.rejected) != 0 {
			t.Errorf("%q: rejected %q, want none", text, a.rejected)
		}
	}
}

// TestOptionsTurnedDown: of the options a prompt puts ("Fabio or
// Traefik?"), those the answer faults or passes over are rejected, with
// what it said of them; the one taken is not (blind AM).
func TestOptionsTurnedDown(t *testing.T) {
	for _, tc := range []struct{ prompt, answer, want string }{
		{"The api job spec is ancient. Fabio or Traefik?",
			"Between the two: Fabio reads Consul tags and is simple, but it has no ACME support. Traefik v3 has a Consul Catalog provider. I'd go with Traefik, as a system job.",
			"Fabio reads Consul tags and is simple, but it has no ACME support — passed over for: Traefik."},
		{"Backups then. Litestream? Or just a nightly sqlite3 .backup with restic, which I know?",
			"A nightly `.backup` with restic would be simple, but it loses everything since the last run. Litestream streams WAL frames to B2 every second.",
			"A nightly `.backup` with restic would be simple, but it loses everything since the last run."},
		{"Should we invalidate the CDN?",
			"Options: purge everything after each update, or version the tile URLs. Purging everything every night means a cold cache each morning. I'd rather version the URLs.",
			"Purging everything every night means a cold cache each morning — passed over for: version the tile URLs."},
	} {
		a := analyze([]Turn{{Role: User, Text: tc.prompt}, {Role: Assistant, Text: tc.answer}}, "", nil)
		if !slices.Contains(a.rejected, tc.want) {
			t.Errorf("%q: rejected %q, want %q", tc.prompt, a.rejected, tc.want)
		}
	}
	// An answer against one option takes the other, and turns down only
	// the one it argues against.
	a := analyze([]Turn{{Role: User, Text: "Redis or Postgres for the job queue?"}, {Role: Assistant, Text: "I'd recommend against Redis here: it's one more service to run and back up. Postgres with SKIP LOCKED handles our volume fine."}}, "", nil)
	if slices.ContainsFunc(a.rejected, func(r string) bool { return strings.HasPrefix(r, "Postgres") }) {
		t.Errorf("rejected %q, want Postgres kept", a.rejected)
	}
	// An answer that faults both options took neither.
	a = analyze([]Turn{{Role: User, Text: "Fabio or Traefik?"}, {Role: Assistant, Text: "Fabio is simple, but it has no ACME support. Traefik does ACME, but it needs a DNS token."}}, "", nil)
	if len(a.rejected) != 0 {
		t.Errorf("rejected %q, want none", a.rejected)
	}
}

// TestPickedAskedOption: a short reply that names one of the options the
// agent's question put is the user's decision, with the reason said after
// it; the other option is passed over (blind AM).
func TestPickedAskedOption(t *testing.T) {
	asked := "All four views are templ components now.\n\nQuestion: commit the generated `*_templ.go` files, or generate them in CI and on the build machine?"
	a := analyze([]Turn{{Role: User, Text: "Move the views to templ."}, {Role: Assistant, Text: asked}, {Role: User, Text: "Commit them. I don't want CI or the VPS build to need the templ CLI."}}, "", nil)
	if want := "Commit the generated `*_templ.go` files — I don't want CI or the VPS build to need the templ CLI."; !slices.Contains(a.decisions, want) {
		t.Errorf("decisions %q, want %q", a.decisions, want)
	}
	if want := "Generate them in CI and on the build machine" + PassedOver + "commit the generated `*_templ.go` files."; !slices.Contains(a.rejected, want) {
		t.Errorf("rejected %q, want %q", a.rejected, want)
	}
	// What the reply says next is its reason only when it gives one.
	b := analyze([]Turn{{Role: User, Text: "The PR is ready."}, {Role: Assistant, Text: "Should I squash the commits or keep them separate?"}, {Role: User, Text: "Squash them. I'll review it tomorrow."}}, "", nil)
	if want := "Squash the commits."; !slices.Contains(b.decisions, want) {
		t.Errorf("decisions %q, want %q", b.decisions, want)
	}
	// A reply that asks back, or refuses, takes nothing.
	for _, reply := range []string{"Commit them? What does everyone else do?", "Don't commit them, ever."} {
		a := analyze([]Turn{{Role: User, Text: "Move the views to templ."}, {Role: Assistant, Text: asked}, {Role: User, Text: reply}}, "", nil)
		if slices.ContainsFunc(a.decisions, func(d string) bool { return strings.Contains(d, "_templ.go") }) {
			t.Errorf("%q: decisions %q, want none on the question", reply, a.decisions)
		}
	}
}

// TestFixParts: the parts of a fix a label lists are decisions, each its
// item's first sentence with the reason it gives (blind AM).
func TestFixParts(t *testing.T) {
	text := "Reproduced: 9 bookings on a capacity of 8.\n\nThe fix has three parts:\n\n1. Open write transactions with `BEGIN IMMEDIATE`: modernc supports `_txlock=immediate` in the DSN.\n2. Fold the capacity check into the insert. Zero rows from `INSERT … SELECT ?, ?` means full.\n3. A `UNIQUE(session_id, member_id)` index, because the same data also showed a double tap."
	a := item(t, text, "")
	want := []string{
		"Open write transactions with `BEGIN IMMEDIATE`: modernc supports `_txlock=immediate` in the DSN.",
		"Fold the capacity check into the insert.",
		"A `UNIQUE(session_id, member_id)` index — because the same data also showed a double tap.",
	}
	if !slices.Equal(a.decisions, want) {
		t.Errorf("decisions %q, want %q", a.decisions, want)
	}
	// The cause before the label ends before it.
	a = item(t, "That explains it. The retry loop gives up after 3 attempts, because `backoff` is in milliseconds.\n\nThe fix has two parts:\n\n1. Backoff in seconds, capped at 60 s.\n2. Items stay in the outbox until the server acknowledges them.", "")
	if len(a.rootCauses) != 1 || strings.Contains(a.rootCauses[0], "parts") {
		t.Errorf("root causes %q, want the cause without the label after it", a.rootCauses)
	}
	// Parts offered for approval, or alternatives, are no decisions yet.
	for _, text := range []string{
		"Found the leak. The fix has two parts:\n\n1. Close the response body in fetch.\n2. Drop the global http.Client cache.\n\nShall I go ahead?",
		"Here's my fix:\n\n1. Maybe pin urllib3 below 2.0 in requirements.txt.\n2. Or patch the import in vendor/.",
		"The visibility timeout is too short. Two fixes:\n\n1. Raise the visibility timeout above the longest countdown.\n2. A periodic task run by beat that marks abandoned carts.\n\nI'd go with the second.",
	} {
		if a := item(t, text, ""); slices.ContainsFunc(a.decisions, func(d string) bool {
			return strings.Contains(d, "fetch") || strings.Contains(d, "urllib3") || strings.Contains(d, "vendor") || strings.Contains(d, "Raise the visibility")
		}) {
			t.Errorf("%q: decisions %q, want none of the listed parts", text, a.decisions)
		}
	}
	// A list under another label is no fix.
	if a := item(t, "Three things I looked at:\n\n1. Open write transactions with `BEGIN IMMEDIATE`.\n2. The busy timeout.", ""); len(a.decisions) != 0 {
		t.Errorf("decisions %q, want none", a.decisions)
	}
}

// TestPickedOwnOptions: a pick of the agent's own options says which.
func TestPickedOwnOptions(t *testing.T) {
	text := "Two ways to fix it:\n\n1. Raise the visibility timeout above the longest countdown.\n2. A periodic task run by beat that finds abandoned carts and marks them.\n\nI'd go with the second. The first hides a dead worker's tasks for hours."
	a := analyze([]Turn{{Role: User, Text: "why do reminders go out three times?"}, {Role: Assistant, Text: text}}, "", nil)
	var got string
	for _, c := range a.items {
		if c.Kind == Decision {
			got = c.Title
		}
	}
	// The title holds what was picked, cut as titles are.
	if want := Title("I'd go with the second: A periodic task run by beat that finds abandoned carts and marks them"); got != want {
		t.Errorf("decision %q, want %q", got, want)
	}
}

// TestRuleKeepsWhatItAllows: a rule's short tail that says what is
// allowed instead is part of it (blind AA's "Templates or config only.").
func TestRuleKeepsWhatItAllows(t *testing.T) {
	a := analyze([]Turn{{Role: User, Text: "Do that. But please don't touch the generated files by hand — everything under sdks/*/src is overwritten by every generate run. Templates or config only."}}, "", nil)
	if len(a.prefs) != 1 || !strings.HasSuffix(a.prefs[0], "Templates or config only.") {
		t.Errorf("preferences = %q, want the rule with its tail", a.prefs)
	}
	a = analyze([]Turn{{Role: User, Text: "Please don't touch the generated files by hand. Also, the staging database is slow today."}}, "", nil)
	if len(a.prefs) != 1 || strings.Contains(a.prefs[0], "staging") {
		t.Errorf("preferences = %q, want the rule alone", a.prefs)
	}
}

// TestAgreedProposal: a choice the agent proposes becomes a decision once
// the user's reply agrees, said as what holds and with the reason given
// after it, and is not also an outcome; a reply with a condition or a
// refusal leaves it a proposal (blind AH, opened in the round of 17
// December).
func TestAgreedProposal(t *testing.T) {
	proposal := "My take: Postgres 16, and not CockroachDB, for this one. The platform team already runs RDS Postgres with point-in-time recovery.\n\nFor data access I'd use sqlc on top of pgx/v5, no ORM: the queries are few and hot. Migrations with goose in `db/migrations`."
	for _, tc := range []struct {
		reply string
		want  []string
	}{
		{"agreed on all of it. Put postgres in compose on 5433.", []string{
			"Postgres 16, and not CockroachDB, for this one — The platform team already runs RDS Postgres with point-in-time recovery.",
			"For data access use sqlc on top of pgx/v5, no ORM — The queries are few and hot.",
		}},
		{"ok, but not sqlc, we use ent everywhere.", nil},
		{"No. Cockroach is what platform supports.", nil},
		{"Why not Cockroach?", nil},
	} {
		a := analyze([]Turn{{Role: User, Text: "Storage: Postgres or CockroachDB?"}, {Role: Assistant, Text: proposal}, {Role: User, Text: tc.reply}, {Role: Assistant, Text: "Done."}}, "", nil)
		var got []string
		for _, d := range a.decisions {
			if !strings.Contains(d, "compose") {
				got = append(got, d)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("reply %q: decisions %q, want %q", tc.reply, got, tc.want)
		}
		for _, o := range a.outcomes {
			if tc.want != nil && strings.Contains(o, "sqlc") {
				t.Errorf("reply %q: outcome %q repeats a decision", tc.reply, o)
			}
		}
	}
}

// TestDoneProposal: a reply that reports the proposal done takes it, and
// the reason after a dash is the decision's, with the alternative it
// passes over (blind AK, opened in the round of 19 December).
func TestDoneProposal(t *testing.T) {
	a := analyze([]Turn{{Role: User, Text: "klipper won't connect"}, {Role: Assistant, Text: "I'd stay with the SD card rather than DFU — DFU needs the BOOT0 jumper, and that's under the cable chain."}, {Role: User, Text: "flashed, it connects."}, {Role: Assistant, Text: "Good."}}, "", nil)
	want := "Stay with the SD card rather than DFU — DFU needs the BOOT0 jumper, and that's under the cable chain."
	if len(a.decisions) != 1 || a.decisions[0] != want {
		t.Errorf("decisions = %q, want %q", a.decisions, want)
	}
	rej := "DFU" + PassedOver + "Stay with the SD card (DFU needs the BOOT0 jumper, and that's under the cable chain)."
	if len(a.rejected) != 1 || a.rejected[0] != rej {
		t.Errorf("rejected = %q, want %q", a.rejected, rej)
	}
}

// TestAgreedProposalBefore: the proposal may end the segment before, the
// message the first prompt answers.
func TestAgreedProposalBefore(t *testing.T) {
	before := "On acknowledgements I'd answer `AA` as soon as the raw message is committed to `hl7_inbox`. That way the LIS never waits on the FHIR server."
	a := analyze([]Turn{{Role: User, Text: "good, ack after inbox commit is what I wanted. tests with Testcontainers."}, {Role: Assistant, Text: "Done."}}, before, nil)
	want := "On acknowledgements answer `AA` as soon as the raw message is committed to `hl7_inbox` — That way the LIS never waits on the FHIR server."
	if len(a.decisions) != 1 || a.decisions[0] != want {
		t.Errorf("decisions = %q, want %q", a.decisions, want)
	}
	// A proposal said without a reason leaves the outcomes alone.
	a = analyze([]Turn{{Role: User, Text: "do it, atomic it is."}, {Role: Assistant, Text: "CI pins the Pulumi CLI at 3.120.0 in the workflow."}}, "I'd write the post and its index entry in one kv.atomic().", nil)
	if len(a.outcomes) != 1 {
		t.Errorf("outcomes = %q, want the answer's", a.outcomes)
	}
}

// TestRaisedNotOutcome: a paragraph that raises work left ("Open from
// today: …", "One thing from CI: … fails because …") is an open item,
// not an outcome or a root cause, and a measure labelled "Before:" is
// neither an outcome nor the environment.
func TestRaisedNotOutcome(t *testing.T) {
	text := "Open from today: loading `~/src/linux` blocks the UI for seconds, because of the collect-then-sort in `walk.rs`. That's the next big thing.\n\n" +
		"One thing from CI: the `publish-homebrew-formula` job fails with \"Bad credentials\" because `HOMEBREW_TAP_TOKEN` isn't set in the repo secrets.\n\n" +
		"Before: first row 121 ms, peak RSS 1.11 GiB. After, three runs: peak RSS around 310 MB."
	a := analyze([]Turn{{Role: User, Text: "How fast is it now?"}, {Role: Assistant, Text: text}}, "", nil)
	if len(a.outcomes) != 1 || !strings.HasPrefix(a.outcomes[0], "After, three runs") {
		t.Errorf("outcomes = %q, want the After line alone", a.outcomes)
	}
	if len(a.rootCauses) != 0 || len(a.env) != 0 {
		t.Errorf("root causes %q, environment %q, want none", a.rootCauses, a.env)
	}
	if open := a.openPoints(); len(open) != 2 {
		t.Errorf("open = %q, want the two raised problems", open)
	}
}

// TestCountedOpen: "two things are open. One, …. Two, …." lists work
// left, each item an open item and none the environment or an outcome.
func TestCountedOpen(t *testing.T) {
	text := "`certs/` are ignored now.\n\nOn the Envoy side two things are open. One, `max_concurrent_streams` on the upstream cluster is at Envoy's default; we'll want to tune it once we have numbers. Two, ghz can't reach the service through Envoy yet."
	a := analyze([]Turn{{Role: User, Text: "ignore the certs"}, {Role: Assistant, Text: text}}, "", nil)
	want := []string{
		"`max_concurrent_streams` on the upstream cluster is at Envoy's default; we'll want to tune it once we have numbers.",
		"ghz can't reach the service through Envoy yet.",
	}
	if got := a.openPoints(); !slices.Equal(got, want) {
		t.Errorf("open = %q, want %q", got, want)
	}
	if len(a.env) != 0 || len(a.outcomes) != 1 {
		t.Errorf("environment %q, outcomes %q: want none and the first paragraph's", a.env, a.outcomes)
	}
}

// TestNoCoreFromOrders: a short order about what the conversation
// refers to, a name chosen and a fault told with "never" or "every
// time" make no item of core memory (the audit of the round of 17
// December found them among core titles).
func TestNoCoreFromOrders(t *testing.T) {
	for _, s := range []string{"Array it is.", "DO it is.", "Make it 30.", "Add both.", "Switch the provider over.", "ok keep it.", "There it is.",
		"One more from the same people: photos taken on iPhones never arrive, the server log says 413.",
		"ViT-S on the IN-100 subset goes NaN at around step 3k, every time.", "What's the dev loop, I've never done a mod",
		"Agreed on all three, go ahead with the tolerance."} {
		a := analyze([]Turn{{Role: User, Text: s}, {Role: Assistant, Text: "Ok."}}, "", nil)
		for _, c := range a.items {
			t.Errorf("%q: core item %s %q", s, c.Kind, c.Title)
		}
	}
}

// TestNoCoreFragments: a clause cut from its sentence makes no item of
// core memory.
func TestNoCoreFragments(t *testing.T) {
	a := &analysis{seen: map[string]bool{}}
	for _, title := range []string{"Is the next hop for 0.0.0.0/0 in every spoke's route table", "Its rising edges are made by the 10 kΩ pull-ups", "A 33.3 ms step) with sleep_until so the step doesn't drift", "You can replay one with"} {
		a.add(Candidate{Kind: Fact, Title: title})
	}
	a.add(Candidate{Kind: Fact, Title: "The fuzz job runs the corpus with", Body: "The fuzz job runs the corpus with `cargo fuzz run parse`."})
	if len(a.cand) != 1 {
		t.Errorf("candidates = %v, want the one whose title was cut from a whole sentence", a.cand)
	}
}

// TestAgreedDesignTerms: a design the agent proposes (here with an
// alternative turned down) and the user agrees to holds its rules said as
// plain present with their values; what happened and what was done stay
// out.
func TestAgreedDesignTerms(t *testing.T) {
	design := "Duplicates: we did a plain `POST` each time, so each resend created another Observation.\n\nDead letter: a `hl7_dead_letter` table next to the inbox. I'd not add RabbitMQ or Kafka for this.\n\n4xx goes straight to the dead letter as `FHIR_REJECTED`. Dead letters are kept 30 days. I wrote the migration in `V3__dead_letter.sql`."
	for _, tc := range []struct {
		reply string
		want  []string
	}{
		{"good. replay is always manual.", []string{"4xx goes straight to the dead letter as `FHIR_REJECTED`.", "Dead letters are kept 30 days."}},
		{"why not Kafka?", nil},
		{"good. and the streams?", []string{"4xx goes straight to the dead letter as `FHIR_REJECTED`."}},
	} {
		text := design
		if strings.Contains(tc.reply, "streams") {
			// What follows a count of things left open is work left.
			text = strings.Replace(design, "Dead letters are kept 30 days.", "Two things are open. One, `max_concurrent_streams` is at the default of 100. Two, ghz cannot reach it.", 1)
		}
		a := analyze([]Turn{{Role: User, Text: "Dead letters and retries."}, {Role: Assistant, Text: text}, {Role: User, Text: tc.reply}, {Role: Assistant, Text: "Ok."}}, "", nil)
		var got []string
		for _, d := range a.decisions {
			if !strings.Contains(d, "manual") {
				got = append(got, d)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("reply %q: decisions %q, want %q", tc.reply, got, tc.want)
		}
	}
}

// TestWeighedThenTurnedDown: an alternative weighed in one sentence and
// turned down in the next ("I'd rather not: …") is one rejection, which
// names it; neither sentence is an outcome or work left.
func TestWeighedThenTurnedDown(t *testing.T) {
	a := item(t, "The saga runs end to end.\n\nI thought about running each step as a child workflow, which some saga examples do. I'd rather not: every child adds its own history to the parent, and it gives us three more workflow types to version later.", "")
	line := strings.Join(a.rejected, "\n")
	if !strings.Contains(line, "child workflow") || !strings.Contains(line, "own history") {
		t.Errorf("rejected %q lacks what was weighed or why not", line)
	}
	for _, o := range a.open {
		if strings.Contains(o.text, "version later") {
			t.Errorf("a rejection's reason is work left: %q", o.text)
		}
	}
	if out := outcome.Of("The saga runs end to end.\n\nI thought about running each step as a child workflow, which some saga examples do. It would add history."); slices.ContainsFunc(out, func(s string) bool { return strings.Contains(s, "thought about") }) {
		t.Errorf("outcome %q holds what was only weighed", out)
	}
}

// TestPurposeNotOpen: what a thing is kept "for later compaction" is its
// purpose, not work left.
func TestPurposeNotOpen(t *testing.T) {
	a := item(t, "Schema: `doc_updates (doc_id, seq, data)` with one row per update, and `doc_snapshots (doc_id, upto_seq, state)` for later compaction.", "")
	if len(a.open) > 0 {
		t.Errorf("open = %+v", a.open)
	}
}

// TestBareNoRule: a user's "no <Name> <thing>." is a rule, with a lead-in
// that only stresses it dropped; "No luck." is none.
func TestBareNoRule(t *testing.T) {
	for _, tc := range []struct {
		user, want string
	}{
		{"Start the sync engine.\n\nAnd to be clear about one thing up front: no IndexedDB fallback. Browsers without OPFS get an unsupported page.", "No IndexedDB fallback."},
		{"Wire the webhook.\n\nNo Spring Integration. It is too much framework for one route.", "No Spring Integration."},
		{"Tried the cache flag again. No luck.", ""},
	} {
		a := analyze([]Turn{{Role: User, Text: tc.user}, {Role: Assistant, Text: "Ok."}}, "", nil)
		got := strings.Join(a.prefs, "\n")
		if got != tc.want {
			t.Errorf("%q: preferences %q, want %q", tc.user, got, tc.want)
		}
	}
}

// TestOpenChained: work left told over sentences that each point back
// ("Caveat: … It doesn't verify … yet. That has to be done before …")
// is one item that keeps its first sentence.
func TestOpenChained(t *testing.T) {
	a := item(t, "The server works.\n\nCaveat: the server only checks that the token looks like a JWT. It doesn't verify the signature against the auth service yet, so anyone with a well-formed string gets in. That has to be done before this leaves localhost.", "")
	if len(a.open) != 1 || !strings.HasPrefix(a.open[0].text, "Caveat: the server only checks") || !strings.Contains(a.open[0].text, "before this leaves localhost") {
		t.Errorf("open = %+v", a.open)
	}
}

// TestSomeoneShould: work the agent leaves to someone is open.
func TestSomeoneShould(t *testing.T) {
	a := item(t, "The double charge is fixed. Someone should refund the orphaned pi_3QJx8sL2k1aTr0Ez1bJ4a9Qm for 8812 by hand.", "")
	if len(a.open) != 1 || !strings.Contains(a.open[0].text, "refund the orphaned") {
		t.Errorf("open = %+v", a.open)
	}
}

// TestCauseThenFixByGerund: the sentence after a root cause that opens on
// what was changed ("Padding the tile to [32][33] …") says how it was
// fixed, and goes with it.
func TestCauseThenFixByGerund(t *testing.T) {
	a := item(t, "Wired in.\n\nWith a row stride of exactly 32 floats, all 32 threads of a warp read the same column, so every shared load was a 32-way bank conflict. Padding the tile to [32][33] shifts each row by one bank.", "")
	if len(a.rootCauses) != 1 || !strings.Contains(a.rootCauses[0], "[32][33]") {
		t.Errorf("root causes %q lack the fix", a.rootCauses)
	}
}

// What a long prompt states past its request bullet's cut is kept as a
// detail; what it asks is not.
func TestPastRequestDetails(t *testing.T) {
	p := "I'm finally retiring the Uno + CNC shield on the router. New board is the ESP32 6-Pack with the external-driver modules, the three DM542T drivers stay (set to 3200 pulses/rev). I copied the example config into fluidnc/router1000.yaml and dumped the old GRBL settings into legacy/. Can you check the config against the old values and fix what's off? Machine is 1000 x 600 mm of travel with about 110 mm of Z."
	a := analyze([]Turn{{Role: User, Text: p}, {Role: Assistant, Text: "Done, the config matches the old values."}}, "", nil)
	if !slices.Contains(a.details, "Machine is 1000 x 600 mm of travel with about 110 mm of Z.") {
		t.Errorf("details %q lack the machine's travel", a.details)
	}
	if slices.ContainsFunc(a.details, func(d string) bool { return strings.HasPrefix(d, "Can you") }) {
		t.Errorf("details %q hold the question", a.details)
	}
}

// TestNamedVersion: a reply that takes a proposed version by its number
// names what it is a version of, as the proposal did (blind AQ: "Sounds
// right, go with 23.11.4" outlived the upgrade to 24.05.5).
func TestNamedVersion(t *testing.T) {
	offer := "My suggestion, then: Slurm 23.11.4, built by us with `rpmbuild -ta slurm-23.11.4.tar.bz2`. EPEL has 22.05.9."
	for _, tc := range []struct{ what, want string }{
		{"Sounds right, go with 23.11.4", "Sounds right, go with Slurm 23.11.4"},
		{"Go with Slurm 23.11.4", "Go with Slurm 23.11.4"},
		{"Go with 24.05.5 instead", "Go with 24.05.5 instead"}, // a version the offer does not name
	} {
		if got := pick.NamedVersion(tc.what, offer); got != tc.want {
			t.Errorf("pick.NamedVersion(%q) = %q, want %q", tc.what, got, tc.want)
		}
	}
}

// TestConcludedNow: a paragraph's conclusion that says how a thing is
// now ("So the top rung is 4500k now (maxrate …)") is a decision, where
// the paragraph's first sentence only weighed the measurements.
func TestConcludedNow(t *testing.T) {
	text := "On 1080p: 4500k scores within 0.2 VMAF of the current rate on all three reference lectures, 4000k loses almost two points on the whiteboard one. So the top rung is 4500k now (maxrate 4815k, bufsize 6750k), saving about 10% on the largest files."
	a := analyze([]Turn{{Role: User, Text: "did the 1080p rung come out ok?"}, {Role: Assistant, Text: text}}, "", nil)
	want := "The top rung is 4500k now (maxrate 4815k, bufsize 6750k), saving about 10% on the largest files."
	if !slices.Contains(a.decisions, want) {
		t.Errorf("decisions = %q, want %q", a.decisions, want)
	}
}

// TestElidedRule: a rule that leaves out what it is about takes it from
// the sentence before.
func TestElidedRule(t *testing.T) {
	a := item(t, "The SIP accounts are in.", "The SIP accounts are there, one per kiosk, with the passwords in the Openfields ticket. Please not in appsettings.json, that file goes to every kiosk through Intune.")
	if len(a.prefs) != 1 || !strings.Contains(a.prefs[0], "passwords") || !strings.Contains(a.prefs[0], "Please not in appsettings.json") {
		t.Errorf("prefs = %q, want the rule with what it is about", a.prefs)
	}
}

// TestFoundWhatHappened: "I found what happened to Nether Edge: …"
// announces the cause the next sentences tell (blind AZ); "I found what
// happened: the cron ran twice because …" tells it.
func TestFoundWhatHappened(t *testing.T) {
	a := item(t, "While replaying last week's form log I found what happened to Nether Edge: the double croissants weren't their mistake. On a slow phone connection the Save button was pressed again after about two seconds, the browser sent the same form twice, and with an insert per line the second POST added a second set of rows.", "")
	if len(a.rootCauses) != 1 || !strings.Contains(a.rootCauses[0], "second POST") {
		t.Errorf("root causes %q, want the double POST", a.rootCauses)
	}
	a = item(t, "I found what happened: the cron ran twice because both hosts had the timer enabled.", "")
	if len(a.rootCauses) != 1 || !strings.Contains(a.rootCauses[0], "both hosts") {
		t.Errorf("root causes %q, want the timer on both hosts", a.rootCauses)
	}
}

// TestPickedIt: a choice on a pronoun names what the sentence before was
// built with, and the relative clause on the alternative is no part of
// the choice (blind AZ).
func TestPickedIt(t *testing.T) {
	a := item(t, `Feeds are built with xmlbuilder2, which escapes every text node and attribute, so "Markt & Maan" and "<live>" come out as &amp; and &lt;live&gt;. I picked it over fast-xml-parser, whose builder only escapes with an option you have to remember, and xml-js, which hasn't had a release since 2019.`, "")
	if len(a.decisions) == 0 || !strings.HasPrefix(a.decisions[0], "I picked xmlbuilder2 over fast-xml-parser") {
		t.Errorf("decisions %q", a.decisions)
	}
	if len(a.rejected) != 1 || a.rejected[0] != "Fast-xml-parser — passed over for: I picked xmlbuilder2." {
		t.Errorf("rejected %q", a.rejected)
	}
}

// TestAnswerToWhy: the answer to "why …?" opens on the cause it goes on
// to explain (blind AZ); a choice's reason may speak of the alternative
// it turned down ("That package runs …").
func TestAnswerToWhy(t *testing.T) {
	turns := []Turn{
		{Role: User, Text: "The LED pars flicker and step when they fade out slowly below about 10%. Is that us?"},
		{Role: Assistant, Text: "Yes, it's us, or rather 8-bit dimming. In 7-channel mode a SlimPAR has one byte for its dimmer, so between 12% and 0 there are only about 31 distinct values. The tungsten on the dimmers hides the steps because the filament is slow.\n\nRosa has to set the pars to 12-channel mode, which has a 16-bit dimmer."},
	}
	a := analyze(turns, "", nil)
	if len(a.rootCauses) != 1 || !strings.Contains(a.rootCauses[0], "8-bit dimming") || !strings.Contains(a.rootCauses[0], "tungsten") {
		t.Errorf("root causes %q", a.rootCauses)
	}
	turns = []Turn{
		{Role: User, Text: "Why not just use the sacn package?"},
		{Role: Assistant, Text: "Let me check what it does."},
	}
	if a := analyze(turns, "", nil); len(a.rootCauses) != 0 {
		t.Errorf("root causes %q of a narration", a.rootCauses)
	}
	turns = []Turn{
		{Role: User, Text: "Last Friday we were 30 croissants short for Division Street and the sheet said 36 for them that day. I bet it's the sheet again. Can you look?"},
		{Role: Assistant, Text: "Let me look at how the importer maps the day column."},
		{Role: Assistant, Text: "You were right, it's the sheet. The sheet's `day` column comes from WEEKDAY(), where 1 is Sunday; the importer compared it with Ruby's `Date#wday`, where 0 is Sunday. So every standing order was read one day early.\n\nStanding orders are now stored by day name, so a number never gets compared with another kind of number again."},
	}
	a = analyze(turns, "", nil)
	if len(a.rootCauses) != 1 || !strings.Contains(a.rootCauses[0], "WEEKDAY") || !strings.Contains(a.rootCauses[0], "one day early") {
		t.Errorf("root causes %q, want the weekday numbers", a.rootCauses)
	}
	a = item(t, "I've written the E1.31 packet by hand (build_packet, 638 bytes) rather than using the `sacn` package from PyPI. That package runs its own output thread and resends at its own rate, so its frames wouldn't line up with our fade clock.", "")
	if len(a.decisions) != 1 || !strings.Contains(a.decisions[0], "own output thread") {
		t.Errorf("decisions %q, want the reason", a.decisions)
	}
}

// TestApproachNoCause: what went wrong, told before the agent's first
// change, is no approach (the round of 13 January: "Approach: Every 429
// was logged by nio and then dropped").
func TestApproachNoCause(t *testing.T) {
	got := approachOf("Every 429 was logged by nio and then dropped: send_text returns a RoomSendError instead of raising, and backfill only checks for exceptions. I'll make backfill check the response type and retry after the server's retry_after_ms.")
	if len(got) != 1 || !strings.HasPrefix(got[0], "I'll make backfill check") {
		t.Errorf("approachOf = %q, want the plan alone", got)
	}
	// What is past in what a design is for says no failure.
	design := "Every filled value gets status `E` (estimated) so the bill can show how much was estimated."
	if got := approachOf(design); len(got) != 1 {
		t.Errorf("approachOf(%q) = %q, want it whole", design, got)
	}
}

// TestRuleSaidOnWithNobodyElse: "Nobody else, and never you." bounds the
// rule of the sentence before it and is said with it, less its lead-in;
// alone it was a core preference that says nothing (the round of 13
// January).
func TestRuleSaidOnWithNobodyElse(t *testing.T) {
	a := item(t, "Added under the prod rule in MIGRATION.md.", "Last rule for today, about prod: Anna, as team lead, may run dbt against prod herself for backfills, but only by impersonating the dbt-prod service account and with a ticket. Nobody else, and never you.")
	if len(a.prefs) != 1 || !strings.HasPrefix(a.prefs[0], "Anna, as team lead, may run dbt") || !strings.HasSuffix(a.prefs[0], "Nobody else, and never you.") {
		t.Errorf("preferences %q, want Anna's rule with its bound", a.prefs)
	}
	for _, c := range a.cand {
		if c.Kind == Preference && !strings.HasPrefix(c.Title, "Anna") {
			t.Errorf("preference titled %q", c.Title)
		}
	}
}
