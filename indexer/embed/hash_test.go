package embed

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
)

// TestFeatTable checks the embedder's feature counts against a map,
// across growth and reuse, with colliding low bits and the hash 0.
func TestFeatTable(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	var ft Scratch
	for round, n := range []int{0, 1, 10, 600, 5000, 3} {
		ft.reset()
		want := map[uint64]float64{}
		for i := 0; i < n; i++ {
			h := uint64(r.Intn(n/2+1)) << (r.Intn(3) * 20) // repeats, same low bits
			if h == 0 {
				h = 1 // as add counts it
			}
			w := r.Float64()
			ft.add(h, w)
			want[h] += w
		}
		got := map[uint64]float64{}
		for _, i := range ft.used {
			if _, dup := got[ft.keys[i]]; dup {
				t.Fatalf("round %d: %x counted twice", round, ft.keys[i])
			}
			got[ft.keys[i]] = ft.vals[i]
		}
		if len(got) != len(want) {
			t.Fatalf("round %d: %d features, want %d", round, len(got), len(want))
		}
		for h, w := range want {
			if math.Abs(got[h]-w) > 1e-9 {
				t.Errorf("round %d: %x counts %v, want %v", round, h, got[h], w)
			}
		}
	}
}

// refAddText is addText as it was before words' features were kept in
// the Scratch: every feature made afresh for every token.
func (e *Hash) refAddText(st *featState, counts *Scratch, text string, toks analysis.TokenStream, offset int) int {
	ascii := isASCII(text)
	lower := text
	if !ascii {
		lower = strings.ToLower(text)
	}
	last := offset
	var runes []rune
	for _, tok := range toks {
		pos := tok.Position + offset
		last = pos
		counts.add(hashFeature(featWord, tok.Term, nil), 1)
		if c, ok := e.concepts[string(tok.Term)]; ok {
			counts.add(hashFeature(featConcept, []byte(c), nil), 1)
		}
		if pos == st.prevPos+1 || pos == st.prevPos+2 {
			counts.add(hashFeature(featBigram, st.prev, tok.Term), 0.5)
		}
		st.prev, st.prevPos = tok.Term, pos
		if tok.Start >= 0 && tok.Start < tok.End && tok.End <= len(lower) && len(lower) == len(text) {
			runes = append(runes[:0], '^')
			for _, r := range lower[tok.Start:tok.End] {
				if ascii && 'A' <= r && r <= 'Z' {
					r += 'a' - 'A'
				}
				runes = append(runes, r)
			}
			runes = append(runes, '$')
			if n := len(runes) - 2; n > 0 {
				w := 0.6 / math.Sqrt(float64(n))
				for i := 0; i < n; i++ {
					counts.add(hashRunes(featTrigram, runes[i:i+3]), w)
				}
			}
		}
	}
	return last
}

// TestWordFeatures checks that the words' features kept in a Scratch give
// the vectors made afresh, to the bit: ASCII text, text whose lowering
// keeps lengths and text whose lowering does not (İ, ẞ, the Kelvin sign,
// invalid UTF-8), one Scratch reused over more words than its table holds.
func TestWordFeatures(t *testing.T) {
	e, err := NewHash()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(7))
	pieces := []string{"Database", "db", "REPO", "repos", "Migrations", "migrate", "the", "queue's", "Élan", "ÉCOLE", "naïve", "straße", "İstanbul", "STRAẞE", "\u212Aelvin", "x\xffy", "日本語", "Ωmega", "a_b", "3.14", "o'clock", "·", "—"}
	word := func() string {
		if r.Intn(3) == 0 {
			return pieces[r.Intn(len(pieces))]
		}
		b := make([]byte, 1+r.Intn(9))
		for i := range b {
			b[i] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[r.Intn(52)]
		}
		return string(b)
	}
	var fresh, kept Scratch
	for n := range 3000 {
		words := make([]string, r.Intn(60))
		for i := range words {
			words[i] = word()
		}
		title, body := word()+" "+word(), strings.Join(words, []string{" ", "\n", ", "}[n%3])
		if n%7 == 0 {
			body = strings.ToUpper(body)
		}
		tt, bt := e.analyzer.Analyze([]byte(title)), e.analyzer.Analyze([]byte(body))

		fresh.reset()
		st := featState{prevPos: -10}
		last := e.refAddText(&st, &fresh, title, tt, 0)
		e.refAddText(&st, &fresh, body, bt, last)
		want := fresh.vector()

		got := e.EmbedAnalyzed(title, body, tt, bt, &kept)
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("text %d %q: dimension %d is %v, made afresh %v", n, body, i, got[i], want[i])
			}
		}
	}
	if len(kept.feats) == 0 {
		t.Fatal("no words kept")
	}
}
