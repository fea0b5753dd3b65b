package prose

import "testing"

func TestReasonAt(t *testing.T) {
	for s, want := range map[string]bool{
		"We keep it because the proxy needs it.":                                      true,
		"It stays on 7070 since the proxy took 7171.":                                 true,
		"We skipped the migration since today is the freeze.":                         true,
		"The backup finished on Saturday: 412 GB, incrementals since then are small.": false,
		// A comparison in a condition says when, not why (blind AY's FIT
		// parser had its decision cut at "when it — was smaller").
		"The prototype took the new value and, when it was smaller than the last one, subtracted.": false,
		"We took SQLite, it's simpler.": true,
	} {
		if got := ReasonAt(s) != nil; got != want {
			t.Errorf("ReasonAt(%q) = %v, want %v", s, got, want)
		}
	}
}
