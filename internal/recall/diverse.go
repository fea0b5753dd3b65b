package recall

import (
	"math/bits"
	"unicode"
)

// DefaultDiversity is the λ of Diversify that Search uses: how much a
// hit's own score counts against its likeness to the hits above it.
// Measured on the long-conversation benchmark (bench/convo) and the
// labelled memory set (TestRetrievalQuality); docs/search.md has the
// figures.
const DefaultDiversity = 0.8

// sameSession is how alike two hits of one session's logs count at
// least: the parts of a session (its transcript, prompts, summary) tell
// one story, and a question that needs several sessions gains more from
// the next session than from another view of this one. Core items are
// each their own fact, whatever session they came from.
const sameSession = 0.5

// repeated is the likeness from which a hit counts as a repeat of one
// above it (a session's prompts.md holds the user's turns of its
// transcript): such hits go after all the others, since within a
// budget of tokens they add nothing.
const repeated = 0.9

// Diversify reorders hits, best first, by maximal marginal relevance:
// each place goes to the hit with the best
//
//	λ·score/top − (1−λ)·likeness to the hits already placed
//
// (top the best score of the hits not yet placed)
// where likeness is the share of a hit's words one placed above holds
// (a hit repeated in another file is 1), and at least sameSession
// for two hits of one session's logs; a hit at least repeated like one
// above goes after those that are not. λ = 1 keeps the order; lower values
// spread the first places over more sessions and texts. hits must have
// their Text; the first stays first.
func Diversify(hits []SearchHit, lambda float64) {
	if lambda >= 1 || len(hits) < 3 {
		return
	}
	words := make([]*sketch, len(hits))
	for i := range hits {
		words[i] = newSketch(hits[i].Title + "\n" + hits[i].Text)
	}
	// like[j] is the most hit j is like any hit placed so far.
	like := make([]float64, len(hits))
	for i := 0; i < len(hits)-1; i++ {
		placed := i
		for j := i + 1; j < len(hits); j++ {
			s := likeness(&hits[placed], &hits[j], words[placed], words[j])
			like[j] = max(like[j], s)
		}
		// Scores are taken relative to the best left, not the first
		// hit's: a first hit far ahead of the rest would otherwise make
		// likeness all that orders them.
		top := 0.0
		for j := i + 1; j < len(hits); j++ {
			top = max(top, hits[j].Score)
		}
		if top <= 0 {
			return
		}
		best, bestVal := i+1, -4.0
		for j := i + 1; j < len(hits); j++ {
			v := lambda*hits[j].Score/top - (1-lambda)*like[j]
			if like[j] >= repeated {
				v -= 2 // after every hit that says something new
			}
			if v > bestVal {
				best, bestVal = j, v
			}
		}
		// Keep the three slices in step.
		for j := best; j > i+1; j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
			words[j], words[j-1] = words[j-1], words[j]
			like[j], like[j-1] = like[j-1], like[j]
		}
	}
}

// likeness is how much of hit b hit a, placed above it, already shows,
// 0..1.
func likeness(a, b *SearchHit, wa, wb *sketch) float64 {
	s := wa.containment(wb)
	if a.Session != "" && a.Session == b.Session && a.Layer != "core" && b.Layer != "core" {
		s = max(s, sameSession)
	}
	return s
}

// A sketch is the set of a text's words of three or more letters or
// digits, lower-cased, each hashed to one of its bits: enough to tell a
// repeated passage from another one at a few operations a pair, where
// comparing word lists took a search's time. A chunk's hundred or two
// words set about a tenth of the bits, so collisions add a few points of
// likeness at most.
type sketch struct {
	bits [32]uint64
	n    int // bits set
}

// containment is the share of b's words that a holds: how much of b a
// reader of a has seen already.
func (a *sketch) containment(b *sketch) float64 {
	m := b.n
	if m == 0 {
		return 0
	}
	common := 0
	for i := range a.bits {
		common += bits.OnesCount64(a.bits[i] & b.bits[i])
	}
	return float64(common) / float64(m)
}

// newSketch makes text's sketch.
func newSketch(text string) *sketch {
	const (
		offset = 14695981039346656037 // FNV-1a's
		prime  = 1099511628211
	)
	sk := &sketch{}
	h, n := uint64(offset), 0
	flush := func() {
		if n >= 3 {
			b := h % (64 * uint64(len(sk.bits)))
			sk.bits[b/64] |= 1 << (b % 64)
		}
		h, n = offset, 0
	}
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			h = (h ^ uint64(unicode.ToLower(r))) * prime
			n++
			continue
		}
		flush()
	}
	flush()
	for _, w := range sk.bits {
		sk.n += bits.OnesCount64(w)
	}
	return sk
}
