package open

import "testing"

// TestReview36TomorrowsDeadline: dayAsPlace drops "before/with/from
// tomorrow's …" everywhere, also where tomorrow's thing is the deadline
// of work still to do.
func TestReview36TomorrowsDeadline(t *testing.T) {
	for _, s := range []string{
		"Rotate the certs before tomorrow's deploy.",
		"Ship the fix with tomorrow's release.",
		"Merge the PR before tomorrow's standup.",
	} {
		if !IsTodo(s) {
			t.Errorf("IsTodo(%q) = false, want true (dayAsPlace)", s)
		}
	}
}
