package quantity

import "testing"

// TestReview36VoltsAndWatts: "v" and "w" were added to measures, but
// unitKey gives no unit for a word under two letters, so "24 V" and
// "300 W" are still no quantity at all: the two entries do nothing.
func TestReview36VoltsAndWatts(t *testing.T) {
	for _, s := range []string{"The bed heater is 24 V.", "The dehumidifier draws 300 W."} {
		if len(Of(s)) == 0 {
			t.Errorf("Of(%q) = none, want a measure", s)
		}
	}
}
