package digest

import "testing"

func TestChitChat(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"great, thanks! anything else I should know before I go?", true},
		{"cool, looks good. what's left on the list?", true},
		{"thanks. now make the invoice export stream its rows", false},
		{"morning. rate limiter today?", false},
	} {
		if got := IsChitChat(tc.s); got != tc.want {
			t.Errorf("isChitChat(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
	if !noResponse("No response requested.") || noResponse("No response from the upstream.") {
		t.Error("noResponse")
	}
}

// TestParseSegments: each bullet is of the segment it was first said in.
func TestParseSegments(t *testing.T) {
	d := Parse("## Segment 1\n\n**Outcome**\n- Pool is 10.\n- Said twice.\n\n## Segment 2\n\n**Outcome**\n- Pool is 20.\n- Said twice.\n  and continued.\n")
	for b, want := range map[string]int{"Pool is 10.": 0, "Pool is 20.": 1, "Said twice.": 0} {
		if got, ok := d.Seg[b]; !ok || got != want {
			t.Errorf("Seg[%q] = %d, %v; want %d", b, got, ok, want)
		}
	}
}
