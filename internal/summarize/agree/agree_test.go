package agree

import "testing"

func TestProposesAndAgrees(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"My take: Postgres 16, and not CockroachDB, for this one.", true},
		{"For data access I'd use sqlc on top of pgx/v5, no ORM.", true},
		{"I suggest we hand trials to Stripe.", true},
		{"I'd say it's the cache.", false},
		{"If the queue grows, I'd use Redis.", false},
		{"My recommendation is a hybrid, weighted heavily to one side:", true},
		{"I'd rather make the two partitions a separate mirrored pool.", true},
		{"I'd rather not.", false},
		{"My recommendation is moot now that the vendor dropped the v2 API.", false},
	} {
		if got := Proposes(tc.s); got != tc.want {
			t.Errorf("Proposes(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
	if got := Choice("For data access I'd use sqlc on top of pgx/v5."); got != "For data access use sqlc on top of pgx/v5." {
		t.Errorf("Choice = %q", got)
	}
	for first, want := range map[string]bool{"agreed on all of it.": true, "good, ack after inbox commit is what I wanted.": true, "ok, but not sqlc.": false, "No.": false, "Why not Cockroach?": false, "flashed, it connects, v0.12.0-389 on both.": true, "done.": true, "tried it, it fails.": false, "Did it pass on CI?": false, "Done?": false, "Reverted that, everything works again.": false,
		"mirrors + the fast pool, yes.": true, "mirrors + the fast pool, yes. also the heater": true, "the second one, ok but shorter": false,
		"if it stays under 5 ms, yes.": false, "not this sprint, ok.": false, "maybe later, ok.": false} {
		if got := Agrees(first); got != want {
			t.Errorf("Agrees(%q) = %v, want %v", first, got, want)
		}
	}
}

// TestLabel: what a proposal's pronoun stands for is its paragraph's
// label, else the sentence before it when the proposal names nothing
// else ("I'd add both").
func TestLabel(t *testing.T) {
	const msg = "That's a remote DoS.\n\nThe fix is a hop limit on pointers (and, strictly, pointers may only point\nbackwards). I'd add both. OK?"
	for _, tc := range []struct{ msg, s, want string }{
		{"Developer fields: the Karoo files have them. My suggestion is to skip them for now.", "My suggestion is to skip them for now.", "Developer fields"},
		{msg, "I'd add both.", "The fix is a hop limit on pointers (and, strictly, pointers may only point backwards)"},
		{msg, "I'd add a hop limit.", ""},
		{"Is it the cache? I'd do that.", "I'd do that.", ""},
		{"The plan is clean now. I'd make that the rule for every dataset: IAM only through members.", "I'd make that the rule for every dataset: IAM only through members.", ""},
	} {
		if got := Label(tc.msg, tc.s); got != tc.want {
			t.Errorf("Label(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}
