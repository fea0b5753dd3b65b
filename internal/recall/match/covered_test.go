package match

import (
	"strings"
	"testing"
)

func TestCovered(t *testing.T) {
	shown := []map[string]bool{CoverWords("The packaged app checks for updates once at startup and then every 4 hours.")}
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"The app checks for updates every 4 hours.", true},
		{"The app checks for updates every 6 hours.", false}, // a number the bullet does not hold
		{"Updates come from releases.inkpad.dev behind nginx.", false},
	} {
		if got := Covered(tc.s, shown); got != tc.want {
			t.Errorf("Covered(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestAnswered: an older session's request its bullets say in full,
// between them, is answered; one with a sentence, a number or a name
// they do not give is not.
func TestAnswered(t *testing.T) {
	shown := []string{
		"- Outcome: The training window is 24 months now, so we get eight test folds instead of five.\n",
		"- Decision: The walk-forward train window moves from 36 to 24 months because 36 reacted too slowly.\n",
		"- Environment: The stack runs on shop-prod-1 as the shop service; staging on stage host 2.\n",
	}
	var words []map[string]bool
	for _, b := range shown {
		words = append(words, CoverWords(b))
	}
	told := strings.Join(shown, "")
	for _, tc := range []struct {
		req  string
		want bool
	}{
		{"The train window reacts too slowly, go from 36 to 24 months.", true},
		{"The train window reacts too slowly, go from 36 to 24 months. Thanks.", true},
		{"The train window is too slow to react, go from 36 to 24 months. And add a CI job for the backtests.", false},
		{"Make the train window 18 months.", false},
		{"Prod runs the shop service on shop-prod-1.", true},
		{"Prod runs the shop service on shop-prod-2.", false},
		{"Stage runs the shop service on stage-host-2.", false}, // its words scattered, not its name
		{"Ask Patty: the training window is 24 months now.", false},
		{"Thanks.", false},
		{"Ugh, good catch. Prod runs the shop service on shop-prod-1.", true},
	} {
		if got := Answered(tc.req, words, told); got != tc.want {
			t.Errorf("Answered(%q) = %v, want %v", tc.req, got, tc.want)
		}
	}
}

// TestRestated: a bullet whose every name another bullet shown gives,
// with half its words, says nothing new; one with a name or a number
// of its own does.
func TestRestated(t *testing.T) {
	told := []string{
		"- Environment: 24 and 31 December are off-peak from 12:00 (rows with `offpeak_from` 12:00 in `data/holidays-2026.csv`).\n",
		"- Environment: Prices: `data/tariffs.csv` got a row `2026-04-01;33.40;23.10`, so from 1 April peak is 33.40 ct/kWh and off-peak 23.10 ct/kWh.\n",
	}
	var shown []map[string]bool
	for _, b := range told {
		shown = append(shown, CoverWords(b))
	}
	for _, tc := range []struct {
		b    string
		want bool
	}{
		{"- Decision: Billing decided about 24 and 31 December: off-peak from 12:00.\n", true},
		{"- Environment: New prices from 1 April: peak 33.40 ct/kWh, off-peak 23.10.\n", true},
		{"- Environment: New prices from 1 May: peak 33.40 ct/kWh, off-peak 23.10.\n", false},
		{"- Decision: Billing decided about 24 and 31 December: off-peak from 13:00.\n", false},
		{"- Outcome: The tariffs file holds every price.\n", false}, // no names to tell it by
		{"- Decision: Christmas Eve is billed at the Sunday rate of 2026.\n", false},
	} {
		if got := Restated(tc.b, told, shown); got != tc.want {
			t.Errorf("Restated(%q) = %v, want %v", tc.b, got, tc.want)
		}
	}
}
