package anchor

import (
	"strings"
	"testing"
)

// A memory file over maxText has its anchors looked for in its first
// part: cut after a line's end, or before a rune's start on a line
// longer than the bound.
func TestFirstPart(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		n          int
		want       string
	}{
		{"short", "see `a.go`\n", 100, "see `a.go`\n"},
		{"lines", "see `a.go`\nsee `b.go`\nsee `c.go`\n", 25, "see `a.go`\nsee `b.go`\n"},
		{"one line", "see `a.go` and `b.go`", 12, "see `a.go` a"},
		{"inside a rune", "café `é.go`", 4, "caf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(firstPart([]byte(tc.data), tc.n)); got != tc.want {
				t.Errorf("firstPart(%q, %d) = %q, want %q", tc.data, tc.n, got, tc.want)
			}
		})
	}
	big := strings.Repeat("a line of a pasted log\n", maxText/10)
	if got := firstPart([]byte(big), maxText); len(got) > maxText || !strings.HasSuffix(string(got), "\n") {
		t.Errorf("%d bytes, ending %q", len(got), got[len(got)-5:])
	}
}
