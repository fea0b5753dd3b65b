package retire

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestRuleTakenBackInOtherWords: a rule the user takes back by saying it
// was too strict, by its name of hyphenated words or by what it was
// about, or by letting the agent do what it forbade whenever it likes,
// is no longer current; a rule about something else stays.
func TestRuleTakenBackInOtherWords(t *testing.T) {
	checkRules(t, []ruleCase{
		{"And about dependencies: I was too strict. Dev dependencies you can add freely, just mention them in your summary.", "Please don't add any other npm dependencies without asking me first.", true},
		{"And about dependencies: I was too strict.", "Never deploy on a Friday.", false},
		{"I was too strict about the changelog, a typo fix needs no entry.", "Never merge a PR without a changelog entry.", true},
		{"Actually, let's scrap the one-file-per-issue rule, we'd have two hundred tiny files in a year.", "From now on every bug fix gets its own regression test file named after the GitHub issue.", true},
		{"Actually, let's scrap the one-file-per-issue rule.", "Don't add runtime dependencies without asking me first.", false},
		{"Forget my rule about Friday deploys, the on-call rota covers weekends now.", "Never deploy on Fridays.", true},
		{"Forget my rule about Friday deploys.", "Never run migrations by hand.", false},
		{"The fax number was ported on Friday, so you can power off the FreePBX box whenever you like.", "One rule while we do all this: please don't touch the old FreePBX box (10.20.0.4).", true},
		{"You can power off the FreePBX box whenever you like.", "Please don't touch the router.", false},
	})
}

// TestAsideBetweenDashes: an aside between dashes before the predicate
// is no clause's end: once the value before it changed, the sentence goes
// whole, not as the verb-first fragment after the closing dash ("Kept
// serving the old feed …").
func TestAsideBetweenDashes(t *testing.T) {
	n, o := &digest.Summary{}, &digest.Summary{}
	n.Parts[digest.Outcome] = []string{"Feeds now have max-age=300, and publishing purges the show's feed URL from Bunny through its API."}
	x := "Feeds were sent with max-age=3600, so Bunny — and apps behind it — kept serving the old feed for up to an hour after Joris published."
	o.Parts[digest.Outcome] = []string{x}
	r := New(nil, []*digest.Summary{n, o})
	if got := r.DropRetired(x, 1); got != "" {
		t.Errorf("DropRetired(%q) = %q, want it gone whole", x, got)
	}
}

// TestListLeadKept: a list whose first item a newer statement retired
// keeps what the list is of, not its other items alone.
func TestListLeadKept(t *testing.T) {
	n, o := &digest.Summary{}, &digest.Summary{}
	n.Parts[digest.Commands] = []string{"`sed -i 's/1.0f, 2000.0f/1.0f, 4000.0f/' Source/Parameters.cpp`"}
	x := "The parameters live in Source/Parameters.cpp: time (1–2000 ms, skewed so short times get more of the knob), feedback (0–120 %), mix, wow and flutter, all lowercase ids as you want."
	o.Parts[digest.Outcome] = []string{x}
	r := New(nil, []*digest.Summary{n, o})
	want := "The parameters live in Source/Parameters.cpp: feedback (0–120 %), mix, wow and flutter, all lowercase ids as you want."
	if got := r.DropRetired(x, 1); got != want {
		t.Errorf("DropRetired(%q) = %q, want %q", x, got, want)
	}
}
