package open

import (
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestTodo38IsTodo: work left said as a wish, a wait for someone's
// work, a thing nobody did since, what cannot work yet or comes after
// something else (stale lines of the round of 1 January); and what a
// done report says while it waited is no work left.
func TestTodo38IsTodo(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"I'd like to add a fake HttpMessageHandler that delays past the timeout and then answers, so the retry path is covered.", true},
		{"One thing I'd still like: getStatus only shows the step, not which compensations have already run.", true},
		{`Until Dana has created the GitHub OIDC provider (token.actions.githubusercontent.com) in the prod account, the prod job will stop at the credentials step with "Not authorized to perform sts:AssumeRoleWithWebIdentity".`, true},
		{"And until they regenerate, their code still assumes a checkout date is always there.", true},
		{"Nobody has built it since, and better-sqlite3 on Windows needs the prebuilt for the right arch.", true},
		{"The Open VSX side can't work yet.", true},
		{"The backend team is adding a second payment-worker replica; after that we rerun.", true},
		// "not … yet" ending its clause: the \b after todoMark's group
		// never held after the punctuation it ends with.
		{"Also: the SIP login accounts — Openfields hasn't created them yet, I asked for one per kiosk.", true},
		{"The exporter isn't wired into the dashboard yet.", true},
		{"It isn't pretty, yet it works on every board.", false},
		// What is to be done once a thing arrives.
		{"When they arrive the first bring-up checks are VBUS and 3V3 with a bench supply's current limit at 200 mA, then the USB enumeration.", true},
		{"When the request arrives, the handler checks the token first.", false},
		{"I left Hamilton High out of the device table for now — once Dale's list arrives we add HHS.", true},
		{"We'll wire that in when it arrives.", true},
		{"Billing still owes us the list of public holidays; holidays count as off-peak all day.", true},
		{"Once the first frame arrives, the decoder locks onto its rate.", false},
		// Work under way, whose end a later session reports.
		{"The search reindex is the one thing still running: at this rate statuses finish in about an hour and a half.", true},
		{"The rclone copy is still in progress, about 60% through.", true},
		{"The old VM keeps running as a fallback.", false},
		// A done report that says what it did while it waited.
		{"I rewrote the on-call runbook's queries for ClickHouse while waiting for the parity run: every alert now links to the Grafana service-logs dashboard.", false},
		{"Also while waiting I did the rclone copy, 43 GB, and flipped S3_ENABLED, media loads from the bucket now.", false},
		// A wish that is a rule, a state until an event, a past step.
		{"I'd like to keep the port at 5432.", false},
		{"Until then the job runs hourly.", false},
		{"Until the cache has warmed up, builds take ten minutes.", false},
		{"After that we switched the queue to Redis.", false},
		{"Nobody has touched the parser since March, it is stable.", false},
		{"It can't run as root.", false},
		// Still wanted: waits, and work to come.
		{"We're waiting for the parity run before the cutover.", true},
	} {
		if got := IsTodo(tc.in); got != tc.want {
			t.Errorf("IsTodo(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestTodo38DoneReport: a later session's report that a thing is done
// ("BUF_TOKEN is in", "deprecatePatch(…) is in now", "so that's
// sorted") names the to-do by one rare word of its, often the code name
// the to-do gave it; a report of another thing, a thing said to be in a
// place, or one still to come, does not close it.
func TestTodo38DoneReport(t *testing.T) {
	older := summary(map[int][]string{digest.Outcome: {"The inventory service answers on 50051 and Envoy terminates TLS in front of it."}})
	for _, tc := range []struct {
		todo, later string
		want        bool
	}{
		{"Remote plugins are rate-limited for anonymous use, so CI needs a `BUF_TOKEN` secret.", "BUF_TOKEN is in, Marta added it.", true},
		{"I'll do the deprecatePatch step next week unless you want to.", "deprecatePatch('fraud-check-v1') is in now, and replay stays green with a fresh history (order-8933) that runs the fraud path.", true},
		{"The Open VSX side can't work yet.", "I got the Open VSX token into the repo secrets yesterday and the namespace exists, so that's sorted.", true},
		{"`refresh_for_unknown_kid` itself and the `start_magic_link` handler still have to be written; both are small.", "Both refresh_for_unknown_kid and start_magic_link are done, I wrote them on my machine last night.", true},
		// Not done, or not this.
		{"Remote plugins are rate-limited for anonymous use, so CI needs a `BUF_TOKEN` secret.", "BUF_TOKEN is in the org settings, not the repo's.", false},
		{"Remote plugins are rate-limited for anonymous use, so CI needs a `BUF_TOKEN` secret.", "Once BUF_TOKEN is in, the deploy job works.", false},
		{"I'll do the deprecatePatch step next week unless you want to.", "The fraud check is done before the charge.", false},
		{"The Open VSX side can't work yet.", "The Marketplace side is sorted.", false},
	} {
		newer := summary(map[int][]string{digest.Outcome: {tc.later}})
		sums := []*digest.Summary{newer, older}
		v := NewVocab(sums)
		if got := v.ClosedLater(tc.todo, v.Distinct(tc.todo), sums, 1); got != tc.want {
			t.Errorf("%q after %q: closed = %v, want %v", tc.todo, tc.later, got, tc.want)
		}
	}
}

// TestTodo38FunctionWords: a to-do's rarest words are those of what it
// is about, not "unless", "separately" or "itself", which a session
// that did the work has no reason to say.
func TestTodo38FunctionWords(t *testing.T) {
	v := NewVocab(nil)
	for _, tc := range []struct{ in, notWant string }{
		{"I'll do the deprecatePatch step next week unless you want to.", "unle"},
		{"Separately, the T46Us are on firmware 66.85 and 66.86 is pending.", "separat"},
		{"`refresh_for_unknown_kid` itself and the `start_magic_link` handler still have to be written; both are small.", "small"},
		{"What's left: the preview panel (quill.openPreview) is the next piece, it doesn't exist yet.", "exist"},
		{"Android will build on the next push; iOS waits for the signing secrets.", "wait"},
	} {
		for _, k := range v.Distinct(tc.in) {
			if k == tc.notWant {
				t.Errorf("Distinct(%q) holds %q", tc.in, k)
			}
		}
	}
	// "check" is the to-do's own thing often enough (k6 checks, health
	// checks): "I'll add a checks panel at some point" met the session
	// that added it by "checks" and "panel".
	if d := v.Distinct("I'll add a checks panel at some point."); !slices.Contains(d, "check") {
		t.Errorf("Distinct leaves out %q: %v", "check", d)
	}
}

// TestTodo38ThatTodo: "I'll do that next time" is the to-do of the
// clause before it, which goes with it once done.
func TestTodo38ThatTodo(t *testing.T) {
	done := func(s string) bool { return len(s) > 60 }
	in := "The cache is fine. The fix is to store the in-flight Task per URL and let the second caller await it; I'll do that next time."
	if got, want := NewVocab(nil).DropDone(in, done), "The cache is fine."; got != want {
		t.Errorf("DropDone = %q, want %q", got, want)
	}
	// "We'll wire that in when it arrives" is the work of the sentence
	// before, and goes with its to-do.
	in = "Great, SQLite it is. Billing still owes us the list of public holidays; holidays count as off-peak all day. We'll wire that in when it arrives."
	done = func(s string) bool { return strings.Contains(s, "owes") }
	if got, want := NewVocab(nil).DropDone(in, done), "Great, SQLite it is."; got != want {
		t.Errorf("DropDone = %q, want %q", got, want)
	}
	done = func(s string) bool { return len(s) > 60 }
	// "after that we rerun" is what comes once the clause before it
	// happened: both are done once the rerun is.
	in = "The backend team is adding a second payment-worker replica; after that we rerun."
	if got := NewVocab(nil).DropDone(in, done); got != "" {
		t.Errorf("DropDone = %q, want \"\"", got)
	}
}

// TestTodo38AllDone: "Both leftovers are in" after "now the two
// leftovers from earlier in the week please" closes each older to-do
// whose thing the session's work touched; one it did not touch, or a
// session that says only some are done, closes none.
func TestTodo38AllDone(t *testing.T) {
	older := summary(map[int][]string{digest.Outcome: {"The webhook controller only enqueues ProcessStripeEventJob now and answers 200 at once."}})
	done := summary(map[int][]string{
		digest.Request: {"deployed with DB_POOL=30 on the workers, errors stopped. thanks. now the two leftovers from earlier in the week please, then have a look at the stripe side."},
		digest.Outcome: {"Both leftovers are in.", "Receipts now go out with `deliver_later(queue: :mailers)`, so a slow SMTP relay no longer holds one of the critical threads."},
		digest.Files:   {"app/jobs/process_stripe_event_job.rb (edited ×2): Mail through the mailers queue", "app/services/plans/sync_from_stripe.rb (written)"},
	})
	some := summary(map[int][]string{
		digest.Outcome: {"One of the two leftovers is in.", "Receipts now go out with `deliver_later(queue: :mailers)`."},
		digest.Files:   {"app/jobs/process_stripe_event_job.rb (edited)"},
	})
	for _, tc := range []struct {
		todo  string
		later *digest.Summary
		want  bool
	}{
		{"Tomorrow I'll handle customer.subscription.updated in ProcessStripeEventJob so they follow.", done, true},
		{"Tomorrow I'll add the VAT field to the PDF receipt header.", done, false},
		{"Tomorrow I'll handle customer.subscription.updated in ProcessStripeEventJob so they follow.", some, false},
	} {
		sums := []*digest.Summary{tc.later, older}
		v := NewVocab(sums)
		if got := v.ClosedLater(tc.todo, v.Distinct(tc.todo), sums, 1); got != tc.want {
			t.Errorf("%q: closed = %v, want %v", tc.todo, got, tc.want)
		}
	}
}
