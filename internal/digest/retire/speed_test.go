package retire

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The retirer's cheaper paths give the same answers as the plain ones:
// a sentence's candidates, however many, sorted and unique; sameTopic
// through the keys of x counted once.
func TestRetirerSpeedPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("port api worker billing queue cache redis postgres deploy staging build test flaky timeout retry batch index search token budget pack core session title body listens runs keeps uses")
	sentence := func() string {
		n := 3 + rng.IntN(6)
		var ws []string
		for range n {
			ws = append(ws, words[rng.IntN(len(words))])
		}
		if rng.IntN(3) == 0 {
			ws = append(ws, fmt.Sprint(1000+rng.IntN(9000)))
		}
		return strings.Join(ws, " ") + "."
	}
	var stmts []Statement
	for i := range 600 {
		stmts = append(stmts, Statement{Text: sentence(), Rank: i % 12})
	}
	r := New(stmts, nil)
	for range 300 {
		xk := TopicKeys(sentence())
		got := slices.Clone(r.candidates(xk))
		var want []int
		for i, st := range r.stmts {
			in := slices.Contains(r.always, i)
			for k := range xk {
				in = in || st.keys[k]
			}
			if in {
				want = append(want, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("candidates(%v) = %v, want %v", xk, got, want)
		}
		keys := r.topicKeysOf(xk)
		for _, st := range r.stmts {
			if a, b := r.sameTopic(xk, st.keys), sameTopicOf(keys, st.keys); a != b {
				t.Fatalf("sameTopic(%v, %v) = %v, sameTopicOf = %v", xk, st.keys, a, b)
			}
		}
	}
}

func TestSpacedWords(t *testing.T) {
	plain := func(s string) string {
		return " " + strings.Join(strings.FieldsFunc(strings.ToLower(s), func(c rune) bool {
			return !unicode.IsLetter(c) && !unicode.IsDigit(c)
		}), " ") + " "
	}
	for _, s := range []string{"", " ", "a", "A", "..", "The API listens on :4100 now.", "  two  spaces ", "x-y_z/1.2.3", "Café au lait", "ÉTÉ 2024", "tab\tand\nline", "end."} {
		if got, want := spacedWords(s), plain(s); got != want {
			t.Errorf("spacedWords(%q) = %q, want %q", s, got, want)
		}
	}
}
