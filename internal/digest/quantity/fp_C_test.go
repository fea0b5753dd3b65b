package quantity

import (
	"reflect"
	"testing"
)

// TestFPCElectrical: a current, a voltage or a power measures many
// things (a buck's load, a radio's burst, a rail) and counts only with
// what it measures. As a count of its own, "the module draws 342 mA
// bursts" retired "0.21 W in the buck at 500 mA gives a junction around
// 78 °C".
func TestFPCElectrical(t *testing.T) {
	tests := []struct {
		s    string
		want []Quantity
	}{
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
