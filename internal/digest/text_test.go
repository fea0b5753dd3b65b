package digest

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FirstPart cuts a long body at its last paragraph, line, sentence or
// word boundary within the bound, never inside a UTF-8 sequence, and
// leaves a short one whole.
func TestFirstPart(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    string
		n    int
		want string
		cut  bool
	}{
		{"short", "One sentence. Two.", 100, "One sentence. Two.", false},
		{"exactly n", "abcd", 4, "abcd", false},
		{"paragraph", "First paragraph here.\n\nSecond one, longer than the rest.", 40, "First paragraph here.", true},
		{"line", "2025-01-01 INFO one\n2025-01-02 INFO two\n2025-01-03 INFO three", 45, "2025-01-01 INFO one\n2025-01-02 INFO two", true},
		{"sentence", "The queue retries jobs. It waits a minute between tries. Then it gives up.", 60, "The queue retries jobs. It waits a minute between tries.", true},
		{"word", "a long run of words with no end mark at all in it", 20, "a long run of words", true},
		{"no boundary", strings.Repeat("x", 50), 20, strings.Repeat("x", 20), true},
		{"inside a rune", "Café au lait, encore. Déjà vu: é" + "é", 32, "Café au lait, encore.", true},
		{"rune at the cut, no boundary", strings.Repeat("é", 10), 5, "éé", true},
		{"boundary in the first half only", "Short. " + strings.Repeat("word", 30), 60, "Short. " + strings.Repeat("word", 30)[:53], true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, cut := FirstPart(tc.s, tc.n)
			if got != tc.want || cut != tc.cut {
				t.Errorf("FirstPart(%q, %d) = %q, %v; want %q, %v", tc.s, tc.n, got, cut, tc.want, tc.cut)
			}
			if len(got) > tc.n && cut {
				t.Errorf("%d bytes, over %d", len(got), tc.n)
			}
			if !utf8.ValidString(got) {
				t.Errorf("%q is not valid UTF-8", got)
			}
		})
	}
}
