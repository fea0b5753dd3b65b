package prose

import "testing"

func TestIsFullClause(t *testing.T) {
	for s, want := range map[string]bool{
		"Backtests now draw the universe from the table `universe_pit`.": true,
		"The workers always pull three messages at once.":                true,
		"For now only the tests.":                                        false,
		"Right now the cache.":                                           false,
		"in both config/queued.yaml":                                     false,
		"Run the tests with -race.":                                      true,
	} {
		if got := IsFullClause(s); got != want {
			t.Errorf("IsFullClause(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestVerbAfterSubject: a subject that goes on to its verb is a
// statement; one that goes on to a phrase, a comma or nothing names a
// thing.
func TestVerbAfterSubject(t *testing.T) {
	for s, want := range map[string]bool{
		"the API returns 404 for unknown slots":        true,
		"the tests pass on all three platforms":        true,
		"the old parser handles both":                  true,
		"the X-Ray patching in both handlers":          false,
		"a build to see how it behaves":                false,
		"the flag rename with a deprecated alias":      false,
		"the Stripe webhooks in handler.go":            false,
		"the controller, stripped down":                false,
		"how the model session is created":             false,
		"the C side: GUCs, shmem request and the hook": false,
	} {
		if got := VerbAfterSubject(s); got != want {
			t.Errorf("VerbAfterSubject(%q) = %v, want %v", s, got, want)
		}
	}
}
