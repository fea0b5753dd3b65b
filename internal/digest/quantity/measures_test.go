package quantity

import (
	"reflect"
	"testing"
)

// TestMeasuresCountWithThing: a length, a current, a voltage or a power,
// like a size or a time, measures many things (travel, a lead, a depth,
// a buck's load, a radio's burst) and counts only with what it measures.
// As counts of their own, "Under 0.02 mm after three hours" retired
// "Machine is 1000 x 600 mm of travel", "0.5 mm deep" the probe macro
// that "backs off 2 mm", and "the module draws 342 mA bursts" "0.21 W in
// the buck at 500 mA gives a junction around 78 °C".
func TestMeasuresCountWithThing(t *testing.T) {
	tests := []struct {
		s    string
		want []Quantity
	}{
		{"Machine is 1000 x 600 mm of travel with about 110 mm of Z.", []Quantity{{Unit: "mm/travel", Value: "600", Weak: true}}},
		{"Under 0.02 mm after three hours is as good as this machine will measure, so that's settled.", nil},
		{"It does a fast touch at F100, backs off 2 mm and touches again at F25.", nil},
		{"The board is 85 mm wide.", []Quantity{{Unit: "mm/wid", Value: "85", Weak: true}}},
		{"During Wi-Fi association the module draws 342 mA bursts and 3V3 drops to 2.61 V, inside the C3's brownout window.",
			[]Quantity{{Unit: "ma/burst", Value: "342", Weak: true}}},
		{"The buck delivers 500 mA at most.", nil},
	}
	for _, tt := range tests {
		if got := Of(tt.s); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Of(%q) = %+v, want %+v", tt.s, got, tt.want)
		}
	}
}
