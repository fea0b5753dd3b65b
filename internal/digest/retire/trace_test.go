package retire

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// Counted says which statements countKeys counts: their keys (TopicKeys
// of their text) make df, their number distinct, on memories with
// statements said twice (word for word, in other case, or inside a
// longer one of the same session) and commands' replacements.
func TestCountedIsCountKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	words := strings.Fields("api worker billing queue cache redis postgres deploy staging build flaky retry batch index")
	w := func() string { return words[rng.IntN(len(words))] }
	sentence := func() string {
		switch rng.IntN(5) {
		case 0:
			return fmt.Sprintf("The %s %s listens on port %d.", w(), w(), 3000+rng.IntN(4)*100)
		case 1:
			return fmt.Sprintf("THE %s %s uses Redis now.", strings.ToUpper(w()), w())
		case 2:
			return fmt.Sprintf("`%s_%s: %d` is set.", w(), w(), rng.IntN(9))
		case 3:
			return fmt.Sprintf("Should the %s move? The %s %s stays.", w(), w(), w())
		}
		return fmt.Sprintf("The %s %s uses Redis now.", w(), w())
	}
	for round := range 40 {
		var core []Statement
		for range 20 + rng.IntN(200) {
			core = append(core, Statement{Text: sentence(), Rank: rng.IntN(4)})
		}
		var sums []*digest.Summary
		for range 1 + rng.IntN(4) {
			d := &digest.Summary{}
			for _, p := range []int{digest.Request, digest.Outcome, digest.Decisions} {
				for range rng.IntN(6) {
					x := sentence()
					if rng.IntN(3) == 0 {
						x += " " + sentence() // holds another bullet in a row
					}
					d.Parts[p] = append(d.Parts[p], x)
				}
			}
			if rng.IntN(2) == 0 {
				d.Parts[digest.Commands] = append(d.Parts[digest.Commands], fmt.Sprintf("sed -i 's/%s: %d/%s: %d/' conf", w(), rng.IntN(9), w(), rng.IntN(9)))
			}
			sums = append(sums, d)
		}
		r := New(core, sums)
		src := r.Sources()
		df, distinct := map[string]int{}, 0
		for i, c := range Counted(src) {
			if c {
				distinct++
				for k := range TopicKeys(src[i].Text) {
					df[k]++
				}
			}
		}
		if distinct != r.Distinct() {
			t.Fatalf("round %d: %d counted, countKeys counts %d", round, distinct, r.Distinct())
		}
		if !maps.Equal(df, r.df) {
			t.Fatalf("round %d: df of the counted statements %v, countKeys's %v", round, df, r.df)
		}
		for i := range src {
			if src[i].Keyed != (r.stmts[i].keys != nil) || src[i].Keyed && !maps.Equal(TopicKeys(src[i].Text), r.stmts[i].keys) {
				t.Fatalf("round %d: statement %q: its keys are not TopicKeys of its text", round, src[i].Text)
			}
		}
	}
}
