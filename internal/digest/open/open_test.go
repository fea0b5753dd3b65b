package open

import (
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
)

// TestOpenItemsLater checks that an open item goes once a later session
// names it by a few of its rare words, and that when a later session
// says it again, its own statement is the one shown.
func TestDropDone(t *testing.T) {
	done := func(string) bool { return true }
	for _, tc := range []struct{ in, want string }{
		{"Never bring lodash back in — we still need a test for the leap day though.", "Never bring lodash back in."},
		{"Still open: the retry jitter — it hammers the broker at startup. The queue drains in 2 s.", "The queue drains in 2 s."},
		{"The cache holds 10k entries.", "The cache holds 10k entries."},
		// The trial as a user: alone, the second sentence says nothing.
		{"Write internal/billing/rate.go: File has not been read yet. Read it first before writing to it. (tool error)", ""},
		{"The export isn't written yet. It reads invoices.csv.", "It reads invoices.csv."},
	} {
		if got := NewVocab(nil).DropDone(tc.in, done); got != tc.want {
			t.Errorf("dropDone(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestIsTodo(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"All done here apart from one thing: nothing else pending but the retry budget.", true},
		{"Parked for later: rate limiting, the endpoint takes any number of calls.", true},
		{"Picking a log format is the next step, per the README.", true},
		{"Still pending: the CSV export.", true},
		{"Until Kate's list of which images we may show arrives, object pages are built without images.", true},
		{"Until then the job runs hourly.", false},
		{"For the second attempt, the runbook needs a step that copies every sequence's last_value to RDS.", true},
		{"The service needs a database and a queue.", false},
		{"Still an open question on their side: 24 and 31 December, the half days.", true},
		{"Jana raised it as an open question for the steering group.", true},
		{"Vogel runs a test import with a file from us on Friday, we'll know more then.", true},
		{"We'll see next week whether the cache helps.", true},
		{"Open item before we can ship anything for macOS: notarization isn't set up.", true},
		{"Remote plugins are rate-limited for anonymous use, so CI needs a `BUF_TOKEN` secret.", true},
		{"Backups aren't automated; they run when someone remembers.", true},
		{"The release job needs a token to push the tag, which it reads from TAP_TOKEN.", false},
		{"The cache is set up in staging and prod.", false},
		{"The Windows server package is 2.1 GB, mostly PDBs and editor content, which I'd look at next.", true},
		{"I'd look at the logs first next time it fails.", true},
		{"Nothing backs up ha/config yet; that's the next thing I'd do.", true},
		{"Also on my list: Pi-hole still forwards to 1.1.1.1.", true},
		{"They need ordering by relevance, with a match in the path worth more.", true},
		{"We need a fixture with an odd width; I don't have a small PNG of that shape in the repo yet.", true},
		{"One thing I haven't got to: there's no way yet to preview a reindex.", true},
		// Blind AA, opened on 15 December: a finding, a wait for an event,
		// the next piece.
		{"The grep shows Detect-LocalAdmin.ps1 has the same pattern — catch, then a trailing `exit 0`.", true},
		{"Nothing is applied to the live account, and it stays that way until the freeze is over and the CAB has approved.", true},
		{"Hold off on the deploy until Marta signs off.", true},
		{"But hold off on changing anything in the live Automation account until the change freeze ends.", true},
		{"Streaming is the obvious next piece.", true},
		{"The cache stays warm until the next deploy.", false},
		{"Tokens remain valid until they expire after an hour.", false},
		{"Search results need no login.", false},
		{"We need the cache because lookups are slow.", false},
		{"We need a lock because two writers race on the file.", false},
		{"It isn't pretty, yet it works on every board.", false},
		{"You have to run make gen before go build.", false},
		{"scripts/reindex.ts rebuilds the index once (it has to run against the Deploy KV too).", true},
		{"Add-ons go in Terraform, because they have to exist before Argo CD syncs.", false},
		{"Open from today: nobody has decided whether flow logs go to the archive.", true},
		// A state, not work left: a queue's jobs may be pending.
		{"The worker skipped rows whose status was pending.", false},
		{"The next release ships the new parser.", false},
		{"Later the cron job runs the export.", false},
		// What a request says comes next (blind AK).
		{"Next: audio loudness, people complain about jumping volume between lectures.", true},
		{"Next would be input shaping, the ADXL345 just arrived.", true},
		// Work left said as what it is for, or as what we should have
		// (stale lines of the test projects' packs).
		{"When you do, take a log with SDLOG_PROFILE so we can look at vibration next — stock props are rarely balanced.", true},
		{"We really should have an invariant test that the vault always holds enough assets to back its shares.", true},
		{"`hw.reservation.policy` needs its lines and we need the groups for sales and warehouse before anyone but admin can use the module.", true},
		{"The distributor had one 750-464, the second is backordered for two weeks, so FV5-FV8 stay on the CraftBeerPi until it arrives.", true},
		{"The staging box runs on the old kernel until the new one is fixed upstream.", true},
		{"The fermenters stay on the PLC from now on.", false},
		{"Agreed, I'll call our ZKB adviser about single booking.", true},
		{"The merchant has to approve the Shopify GitHub app on the company organisation first.", true},
		{"The merchant has to approve every order over 500 EUR.", false},
		{"You said Herr Wyss (the CFO) wants to look at the tolerance - I'll leave it at 5 until he decides.", true},
		{"We need the lock because two writers race.", false},
		{"We should have used the bigger disk from the start.", false},
		{"Then we can tune the PID loop next to the heater.", false},
		{"The next frame is dropped.", false},
		{"Next is our frontend framework; Vite builds the admin.", false},
		{"Stack: Go 1.22 for the API. Next: 14.2 with the app router.", false},
	} {
		if got := IsTodo(tc.in); got != tc.want {
			t.Errorf("isTodo(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// summary is a summary of the given parts, for the rules above.
func summary(parts map[int][]string, open ...string) *digest.Summary {
	d := &digest.Summary{Open: open}
	for p, b := range parts {
		d.Parts[p] = b
	}
	return d
}

// TestDropFixed: a problem told as it stands goes once a later session
// reports it fixed; what else the bullet says stays.
func TestDropFixed(t *testing.T) {
	later := digest.Parse("**Request**\n- now the coupon test. It's been failing every other run.\n\n**Outcome**\n- It's fixed, and it was the test, not the shop.\n")
	still := digest.Parse("**Outcome**\n- The coupon test still fails every other run.\n")
	v := NewVocab([]*digest.Summary{later, digest.Parse("**Outcome**\n- The cart page loads.\n"), digest.Parse("**Outcome**\n- Images are webp.\n")})
	if !v.fixed(later) {
		t.Fatal("a session that says it's fixed does not report a fix")
	}
	if v.fixed(still) {
		t.Error("a session that says it still fails reports a fix")
	}
	for _, out := range []string{"update.txtar now points at a local server, and it passed 50 runs in a row.", "The suite is green 20 times in a row."} {
		if !v.fixed(digest.Parse("**Outcome**\n- " + out + "\n")) {
			t.Errorf("%q does not report a fix", out)
		}
	}
	if v.fixed(digest.Parse("**Outcome**\n- It failed 3 runs in a row.\n")) {
		t.Error("a run of failures reports a fix")
	}
	fixed := func(p string) bool { return v.Refers(v.Distinct(p), v.mentions(later)) }
	got := DropFixed("The cart tests pass. So the checkout coupon test passes, fails, passes on identical runs: it's flaky, failing every other run.", fixed)
	if got != "The cart tests pass." {
		t.Errorf("got %q", got)
	}
}

// TestDealtLater: a problem a newer session was asked to deal with, and
// changed files for, was dealt with though nobody said "fixed"; a root
// cause's FixedLater still waits for the word, and a session that only
// talked about it dealt with nothing.
func TestDealtLater(t *testing.T) {
	asked := digest.Parse("**Request**\n- Before staging, the leftovers: the index, and the limiter that keeps every key forever.\n\n**Outcome**\n- `RateLimiter` sets an alarm after each hit.\n\n**Files changed** (1)\n- src/ratelimit.ts (edited)\n")
	talked := digest.Parse("**Request**\n- Does the limiter keep state for every key?\n\n**Outcome**\n- Yes, the limiter keeps it.\n")
	older := digest.Parse("**Outcome**\n- Something I'd like to fix soon: the limiter never forgets a key.\n")
	sums := []*digest.Summary{asked, talked, older}
	v := NewVocab(sums)
	problem := "Something I'd like to fix soon: the limiter never forgets a key."
	if !v.DealtLater(sums, 2)(problem) {
		t.Error("a problem asked about and worked on is not dealt with")
	}
	if v.FixedLater(sums, 2)(problem) {
		t.Error("a problem nobody said was fixed is fixed")
	}
	if v.DealtLater(sums[1:], 1)(problem) {
		t.Error("a session that changed no file dealt with the problem")
	}
	for _, s := range []string{
		"Data/ is in .gitignore, so a careless `git add -A` can't pick up the limiter's export.",
		"The limiter's key expires after 10 minutes, so there's no point persisting it.",
		"The limiter's key store has to come first; otherwise the first sync fails on unknown kinds.",
		"The point of staying with the limiter: the key target has no third-party dependencies.",
	} {
		if got := DropFixed(s, v.DealtLater(sums, 2)); got == "" {
			t.Errorf("%q was taken for a problem", s)
		}
	}
}

// TestDecidedAbout: an open question named by dates, which are no keys,
// goes once a later session says it was decided; a decision about
// something else leaves it, and so does one that only mentions it.
func TestDecidedAbout(t *testing.T) {
	decided := digest.Parse("**Request**\n- New prices from 1 April. And billing decided about 24 and 31 December: off-peak from 12:00.\n")
	other := digest.Parse("**Request**\n- Billing decided about the rounding: half up per line.\n")
	mention := digest.Parse("**Outcome**\n- The December bills went out on time.\n")
	older := digest.Parse("**Outcome**\n- The holidays are in data/holidays.csv.\n")
	q := "Still an open question on their side: 24 and 31 December, the half days."
	for _, tc := range []struct {
		later *digest.Summary
		want  bool
	}{{decided, true}, {other, false}, {mention, false}} {
		sums := []*digest.Summary{tc.later, older}
		if got := NewVocab(sums).DoneLater(sums, 1)(q); got != tc.want {
			t.Errorf("after %q: done = %v, want %v", tc.later.Parts[digest.Request], got, tc.want)
		}
	}
}

// TestDecidedNotQuestion: a decision closes only an open question, not
// a to-do that shares a word with it.
func TestDecidedNotQuestion(t *testing.T) {
	older := digest.Parse("**Outcome**\n- The holidays are in data/holidays.csv.\n")
	for _, tc := range []struct{ later, todo string }{
		{"**Decisions**\n- We decided on a Redis queue for the notifications.\n", "Still to do: the queue consumer keeps crashing on large messages."},
		{"**Decisions**\n- decided on Postgres 16 for the billing service.\n", "Still to do: move the billing cron off the old box."},
	} {
		sums := []*digest.Summary{digest.Parse(tc.later), older}
		if NewVocab(sums).DoneLater(sums, 1)(tc.todo) {
			t.Errorf("%q closed by %q", tc.todo, tc.later)
		}
	}
}

// TestNoticedLater: how a problem came up ("I've noticed", "feels", "I
// haven't looked") is not what it is about.
func TestNoticedLater(t *testing.T) {
	v := NewVocab([]*digest.Summary{digest.Parse("**Outcome**\n- The list loads in 0.9 s.\n")})
	how := change.Keys("I've noticed it feels, I haven't looked")
	for _, k := range v.Distinct("I've noticed the sale order list feels slow on the dev copy; I haven't looked into it yet.") {
		if how[k] {
			t.Errorf("distinct key %q only says how it came up", k)
		}
	}
}

// TestUnexplainedFixed: a fault nobody can explain is a problem, and
// goes from an older request once a newer session found its culprit and
// changed files for it.
func TestUnexplainedFixed(t *testing.T) {
	later := digest.Parse("**Request**\n- Let's do the station 6 shift today.\n\n**Root cause**\n- The culprit was a label shift of -24 dots saved on station 6 itself, which is why it prints everything 3 mm to the left. The fix: every template now resets it.\n\n**Files changed** (1)\n- templates/zpl/carton.zpl.j2 (edited)\n")
	older := digest.Parse("**Request**\n- Start with the carton label. Also, station 6 prints everything about 3 mm too far to the left and nobody knows why, keep that in mind.\n")
	sums := []*digest.Summary{later, older}
	if got := DropFixed(older.Parts[digest.Request][0], NewVocab(sums).FixedLater(sums, 1)); got != "Start with the carton label." {
		t.Errorf("got %q", got)
	}
}

// TestNamedInCode: a later session names the work by what it wrote,
// "hardware/input_shaper.cfg" and "the ei shaper", not the words of the
// to-do.
func TestNamedInCode(t *testing.T) {
	did := digest.Parse("**Outcome**\n- The accelerometer config is in `hardware/adxl345.cfg`, and the shaper values are in `hardware/input_shaper.cfg`.\n")
	other := digest.Parse("**Outcome**\n- The bed mesh is 5x5 now.\n")
	older := digest.Parse("**Request**\n- Next would be input shaping, the ADXL345 just arrived.\n")
	sums := []*digest.Summary{did, other, older}
	v := NewVocab(sums)
	if !v.DoneLater(sums, 2)("Next would be input shaping, the ADXL345 just arrived.") {
		t.Error("input shaping is left to do after the session that wrote input_shaper.cfg")
	}
	if v.DoneLater(sums[1:], 1)("Next would be input shaping, the ADXL345 just arrived.") {
		t.Error("a session about the bed mesh dealt with input shaping")
	}
}

// TestLeftForLater: "leave the crash for tomorrow" is about the crash;
// "leave" says only that it waits.
func TestLeftForLater(t *testing.T) {
	did := digest.Parse("**Outcome**\n- The crash was the changeset: it declares the unique constraint now.\n")
	older := digest.Parse("**Request**\n- leave the crash for tomorrow\n")
	sums := []*digest.Summary{did, older}
	if !NewVocab(sums).DoneLater(sums, 1)("leave the crash for tomorrow") {
		t.Error("the crash is left for tomorrow after the session that fixed it")
	}
}

// TestFailureFixed: "a second, unrelated failure in dnssec_vectors case
// 3" is a problem, fixed once a later session names it and its suite
// passes (ocaml-dns-resolver).
func TestFailureFixed(t *testing.T) {
	later := digest.Parse("**Outcome**\n- RRSIG times are serial numbers, so once a window crosses January 2038 every signature looked expired. It compares by the sign of the difference now. 50 tests pass, @fmt clean.\n")
	other := digest.Parse("**Outcome**\n- The cache is 4096 entries now. 50 tests pass.\n")
	problem := "There is a second, unrelated failure in dnssec_vectors case 3 (RRSIG validity across the 2038 wrap)."
	for _, tc := range []struct {
		later *digest.Summary
		want  string
	}{{later, ""}, {other, problem}, {digest.Parse("**Outcome**\n- RRSIG times are serial numbers, so once a window crosses January 2038 every signature looked expired.\n\n**Root causes**\n- in_window compared the times as signed Int32.\n\n**Files changed** (1)\n- lib/dnssec.ml (written)\n"), ""}} {
		sums := []*digest.Summary{tc.later, digest.Parse("**Outcome**\n- " + problem + "\n")}
		if got := DropFixed(problem, NewVocab(sums).FixedLater(sums, 1)); got != tc.want {
			t.Errorf("DropFixed = %q, want %q", got, tc.want)
		}
	}
}

// TestDropDoneThat: a to-do clause that names its work by a pronoun goes
// with the clauses before it.
// TestCreatedLater: "no Dockerfile yet" is done once a newer session
// writes a Dockerfile, not when it edits one or writes another file.
func TestCreatedLater(t *testing.T) {
	todo := "The repo has no Dockerfile yet; the release step expects one at the root."
	for _, tc := range []struct {
		files []string
		want  bool
	}{
		{[]string{"Dockerfile (written)"}, true},
		{[]string{"deploy/Dockerfile (written)", "README.md (edited)"}, true},
		{[]string{"Dockerfile (edited)"}, false},
		{[]string{"Makefile (written)"}, false},
	} {
		d := &digest.Summary{}
		d.Parts[digest.Files] = tc.files
		if got := CreatedLater(todo, []*digest.Summary{d}); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.files, got, tc.want)
		}
	}
	if CreatedLater("Add a Dockerfile for the worker.", []*digest.Summary{{}}) {
		t.Error("a to-do that says nothing is missing was created by nothing")
	}
}

func TestDropDoneThat(t *testing.T) {
	done := func(s string) bool { return strings.Contains(s, "ha/config") }
	got := NewVocab(nil).DropDone("The stack is up. Nothing backs up ha/config yet; that's the next thing I'd do.", done)
	if got != "The stack is up." {
		t.Errorf("got %q", got)
	}
}

// TestAskedBack checks that a request pointing back at an earlier
// session's to-do by one of its rare words deals with it, and that one
// without the pointer does not.
func TestAskedBack(t *testing.T) {
	todo := "Tomorrow: the readiness probe."
	older := summary(map[int][]string{digest.Outcome: {"The resolver answers on 5353 and exports metrics on 9153."}})
	for _, tc := range []struct {
		request string
		want    bool
		todo    string
	}{
		{"now that 5.2 is out, move us to 5.2.0. and do the probe thing from yesterday", true, todo},
		{"What about that readiness thing you mentioned last time?", true, todo},
		{"now that 5.2 is out, move us to 5.2.0. and add a liveness probe", false, todo},
		// Blind AD: a request that does something else first puts the
		// item off, and "thing" is no word of what it is.
		{"Before the probe thing: I want integration tests for the CLI.", false, todo},
		{"Let's do the CSV export from last week.", false, "Next week: rotate keys."}, // "week" says when, not what
	} {
		newer := summary(map[int][]string{digest.Request: {tc.request}})
		sums := []*digest.Summary{newer, older}
		v := NewVocab(sums)
		if got := v.MentionedLater(tc.todo, v.Distinct(tc.todo), sums, 1); got != tc.want {
			t.Errorf("%q: done = %v, want %v", tc.request, got, tc.want)
		}
	}
}

// TestGotRidOf: a request that says the thing a to-do is about was
// thrown out deals with it (blind AL, opened in the round of 20
// December); one that names it otherwise does not.
func TestGotRidOf(t *testing.T) {
	todo := "What's left: the other three drives are still on that 4-way splitter."
	older := summary(map[int][]string{digest.Outcome: {"The CRC counter has stayed at 2301 for six hours under full load."}})
	for request, want := range map[string]bool{
		"the modular SATA cables came, splitter's in the bin. today: shares.": true,
		"the cables came and I threw out the splitter.":                       true,
		"is the splitter a problem for the fourth drive too?":                 false,
		"I haven't thrown out the splitter yet, the cables come Friday.":      false,
		"Before we got rid of the splitter, were CRC errors rising?":          false,
	} {
		newer := summary(map[int][]string{digest.Request: {request}})
		sums := []*digest.Summary{newer, older}
		v := NewVocab(sums)
		if got := v.MentionedLater(todo, v.Distinct(todo), sums, 1); got != want {
			t.Errorf("%q: done = %v, want %v", request, got, want)
		}
	}
}

// TestGoneLater: what a later session did says the thing an item is
// about is gone: the spool's size limit is no work left once the spool is.
func TestGoneLater(t *testing.T) {
	todo := "The spool has no size limit."
	older := summary(map[int][]string{digest.Outcome: {"src/spool.js appends a failed delivery to pending.jsonl and retryAll() re-sends it every 30 seconds."}}, todo)
	other := summary(map[int][]string{digest.Outcome: {"The relay answers 202 when forwarding fails."}})
	for outcome, want := range map[string]bool{
		"src/spool.js and its test are gone, and RELAY_SPOOL_DIR no longer means anything.": true,
		"The retry queue lives in Postgres now; the flaky test is gone.":                    false,
	} {
		newer := summary(map[int][]string{digest.Details: {outcome}})
		sums := []*digest.Summary{newer, other, older}
		v := NewVocab(sums)
		if got := v.MentionedLater(todo, v.Distinct(todo), sums, 2); got != want {
			t.Errorf("%q: done = %v, want %v", outcome, got, want)
		}
	}
}

// TestDealtWith: an ask of a session is marked dealt with when it names
// an item an older session left open, what the session did speaks of it
// and none of its own open items does; a question, an ask its work does
// not speak of, a fresh ask and a session without an outcome are not.
func TestDealtWith(t *testing.T) {
	older := summary(map[int][]string{digest.Outcome: {"Argo CD syncs the storefront on both clusters. Next on my list: version 1.1, a reset function and a stats view."}},
		"The image updater for the storefront is not set up yet.")
	ask := "then image updater for the storefront: staging should take every new build, prod only semver releases"
	did := map[int][]string{
		digest.Request: {ask},
		digest.Outcome: {"The image updater now watches the storefront image: staging follows every new build, prod only semver tags."},
		digest.Files:   {"apps/storefront/image-updater.yaml (written)"},
	}
	for _, tc := range []struct {
		name string
		d    *digest.Summary
		ask  string
		want bool
	}{
		{"done", summary(did), ask, true},
		{"points back", summary(map[int][]string{digest.Request: {"and the psycopg thing from last time"}, digest.Outcome: {"psycopg builds from source against the hermetic toolchain now."}}), "and the psycopg thing from last time", true},
		{"a to-do said in passing", summary(map[int][]string{digest.Request: {"do 1.1. reset function + stats view"}, digest.Outcome: {"`sql/ext--1.0--1.1.sql` adds the reset function and the stats view."}}), "do 1.1. reset function + stats view", true},
		{"question", summary(did), "can the image updater for the storefront follow semver releases?", false},
		{"left open", summary(did, "The image updater for the storefront still needs its git write-back credentials."), ask, false},
		{"not its work", summary(did), "and the image updater for the grafana dashboards", false},
		{"fresh ask", summary(map[int][]string{digest.Outcome: {"Loki keeps logs for 7 days on the local disk now."}}), "keep loki logs for 7 days on the disk", false},
		{"no outcome", summary(map[int][]string{digest.Request: did[digest.Request]}), ask, false},
	} {
		sums := []*digest.Summary{tc.d, older}
		if got := NewVocab(sums).DealtWith(sums)(0, tc.ask); got != tc.want {
			t.Errorf("%s: DealtWith(%q) = %v, want %v", tc.name, tc.ask, got, tc.want)
		}
	}
}

// TestReviewDealtLaterOnlyDefects: a fact that only reads like a defect
// ("never expires", "has no passphrase", "is missing … on purpose") is
// not dealt with because a newer session used the thing it names and
// changed files.
func TestDealtLaterOnlyDefects(t *testing.T) {
	later := digest.Parse("**Request**\n- Add a release workflow that pushes tags with the deploy key.\n\n**Outcome**\n- The release workflow pushes tags with the deploy key.\n\n**Files changed** (1)\n- .github/workflows/release.yml (created)\n")
	sums := []*digest.Summary{later, digest.Parse("**Outcome**\n- The cart page loads.\n"), digest.Parse("**Outcome**\n- Images are webp.\n")}
	v := NewVocab(sums)
	for _, s := range []string{
		"The deploy key never expires, so rotating it is manual.",
		"The `deploy` key has no passphrase, so CI can use it unattended.",
		"The deploy key is missing from the staging repo on purpose.",
	} {
		if got := DropFixed(s, v.DealtLater(sums, 1)); got != s {
			t.Errorf("DropFixed(%q) = %q: a fact that still holds was dropped", s, got)
		}
	}
}

// TestReviewHypotheticalStillFixed: a problem told with "if" or "unless"
// that a newer session reports fixed goes, as it did before, and as the
// same problem told without them does.
func TestHypotheticalStillFixed(t *testing.T) {
	later := digest.Parse("**Request**\n- The upload bug.\n\n**Outcome**\n- Fixed: uploads over 10 MB no longer fail.\n")
	sums := []*digest.Summary{later, digest.Parse("**Outcome**\n- The cart page loads.\n"), digest.Parse("**Outcome**\n- Images are webp.\n")}
	v := NewVocab(sums)
	for _, s := range []string{
		"An upload over 10 MB fails with a 413.", // goes today
		"If the upload is over 10 MB, it fails with a 413.",
		"An upload over 10 MB fails with a 413 unless it is chunked.",
	} {
		if got := DropFixed(s, v.FixedLater(sums, 1)); got != "" {
			t.Errorf("DropFixed(%q) = %q: a problem reported fixed stays", s, got)
		}
	}
}
