package lex

import "testing"

func TestKey(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"capped", "cap"},
		{"planning", "plan"},
		{"committed", "commit"},
		{"retries", "retry"},
		{"debounces", "debounce"},
		{"installed", "install"},
		{"passed", "pass"},
	} {
		if Key(tc.a) != Key(tc.b) {
			t.Errorf("Key(%q) = %q, Key(%q) = %q: want one key", tc.a, Key(tc.a), tc.b, Key(tc.b))
		}
	}
	if Key("setting") == Key("settle") {
		t.Errorf("Key(setting) = Key(settle) = %q", Key("setting"))
	}
}

// TestPhrasalCompound: a phrasal verb and the noun it compounds into
// share a word (ContentWords with Compounds); a verb and particle that
// make no such noun do not.
func TestPhrasalCompound(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"Twice tonight the whole rig blacked out for half a second.", "Found the blackouts", true},
		{"We rolled back the migration.", "The rollback took four minutes.", true},
		{"The nightly job backs up /srv to the NAS.", "Backups land on the NAS at 02:00.", true},
		{"The request timed out after 30 s.", "Timeouts are 30 s.", true},
		{"Check out the release branch.", "The checkout page is slow.", false},
		{"The rig came back after a second.", "The comeback tour.", false},
	} {
		a, b := ContentWords(tc.a), ContentWords(tc.b)
		for _, c := range Compounds(tc.a) {
			a[c] = true
		}
		for _, c := range Compounds(tc.b) {
			b[c] = true
		}
		shared := false
		for w := range a {
			if b[w] {
				shared = true
			}
		}
		if shared != tc.want {
			t.Errorf("%q and %q share a word: %v, want %v (%v, %v)", tc.a, tc.b, shared, tc.want, a, b)
		}
	}
}
