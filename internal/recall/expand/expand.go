package expand

import (
	"math"
	"sort"
)

// A Doc is one feedback document: its analysed terms, in order, and its
// score in the first pass (any positive scale; only ratios count).
type Doc struct {
	Terms []string
	Score float64
}

// A Term is an expansion term and its weight, in the units of the
// original query's terms (each of which weighs 1).
type Term struct {
	Text   string
	Weight float64
}

// Options tune RM3.
type Options struct {
	// Terms is the most expansion terms returned.
	Terms int
	// Share is the sum of the expansion terms' weights relative to the
	// original query's (its number of terms): 0.3 adds words worth 30%
	// of what the user typed.
	Share float64
	// MinDocs is how many feedback documents must hold a term: a word
	// of one document is that document's, not the topic's.
	MinDocs int
}

// DefaultOptions are what cairn's search uses: measured on bench/convo
// (docs/search.md).
var DefaultOptions = Options{Terms: 10, Share: 0.1, MinDocs: 2}

// RM3 returns terms to add to query (its analysed terms), best first,
// from the feedback docs (the first pass's best hits). df tells in how
// many of the index's n documents a term occurs; a term in more than a
// tenth of them says nothing about any topic and is left out. Terms of
// the query itself are never returned.
func RM3(query []string, docs []Doc, df func(term string) int, n int, opts Options) []Term {
	if len(query) == 0 || len(docs) == 0 || opts.Terms <= 0 || opts.Share <= 0 || n <= 0 {
		return nil
	}
	inQuery := make(map[string]bool, len(query))
	for _, t := range query {
		inQuery[t] = true
	}
	var total float64
	for _, d := range docs {
		total += max(d.Score, 0)
	}
	if total <= 0 {
		return nil
	}
	// P(w|R) = Σ_d P(w|d)·P(d|q), P(d|q) the document's share of the
	// scores; how many documents hold each term.
	p := map[string]float64{}
	held := map[string]int{}
	for _, d := range docs {
		if d.Score <= 0 || len(d.Terms) == 0 {
			continue
		}
		tf := map[string]int{}
		for _, t := range d.Terms {
			if !inQuery[t] && len(t) > 2 {
				tf[t]++
			}
		}
		pd := d.Score / total
		for t, c := range tf {
			p[t] += pd * float64(c) / float64(len(d.Terms))
			held[t]++
		}
	}
	type cand struct {
		t string
		w float64
	}
	var cands []cand
	for t, v := range p {
		if held[t] < opts.MinDocs {
			continue
		}
		cands = append(cands, cand{t, v})
	}
	// The relevance model's weight first (cheap), then the document
	// frequency of the best few only (each costs a look-up in the index).
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].w != cands[j].w {
			return cands[i].w > cands[j].w
		}
		return cands[i].t < cands[j].t
	})
	cands = cands[:min(len(cands), 4*opts.Terms)]
	out := cands[:0]
	for _, c := range cands {
		f := df(c.t)
		if f <= 0 || f > max(n/10, 1) {
			continue
		}
		// Rare words weigh more: P(w|R) over the word's share of the
		// index, damped by the logarithm (idf).
		c.w *= math.Log(float64(n+1) / float64(f))
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].w != out[j].w {
			return out[i].w > out[j].w
		}
		return out[i].t < out[j].t
	})
	out = out[:min(len(out), opts.Terms)]
	var sum float64
	for _, c := range out {
		sum += c.w
	}
	if sum <= 0 {
		return nil
	}
	scale := opts.Share * float64(len(query)) / sum
	terms := make([]Term, len(out))
	for i, c := range out {
		terms[i] = Term{Text: c.t, Weight: c.w * scale}
	}
	return terms
}
