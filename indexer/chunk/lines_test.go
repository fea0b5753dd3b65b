package chunk

import (
	"math/rand"
	"strings"
	"testing"
)

// The first-byte guards of the line patterns never change what the
// patterns match.
func TestLineGuards(t *testing.T) {
	pieces := []string{" ", "  ", "   ", "    ", "#", "##", "#######", "```", "~~~", "``", "**", "*", "User", "Assistant", "AI", "Claude", "Tool", "System", "Human", "Agent", "Maya", ":", ": ", "\t", " (x)", "x", "é", "Ü"}
	r := rand.New(rand.NewSource(1))
	for range 100000 {
		var b strings.Builder
		for range r.Intn(6) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		l := b.String()
		for _, c := range []struct {
			name      string
			got, want bool
		}{
			{"fence", isFence(l), fenceRE.MatchString(l)},
			{"heading", isHeading(l), headingRE.MatchString(l)},
			{"subheading", isSubheading(l), subheadingRE.MatchString(l)},
			{"speaker", isSpeaker(l), speakerRE.MatchString(l)},
			{"label", isLabel(l), labelRE.MatchString(l)},
			{"turn", isTurn(defaultTurn, l), defaultTurn.MatchString(l)},
		} {
			if c.got != c.want {
				t.Fatalf("%s(%q) = %v, the pattern says %v", c.name, l, c.got, c.want)
			}
		}
	}
}
