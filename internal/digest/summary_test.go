package digest

import "testing"

func TestChitChat(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"great, thanks! anything else I should know before I go?", true},
		{"cool, looks good. what's left on the list?", true},
		{"thanks. now make the invoice export stream its rows", false},
		{"morning. rate limiter today?", false},
	} {
		if got := IsChitChat(tc.s); got != tc.want {
			t.Errorf("isChitChat(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
	if !noResponse("No response requested.") || noResponse("No response from the upstream.") {
		t.Error("noResponse")
	}
}
