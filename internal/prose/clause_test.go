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

func TestReasonAt(t *testing.T) {
	for s, want := range map[string]bool{
		"We keep it because the proxy needs it.":                                      true,
		"It stays on 7070 since the proxy took 7171.":                                 true,
		"We skipped the migration since today is the freeze.":                         true,
		"The backup finished on Saturday: 412 GB, incrementals since then are small.": false,
	} {
		if got := ReasonAt(s) != nil; got != want {
			t.Errorf("ReasonAt(%q) = %v, want %v", s, got, want)
		}
	}
}
