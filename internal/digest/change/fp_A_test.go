package change

import (
	"reflect"
	"testing"
)

// TestFPAOf holds sentences the context pack read as changes they are
// not, or whose replaced value it misread.
func TestFPAOf(t *testing.T) {
	tests := []struct {
		s   string
		old []map[string]bool // nil: no change at all
	}{
		// An alternative weighed and turned down keeps things as they
		// were: it retired "The Stock tab is one row per SKU, about 310
		// of them, shops in columns C to F".
		{"I thought about keeping the ledger in PropertiesService instead, but the property store is capped at 500 KB per script and 9 KB per value, and a year of refs would outgrow it, so the ledger is a sheet.", nil},
		{"We considered a Redis queue instead, but the job table is enough for 40 jobs a day.", nil},
		// A possessive names whose value was replaced, not the value:
		// "the machine's" retired "Machine is 1000 x 600 mm of travel".
		{"That's the personal licence: Fusion's personal tier posts every rapid as a G1 at a capped feed instead of G0, so all the repositioning between pockets runs at 1000 mm/min instead of the machine's 6000.",
			[]map[string]bool{{"g0": true}, {"6000": true}}},
	}
	for _, tt := range tests {
		c := Of(tt.s)
		if tt.old == nil {
			if c != nil {
				t.Errorf("Of(%q) = %+v, want no change", tt.s, c)
			}
			continue
		}
		if c == nil || !reflect.DeepEqual(c.Old, tt.old) {
			t.Errorf("Of(%q) = %+v, want Old %v", tt.s, c, tt.old)
		}
	}
}
