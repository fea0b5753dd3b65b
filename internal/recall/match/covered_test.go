package match

import "testing"

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

// TestAnswered: an older session's request loses the sentences its
// bullets say between them, never one with a number they do not give.
func TestAnswered(t *testing.T) {
	shown := []map[string]bool{
		CoverWords("Outcome: The training window is 24 months now, so we get eight test folds instead of five."),
		CoverWords("Decision: The walk-forward train window moves from 36 to 24 months because 36 reacted too slowly."),
	}
	for _, tc := range []struct{ req, want string }{
		{"The train window is too slow to react, go from 36 to 24 months. And add a CI job for the backtests.", "And add a CI job for the backtests."},
		{"Make the train window 18 months.", "Make the train window 18 months."},
		{"Go from 36 to 24 months.", "Go from 36 to 24 months."}, // three of its four words: kept
	} {
		if got := Answered(tc.req, shown); got != tc.want {
			t.Errorf("Answered(%q) = %q, want %q", tc.req, got, tc.want)
		}
	}
}
