package purgelist

import (
	"slices"
	"testing"
)

func TestParseHas(t *testing.T) {
	list := Parse([]byte("# purged by cairn purge\nsessions/abc\n\n../etc\ncore/facts/x.md\n"))
	if want := []string{"sessions/abc", "core/facts/x.md"}; !slices.Equal(list, want) {
		t.Fatalf("Parse = %q, want %q", list, want)
	}
	for p, want := range map[string]bool{"sessions/abc/summary.md": true, "sessions/abc": true, "sessions/abcd": false, "core/facts/x.md": true} {
		if Has(list, p) != want {
			t.Errorf("Has(%q) = %v", p, !want)
		}
	}
}
