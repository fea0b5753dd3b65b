package open

import "testing"

// TestTomorrowsThing: tomorrow's thing named as where something is not
// wanted is no work planned for tomorrow; a preference that said so was
// dropped as a to-do once the next segment made ZED mail at once
// (zfs-backup-nas, found by the pack probe with the filter off).
func TestTomorrowsThing(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"If the pool degrades I want to know within minutes, not in tomorrow's digest.", false},
		{"Tomorrow's job: move the backups to the new box.", true},
		{"leave the crash for tomorrow", true},
	} {
		if got := IsTodo(tc.s); got != tc.want {
			t.Errorf("IsTodo(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}
