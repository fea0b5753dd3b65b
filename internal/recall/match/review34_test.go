package match

import (
	"strings"
	"testing"
)

// TestReview34RestatedKeepsNegation: Restated drops a bullet whose names
// another shown bullet gives with half its words, so a rule's "never" or
// "don't", or a "not", that bullet does not say is lost.
func TestReview34RestatedKeepsNegation(t *testing.T) {
	told := []string{
		"- Outcome: `hvacwatch.service` restarts at 17:00 now.\n",
		"- Decision: The train window is 24 months in `config.yaml`.\n",
	}
	var shown []map[string]bool
	for _, b := range told {
		shown = append(shown, CoverWords(b))
	}
	for _, b := range []string{
		"- Preference: Never restart `hvacwatch.service` before 17:00.\n",
		"- Preference: Don't restart `hvacwatch.service` at 17:00.\n",
		"- Decision: The train window is not 24 months in `config.yaml`.\n",
	} {
		if Restated(b, told, shown) {
			t.Errorf("Restated(%q) = true: its negation is lost", b)
		}
	}
}

// TestReview34RestatedKeepsReason: a bullet that gives the same names and
// value as one shown plus a reason ("so folds stay balanced") is dropped
// as restated, with half its words enough, and the reason is lost.
func TestReview34RestatedKeepsReason(t *testing.T) {
	told := []string{"- Decision: The train window is 24 months in `config.yaml`.\n"}
	shown := []map[string]bool{CoverWords(told[0])}
	if b := "- Decision: The train window is 24 months in `config.yaml`, so folds stay balanced.\n"; Restated(b, told, shown) {
		t.Errorf("Restated(%q) = true: its reason is lost", b)
	}
}

// TestReview34AnsweredNamesWhole: Answered checks a request's names as
// lower-cased substrings of the bullets ("Ann" is "said" by "planned"),
// and not at all at a sentence's start, so a request naming a person the
// bullets never name is dropped as answered.
func TestReview34AnsweredNamesWhole(t *testing.T) {
	told := "- Outcome: The weekly report is emailed every Monday; the planned recipient list lives in `recipients.txt`.\n"
	shown := []map[string]bool{CoverWords(told)}
	for _, req := range []string{
		"Email the weekly report to Ann every Monday.",
		"Ann wants the weekly report every Monday by email.",
	} {
		if Answered(req, shown, told) {
			t.Errorf("Answered(%q) = true, but no bullet names Ann", req)
		}
	}
	// The doc's own example of a name said whole, with a longer host.
	told = "- Environment: The shop service runs on shop-prod-12 and 1 replica.\n"
	shown = []map[string]bool{CoverWords(told)}
	if req := "Move the shop service to shop-prod-1."; Answered(req, shown, strings.ToLower(told)) {
		t.Errorf("Answered(%q) = true, but the bullets name shop-prod-12, not shop-prod-1", req)
	}
}
