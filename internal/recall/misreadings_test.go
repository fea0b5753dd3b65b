package recall

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/retire"
	"github.com/cairn-mem/cairn/internal/recall/recent"
)

// TestReviewKeepsHeadClause: a preference bullet whose first sentence
// lost only a clause a newer session changed (DropRetired's clause
// drop) still starts with its rule: sessionGroup must not drop the
// whole bullet (context.go: p == digest.Preferences && !keepsHead).
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
		if !keepsHead(tc.bullet, left) {
			t.Errorf("keepsHead(%q, %q) = false: the rule left (%q) is dropped with the changed clause", tc.bullet, left, left)
		}
	}
}

// TestKeepsHeadReasonAlone: the reason a rule gave, left alone once the
// rule was taken back, is no preference to show.
func TestKeepsHeadReasonAlone(t *testing.T) {
	bullet := "Rules for this repo: only ever use the shared http client in lib/http.js, no raw fetch calls — the retries live there."
	if keepsHead(bullet, "The retries live there.") {
		t.Errorf("%q kept once its rule was taken back", "The retries live there.")
	}
}

// TestRejectionKeepsReasons: what was turned down, and why, stays whole
// when a newer session changes a value its reason names; a rule said as
// a rejection goes once the user allows what it forbade.
func TestRejectionKeepsReasons(t *testing.T) {
	m, _ := newTestMemory(t)
	warmer := `A scheduled "warmer" (an EventBridge rule pinging the function every 5 minutes) doesn't fit: it keeps one environment warm, and the 06:00 burst needs a dozen at once.`
	rule := "I won't add any frontend packages without checking with you."
	newest := sess("b2", map[int][]string{
		digest.Outcome: {"Instead a scalable target carries two scheduled actions: 10 provisioned environments from 05:30, back to zero at 09:30.",
			"Feel free to add frontend packages whenever you need them."},
	})
	older := sess("a1", map[int][]string{digest.Rejected: {warmer, rule}})
	_, _, r := retirerFor(m, []*recent.Session{newest, older})
	if got := stillSays(r, digest.Rejected, 1, warmer, nil, false); got != warmer {
		t.Errorf("rejection left as %q", got)
	}
	if got := stillSays(r, digest.Rejected, 1, rule, nil, false); got != "" {
		t.Errorf("a rule the user took back left as %q", got)
	}
}

// TestHeadlessRequest: a request sentence whose rule was taken back
// does not leave its reason behind.
func TestHeadlessRequest(t *testing.T) {
	b := "Set up the e2e run. Please don't add new npm dependencies to the frontend without asking me first, the bundle is heavy."
	if got := headless(b, "Set up the e2e run. The bundle is heavy."); got != "Set up the e2e run." {
		t.Errorf("headless = %q", got)
	}
	if got := headless(b, b); got != b {
		t.Errorf("headless = %q", got)
	}
}
