package offer

import "testing"

// TestDesignTermMayBe: a term of a design states what holds; what could,
// can or would be in its main clause is an option or a risk (blind AL),
// and "CAN bus" or "since May 2024" are no modals.
func TestDesignTermMayBe(t *testing.T) {
	for s, want := range map[string]bool{
		"Dead letters are kept 30 days, so ops can replay them.":             true,
		"The CAN bus runs at 500 kbit/s on both nodes.":                      true,
		"Tokens issued since May 2024 carry `kid` v2.":                       true,
		"RAIDZ2 would give the same 16 TB with any-two-disk tolerance.":      false,
		"A bad `zfs destroy -r` replicated before you notice can take both.": false,
	} {
		if got := designTerm(s); got != want {
			t.Errorf("designTerm(%q) = %v, want %v", s, got, want)
		}
	}
}
