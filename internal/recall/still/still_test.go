package still

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/retire"
)

// TestKeepsHeadClause: a preference bullet whose first sentence
// lost only a clause a newer session changed (DropRetired's clause
// drop) still starts with its rule: the pack must not drop the
// whole bullet (recall: p == digest.Preferences && !still.KeepsHead).
func TestKeepsHeadClause(t *testing.T) {
	for _, tc := range []struct{ bullet, newer string }{
		{"Download links are signed with HS256 and expire after 10 minutes. Partners verify them offline, so never switch to RS256.",
			"Download links now stay valid for an hour."},
		{"The backend runs locally on port 5000, and the app's deployment target is iOS 16, so keep to APIs that exist there. Older devices matter to our users.",
			"The backend now listens on 8080 instead of 5000, which AirPlay owns."},
	} {
		stmts := []retire.Statement{{Text: tc.newer, Rank: 0}, {Text: "The cart page loads.", Rank: 2}, {Text: "Images are webp.", Rank: 2}}
		left := retire.New(stmts, nil).DropRetired(tc.bullet, 1)
		if left == "" || left == tc.bullet {
			t.Fatalf("setup: DropRetired(%q) = %q, want a clause dropped", tc.bullet, left)
		}
		if !KeepsHead(tc.bullet, left) {
			t.Errorf("KeepsHead(%q, %q) = false: the rule left (%q) is dropped with the changed clause", tc.bullet, left, left)
		}
	}
}

// TestKeepsHeadReasonAlone: the reason a rule gave, left alone once the
// rule was taken back, is no preference to show.
func TestKeepsHeadReasonAlone(t *testing.T) {
	bullet := "Rules for this repo: only ever use the shared http client in lib/http.js, no raw fetch calls — the retries live there."
	if KeepsHead(bullet, "The retries live there.") {
		t.Errorf("%q kept once its rule was taken back", "The retries live there.")
	}
}

// TestHeadlessRequest: a request sentence whose rule was taken back
// does not leave its reason behind.
func TestHeadlessRequest(t *testing.T) {
	b := "Set up the e2e run. Please don't add new npm dependencies to the frontend without asking me first, the bundle is heavy."
	if got := Headless(b, "Set up the e2e run. The bundle is heavy."); got != "Set up the e2e run." {
		t.Errorf("Headless = %q", got)
	}
	if got := Headless(b, b); got != b {
		t.Errorf("Headless = %q", got)
	}
	// What leaned on a to-do a newer session did goes with it (blind AK).
	b = "perfect, thanks. the German translation of the new fields is still missing btw. not today though"
	if got := Headless(b, "not today though"); got != "" {
		t.Errorf("Headless = %q, want nothing", got)
	}
	b = "use sqlc for data access. no ORM. the migrations from yesterday are still missing."
	if got := Headless(b, "use sqlc for data access. no ORM."); got != "use sqlc for data access. no ORM." {
		t.Errorf("Headless = %q, want what leans on a sentence still there kept", got)
	}
	b = "Use ir.cron for the release. Why not queue_job? we use it at another client. Batches of 500."
	if got := Headless(b, "Use ir.cron for the release. we use it at another client. Batches of 500."); got != "Use ir.cron for the release. Batches of 500." {
		t.Errorf("Headless = %q", got)
	}
}

// TestWeighed: the list of options a session chose among says nothing
// its decision does not; in a session that decided nothing it is what
// is left to decide.
func TestWeighed(t *testing.T) {
	b := "Options: Redis, or a small table in the SQLite database we already have. Redis would be fast, but it is one more service to run."
	decided, open := &digest.Summary{}, &digest.Summary{}
	decided.Parts[digest.Decisions] = []string{"A small table in the SQLite database we already have — The database is already there."}
	if !Weighed(b, decided) {
		t.Errorf("Weighed(%q) in a session that decided = false", b)
	}
	if Weighed(b, open) {
		t.Errorf("Weighed(%q) in a session that decided nothing = true", b)
	}
	if x := "Done: the rate limiter keeps one row per client and minute."; Weighed(x, decided) {
		t.Errorf("Weighed(%q) = true", x)
	}
}
