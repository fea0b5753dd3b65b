package summarize

import (
	"slices"
	"strings"
	"testing"
)

// TestReview34EveryTimeRule: the new telling.Fault alternative "every
// time … fails/breaks/times out/drops" takes a user's standing rule for
// a failure and drops it ("Each time …" is still a rule).
func TestReview34EveryTimeRule(t *testing.T) {
	for _, s := range []string{
		"Every time the nightly export fails, post the error to #ops.",
		"Every time a deploy breaks the build, revert it first and tell me.",
		"Every time a job times out, retry it once before paging anyone.",
		"Every time we drop a table, take a backup first.",
	} {
		if got := strings.Join(classify(User, s), ","); got != "pref" {
			t.Errorf("%q: %q, want \"pref\"", s, got)
		}
	}
}

// TestReview34NoRule: sentences the round's new readings took for the
// user's rules. "gets stuck" joined Symptom and the "every time … gets
// stuck" Fault but not the "… every time" one, so a fault told with
// "every time" after it read as a rule; PrefCue's new "a rule:" took a
// rule of the world the user describes (a firewall's, a council's) for
// one the user sets the agent.
func TestReview34NoRule(t *testing.T) {
	for _, s := range []string{
		"The worker gets stuck on the 2 GB files in eu-west-1 every time.",
		"The kiosk freezes when Łucja scans her card, every time.",
		"The firewall has a rule: nothing from the guest VLAN reaches 10.60.0.0/16.",
		"The council has a rule: bins go out by 07:00 on Mondays.",
	} {
		if got := classify(User, s); slices.Contains(got, "pref") {
			t.Errorf("%q: %q, no rule of the user's", s, got)
		}
	}
}

// TestReview34NextAtEnd: NextTopic exempts every user "Next: X" from
// work left, also the one that closes a session after the work is done,
// so the next topic the user names for later is lost.
func TestReview34NextAtEnd(t *testing.T) {
	a := analyze([]Turn{
		{Role: User, Text: "Add the VAT field to the invoice PDF."},
		{Role: Assistant, Text: "Added the VAT field to `invoice.tmpl`; 12 tests pass."},
		{Role: User, Text: "Looks good. Next: the CSV export of the invoices."},
	}, "", nil)
	if len(a.open) != 1 || !strings.Contains(a.open[0].text, "CSV export") {
		t.Errorf("open = %+v, want the CSV export left", a.open)
	}
}

// TestReview34DeterminerNoPronoun: RefersBack's new "I'll/we can VERB
// this/that …" takes a determiner ("this module") for a pronoun and
// glues the unrelated sentence before onto the open item.
func TestReview34DeterminerNoPronoun(t *testing.T) {
	a := item(t, "All 41 tests pass.\n\nI'll rename this module next time.", "")
	if len(a.open) != 1 || strings.Contains(a.open[0].text, "41 tests") {
		t.Errorf("open = %+v, want only the rename", a.open)
	}
}

// TestReview34CodeListNoOxfordComma: codeList needs two commas, so a
// list of three codes written without the Oxford comma is no detail.
func TestReview34CodeListNoOxfordComma(t *testing.T) {
	for _, s := range []string{
		"The codes are CEN, ASH and WIT.",
		"The depots are coded CEN, ASH, MIL and WIT.",
	} {
		if !detail(s) {
			t.Errorf("detail(%q) = false, want a detail", s)
		}
	}
}
