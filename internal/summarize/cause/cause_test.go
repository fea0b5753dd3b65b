package cause

import "testing"

func TestIs(t *testing.T) {
	for s, want := range map[string]bool{
		"The converter only looked at the digit nibble, so every credit note came through as a positive amount.": true,
		"The seventeen mismatches on the first run were a converter bug, not a Java one.":                        true,
		"The script only reads the first line.":                                                                  false,
		"It was a good idea, not a bad one.":                                                                     false,
	} {
		if got := Is(s); got != want {
			t.Errorf("Is(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestNamed(t *testing.T) {
	for s, want := range map[string]string{
		"That's coordinated omission.":         "Coordinated omission",
		"That's an MTU problem.":               "MTU problem",
		"This is a classic race condition.":    "Race condition",
		"So it's the N+1 again.":               "N+1",
		"That's not a problem.":                "",
		"That's a separate bug: uploads fail.": "",
		"That's the plan.":                     "",
	} {
		got := ""
		if Named(s) {
			got = Name(s)
		}
		if got != want {
			t.Errorf("Name(%q) = %q, want %q", s, got, want)
		}
	}
}
