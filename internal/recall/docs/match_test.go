package docs

import (
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// lineMatches finds what the patterns with (?m) find, on texts made of
// pieces that start, break and nearly make matches.
func TestLineMatches(t *testing.T) {
	pieces := []string{"\n", "\n\n", "## Session ", "## Session 7", "12", "a", " · 2024", "**", "Maya", ":**", "**:", "** \n:", "## Prompt ", "3", "*", "x ", "## Sessions", " \t"}
	cases := []struct {
		lit string
		re  *lazyre.Regexp
	}{
		{"## Session ", sessionHeading},
		{"**", speakerLabel},
		{"## Prompt ", promptHeading},
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for range r.Intn(12) {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		s := b.String()
		for _, c := range cases {
			n := r.Intn(3) - 1
			want := regexp.MustCompile("(?m)"+c.re.String()).FindAllStringSubmatch(s, n)
			if got := lineMatches(s, c.lit, c.re, n); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q in %q, n=%d: got %q, want %q", c.re, s, n, got, want)
			}
		}
	}
}
