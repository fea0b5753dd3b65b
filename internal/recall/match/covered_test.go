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
