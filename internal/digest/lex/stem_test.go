package lex

import "testing"

// TestStemFixed: a stem stems to itself, so a word's key is one key
// whether it is taken from the word or from its stem.
func TestStemFixed(t *testing.T) {
	for _, w := range []string{"blindness", "settings", "setting", "addresses", "address", "processes", "retries", "warnings", "capped", "planning", "class"} {
		s := Stem(w)
		if Stem(s) != s {
			t.Errorf("Stem(Stem(%q)) = %q, Stem = %q", w, Stem(s), s)
		}
		if Key(s) != Key(w) {
			t.Errorf("Key(Stem(%q)) = %q, Key = %q", w, Key(s), Key(w))
		}
	}
	for _, tc := range [][2]string{{"settings", "setting"}, {"addresses", "address"}, {"retries", "retry"}} {
		if Key(tc[0]) != Key(tc[1]) {
			t.Errorf("Key(%q) = %q, Key(%q) = %q", tc[0], Key(tc[0]), tc[1], Key(tc[1]))
		}
	}
}
