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
