package recall

import "github.com/cairn-mem/cairn/internal/recall/match"

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
	words := make([]*match.Sketch, len(hits))
	for i := range hits {
		words[i] = match.NewSketch(hits[i].Title + "\n" + hits[i].Text)
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
func likeness(a, b *SearchHit, wa, wb *match.Sketch) float64 {
	s := wa.Containment(wb)
	if a.Session != "" && a.Session == b.Session && a.Layer != "core" && b.Layer != "core" {
		s = max(s, sameSession)
	}
	return s
}
