package quantity

import (
	"reflect"
	"testing"
)

// TestFPALength: a length, like a size or a time, measures many things
// (travel, a lead, a depth, a tolerance) and counts only with what it
// measures. As a count of its own, "Under 0.02 mm after three hours"
// retired "Machine is 1000 x 600 mm of travel", and "0.5 mm deep" the
// probe macro that "backs off 2 mm".
func TestFPALength(t *testing.T) {
	tests := []struct {
		s    string
		want []Quantity
	}{
		{"Machine is 1000 x 600 mm of travel with about 110 mm of Z.", []Quantity{{Unit: "mm/travel", Value: "600", Weak: true}}},
		{"Under 0.02 mm after three hours is as good as this machine will measure, so that's settled.", nil},
		{"It does a fast touch at F100, backs off 2 mm and touches again at F25.", nil},
		{"The board is 85 mm wide.", []Quantity{{Unit: "mm/wid", Value: "85", Weak: true}}},
	}
	for _, tt := range tests {
		if got := Of(tt.s); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Of(%q) = %+v, want %+v", tt.s, got, tt.want)
		}
	}
}
