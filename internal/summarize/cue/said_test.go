package cue

import "testing"

func TestSaid(t *testing.T) {
	for _, tc := range []struct {
		s              string
		plan, openSaid bool
	}{
		{"0.4.0 still has to be published.", true, true},
		{"Tomorrow I'll add the retry budget.", true, true},
		{"The `remaining` field counts what is left of the quota.", false, false},
		{"The form stays disabled while the action is pending.", false, false},
		{"The cache is warm and the tests pass.", false, false},
		{"The return now triggers at 30% because a cold pack needs more margin to get home.", false, false},
		{"The parser needs more tests.", false, true},
		// A state named in a condition is no work left; the same
		// words said of the project are.
		{"I made click_rate return 0.0 when a link has no views yet, and both tests pass now.", false, false},
		{"Orders with no invoice yet are skipped by the export.", false, false},
		{"The service has no tests yet.", true, true},
		{"retryAll() re-sends everything there every 30 seconds, keeping only what still fails.", false, false},
		{"So the relay aborted every delivery after 5 s and sent it again 30 s later.", false, false},
	} {
		if got := IsPlan(tc.s); got != tc.plan {
			t.Errorf("IsPlan(%q) = %v, want %v", tc.s, got, tc.plan)
		}
		if got := OpenSaid(tc.s); got != tc.openSaid {
			t.Errorf("OpenSaid(%q) = %v, want %v", tc.s, got, tc.openSaid)
		}
	}
}

// TestSymptomForever: a loop or a wait without end tells what went
// wrong, as a crash or a hang does; "forever" said of what is kept does
// not.
func TestSymptomForever(t *testing.T) {
	for s, want := range map[string]bool{
		"A packet with `C0 0C` at offset 12 makes it recurse forever, which in the test shows as the 10 s timeout.": true,
		"The worker waits forever on a closed channel.":                                                             true,
		"The parser hit an infinite loop on the empty header.":                                                      true,
		"Audit entries are kept forever.":                                                                           false,
	} {
		if got := Symptom.MatchString(s); got != want {
			t.Errorf("Symptom(%q) = %v, want %v", s, got, want)
		}
	}
}
