package expand

import (
	"testing"
	"time"
)

func TestWhen(t *testing.T) {
	ref := time.Date(2025, 6, 10, 12, 0, 0, 0, time.UTC)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		query string
		in    []time.Time // dates some window holds
		out   []time.Time // dates no window holds
	}{
		{"what did she cook in May?", []time.Time{day(2025, 5, 3), day(2024, 5, 30)}, []time.Time{day(2025, 4, 30), day(2025, 6, 2)}},
		{"in early August", []time.Time{day(2024, 8, 5)}, []time.Time{day(2025, 8, 5)}}, // not yet by ref
		{"the trip of March 2024", []time.Time{day(2024, 3, 9)}, []time.Time{day(2025, 3, 9)}},
		{"on 12 March", []time.Time{day(2025, 3, 12)}, nil},
		{"what did they do last summer", []time.Time{day(2024, 7, 1)}, []time.Time{day(2025, 6, 5), day(2023, 7, 1)}},
		{"in the autumn, how many", []time.Time{day(2024, 10, 1)}, []time.Time{day(2025, 1, 1)}},
		{"in the winter", []time.Time{day(2025, 1, 15), day(2024, 12, 31)}, []time.Time{day(2025, 3, 15)}},
		{"at Christmas", []time.Time{day(2024, 12, 24), day(2025, 1, 2)}, []time.Time{day(2024, 11, 20)}},
		{"between December and February", []time.Time{day(2025, 2, 10), day(2024, 12, 10)}, nil},
		{"in 2024", []time.Time{day(2024, 1, 1)}, []time.Time{day(2025, 1, 1)}},
		{"three weeks ago", []time.Time{day(2025, 5, 20)}, []time.Time{day(2025, 4, 1)}},
		{"what happened last month", []time.Time{day(2025, 5, 15)}, []time.Time{day(2025, 3, 1)}},
		// Not times: a name, a verb, a season as an adjective.
		{"what did Walt and June buy", nil, []time.Time{day(2025, 6, 5), day(2024, 6, 5)}},
		{"May I ask what Jun plays", nil, []time.Time{day(2025, 5, 5), day(2025, 6, 5)}},
		{"what was on the autumn menu", nil, []time.Time{day(2024, 10, 1)}},
		{"how is the dog", nil, nil},
	}
	for _, tt := range tests {
		w := When(tt.query, ref)
		held := func(d time.Time) bool {
			for _, x := range w {
				if x.Contains(d) {
					return true
				}
			}
			return false
		}
		for _, d := range tt.in {
			if !held(d) {
				t.Errorf("%q: %v not in %v", tt.query, d.Format(time.DateOnly), w)
			}
		}
		for _, d := range tt.out {
			if held(d) {
				t.Errorf("%q: %v in %v", tt.query, d.Format(time.DateOnly), w)
			}
		}
		if tt.in == nil && len(w) > 0 {
			t.Errorf("%q: windows %v, want none", tt.query, w)
		}
	}
	if w := When("in May", time.Time{}); w != nil {
		t.Errorf("no reference date: %v", w)
	}
}
