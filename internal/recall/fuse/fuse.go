package fuse

import (
	"sort"

	"github.com/cairn-mem/cairn/indexer"
)

// Relevance scores how well each hit matches, in 0..1, the best hit 1.
// Rank fusion orders hits well but says little about how much better one
// is than the next (with k=60, the tenth has 87% of the first's fused
// score), which would let importance and recency outweigh a clearly
// better match. So each ranking contributes its score relative to the
// best in it (BM25 over the top BM25, cosine over the top cosine), the
// rankings averaged over those the search used, the vector ranking's
// weighed by vw (the keyword ranking's is 1) as in the fusion, and then
// scaled so that the best hit is 1.
//
// With bagOfWords (the built-in embedder, whose vectors are hashed words
// and trigrams) a hybrid search scales the cosine of a chunk shorter than
// the candidates' median by its share of that length: such a cosine
// rises as a text gets shorter (one shared word in 11 tokens outweighs
// three in 90), a bias BM25 corrects by its length normalisation and the
// cosine does not, so short items rode the vector side past the passages
// that held the answer (docs/search.md, "Fusion").
func Relevance(hits []indexer.Hit, vw float64, bagOfWords bool) []float64 {
	var topKw, topVec float64
	for _, h := range hits {
		if h.KeywordRank > 0 {
			topKw = max(topKw, h.KeywordScore)
		}
		if h.VectorRank > 0 {
			topVec = max(topVec, h.VectorScore)
		}
	}
	if vw <= 0 {
		vw = 1
	}
	var pivot float64
	if bagOfWords && topKw > 0 && topVec > 0 {
		pivot = medianTokens(hits)
	}
	lists := 0.0
	if topKw > 0 {
		lists++
	}
	if topVec > 0 {
		lists += vw
	}
	out := make([]float64, len(hits))
	best := 0.0
	for i, h := range hits {
		var r float64
		if h.KeywordRank > 0 && topKw > 0 {
			r += h.KeywordScore / topKw
		}
		if h.VectorRank > 0 && topVec > 0 {
			v := max(h.VectorScore, 0) / topVec
			if t := float64(h.Tokens); t < pivot {
				v *= t / pivot
			}
			r += vw * v
		}
		if lists > 0 {
			r /= lists
		}
		out[i] = r
		best = max(best, r)
	}
	if best > 0 {
		for i := range out {
			out[i] /= best
		}
	}
	return out
}

// medianTokens is the median of the hits' estimated tokens.
func medianTokens(hits []indexer.Hit) float64 {
	if len(hits) == 0 {
		return 0
	}
	n := make([]int, len(hits))
	for i, h := range hits {
		n[i] = h.Tokens
	}
	sort.Ints(n)
	return float64(n[len(n)/2])
}
