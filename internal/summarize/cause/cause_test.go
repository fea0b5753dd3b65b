package cause

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/prose"
)

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
		"It's a timezone issue.":               "Timezone issue",
		"That's not a problem.":                "",
		"That's a separate bug: uploads fail.": "",
		"That's the plan.":                     "",
		"That's a problem.":                    "",
		"That's the bug.":                      "",
		"That's a hard problem.":               "",
		"It's a solved problem.":               "",
		"That's the whole problem.":            "",
		"That's an interesting bug.":           "",
	} {
		if got := Named(s); got != want {
			t.Errorf("Named(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestTold(t *testing.T) {
	none := func(string) bool { return false }
	for _, tc := range []struct{ text, want string }{
		{"Both are right. When the API slowed down, the VUs slowed down with it. The slow requests were never sent, so k6's p95 stayed near 420 ms. That's coordinated omission. The fix is an arrival-rate executor.",
			"Coordinated omission: When the API slowed down, the VUs slowed down with it. The slow requests were never sent, so k6's p95 stayed near 420 ms."},
		{"That's an MTU problem. PPPoE takes 8 bytes, so pppoe-wan has an MTU of 1492.",
			"That's an MTU problem. PPPoE takes 8 bytes, so pppoe-wan has an MTU of 1492."},
		// Nothing before it explains, and nothing after it.
		{"I added the retry with jitter in client.go. Tests pass. That's the thundering herd.", ""},
		// A supposition is no cause.
		{"If two workers claim the same job, both send the email. That's a race condition.", ""},
		// The remedy before it is not part of what it names.
		{"I bumped the pool to 20 and redeployed. That's pool exhaustion.", ""},
	} {
		ss := prose.Sentences(tc.text)
		got := ""
		for i := range ss {
			if text, _ := Told(ss, i, -1, none); text != "" {
				got = text
				break
			}
		}
		if got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.text, got, tc.want)
		}
	}
}
