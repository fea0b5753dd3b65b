package retire

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestForbiddenDoneAfterAll: a rule that forbids an act is no longer
// current once a newer statement goes back on it and does the act; a
// statement that goes back on something else, or does the act without
// going back on anything, leaves it.
func TestForbiddenDoneAfterAll(t *testing.T) {
	rule := "Another one from the branch managers: please don't show fines on the screen, people read over each other's shoulders."
	checkRules(t, []ruleCase{
		{"Now a change of heart from the branch managers' meeting: show fines after all — but only the total owed, and only after the PIN.", rule, true},
		{"I changed my mind, write the claim reference back to Kindly through its import file.", "The tool must never write to Kindly, it only reads the exports.", true},
		{"We're going with Redis after all.", rule, false},
		{"Show fines on the receipt.", rule, false},
	})
}

// TestNowNotOld: "X now, not Y" names the value it replaced.
func TestNowNotOld(t *testing.T) {
	n, o := &digest.Summary{}, &digest.Summary{}
	n.Parts[digest.Request] = []string{"Oh, and Anjali rang: she wants the invoice file on Friday afternoons now, not Mondays, so the cafés get their invoices before the weekend."}
	x := "The export covers Monday to Sunday of the week before and is written each Monday at 06:30 to /srv/doughsheet/out/xero/, ready when Anjali starts."
	o.Parts[digest.Outcome] = []string{x}
	r := New(nil, []*digest.Summary{n, o})
	if !r.Retired(x, 1) {
		t.Errorf("Retired(%q) = false after the invoice day changed", x)
	}
}

// TestRuleTakenBackAgain: a rule taken back by its name of a word with a
// common ending ("colour-blindness"), by "I'm taking back what I said
// about …", or by letting the agent do what it forbade ("go ahead and
// use spot"), is no longer current; one about something else stays.
func TestRuleTakenBackAgain(t *testing.T) {
	checkRules(t, []ruleCase{
		{"And drop the colour-blindness check rule, the palette lives in style/tokens.json now and was reviewed once.", "From now on every palette change goes through the colour-blindness check (Chrome devtools, deuteranopia and protanopia) before it's merged", true},
		{"And drop the colour-blindness check rule.", "Never merge on a Friday.", false},
		{"I'm taking back what I said about never blocking. The police stopped one of the artics at junction 39.", "About overweight: the software never blocks a lorry", true},
		{"I'm taking back what I said about never blocking.", "Never print a ticket without a plate number.", false},
		{"With the claims and the heartbeat in place, go ahead and use spot for the g4dn workers, the savings are too big to ignore.", "Keep the GPU boxes on-demand, no spot — I don't want a 3-hour lecture killed at 90%", true},
		{"Go ahead and use spot for the g4dn workers.", "Keep the GPU boxes in eu-west-1.", false},
	})
}

// A ruleCase is a rule, a newer request, and whether the request leaves
// the rule no longer current.
type ruleCase struct {
	newer, rule string
	want        bool
}

// checkRules asks a retirer of each case's request (newer) and rule
// (older, a preference) whether the rule is retired.
func checkRules(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		n, o := &digest.Summary{}, &digest.Summary{}
		n.Parts[digest.Request] = []string{tc.newer}
		o.Parts[digest.Preferences] = []string{tc.rule}
		r := New(nil, []*digest.Summary{n, o})
		if got := r.Retired(tc.rule, 1); got != tc.want {
			t.Errorf("Retired(%q) after %q = %v, want %v", tc.rule, tc.newer, got, tc.want)
		}
	}
}
