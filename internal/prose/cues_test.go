package prose

import "testing"

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
