package match

import (
	"math/bits"
	"unicode"
)

// A Sketch is the set of a text's words of three or more letters or
// digits, lower-cased, each hashed to one of its bits: enough to tell a
// repeated passage from another one at a few operations a pair, where
// comparing word lists took a search's time. A chunk's hundred or two
// words set about a tenth of the bits, so collisions add a few points of
// likeness at most.
type Sketch struct {
	bits [32]uint64
	n    int // bits set
}

// Containment is the share of b's words that a holds: how much of b a
// reader of a has seen already.
func (a *Sketch) Containment(b *Sketch) float64 {
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

// NewSketch makes text's sketch.
func NewSketch(text string) *Sketch {
	const (
		offset = 14695981039346656037 // FNV-1a's
		prime  = 1099511628211
	)
	sk := &Sketch{}
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
