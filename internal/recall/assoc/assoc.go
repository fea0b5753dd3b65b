package assoc

import (
	"context"
	"math"
	"slices"
	"sort"
	"unicode"

	"github.com/cairn-mem/cairn/indexer"
)

// Limits of a Table's words.
const (
	// MinShared is the fewest chunks a word must be in, and share with a
	// query word to be related to it: fewer is chance.
	MinShared = 3
	// MaxShare is the largest share of the chunks a word may be in: a
	// word in more says little of any topic, as a query word or as a
	// related one.
	MaxShare = 0.1
	// MinQueryShare is the least share of the chunks a query word must
	// be in to bring related words: a rarer word finds its chunks
	// already (on bench/convo, hybrid within 1,000 and 2,000 tokens
	// 45.3 / 58.7% with every word bringing some, 46.2 / 59.2% at 3%,
	// 45.2 / 58.6% at 5%).
	MinQueryShare = 0.03
	// MaxRelatedShare is the largest share of the chunks a related word
	// may be in: half a query word's, so that it is more specific than
	// the words it joins (on bench/convo, 0.1 brought words such as
	// "good" and "night" and lost more on inference questions).
	MaxRelatedShare = 0.05
	// maxScan is the most chunks of a query word Related reads: at
	// 100,000 chunks, reading all of a word's took 20 ms.
	maxScan = 1024
	// MaxTerms caps the vocabulary, the words in most chunks kept.
	MaxTerms = 50000
)

// A Table is which chunks of an index hold each of its words.
type Table struct {
	chunks int        // in the index
	terms  []string   // sorted
	post   [][]uint32 // per term, the chunks holding it, ascending
	id     map[string]int32
	fwd    [][]int32 // per chunk, its terms that may be related words
}

// Build reads a Table from the index's dictionary and postings.
func Build(ctx context.Context, ix *indexer.Index) (*Table, error) {
	most := int(MaxShare * float64(ix.Count()))
	var (
		terms []string
		post  [][]uint32
	)
	n, err := ix.BodyTerms(ctx, func(term string, df int) bool {
		return df >= MinShared && df <= most && word(term)
	}, func(term string, chunks []uint32) {
		if len(chunks) < MinShared || len(chunks) > most {
			return // Bleve's count held deleted chunks
		}
		p := slices.Clone(chunks)
		slices.Sort(p)
		terms = append(terms, term)
		post = append(post, p)
	})
	if err != nil {
		return nil, err
	}
	return newTable(n, terms, post), nil
}

// word says whether an index term may be in a Table: letters only (a
// date's or session's number is in every chunk of its session), two
// runes at least.
func word(t string) bool {
	if len(t) < 2 {
		return false
	}
	for _, r := range t {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// newTable makes a Table of terms (sorted, unique) and their postings,
// keeping the MaxTerms in most chunks.
func newTable(chunks int, terms []string, post [][]uint32) *Table {
	if len(terms) > MaxTerms {
		idx := make([]int, len(terms))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return len(post[idx[a]]) > len(post[idx[b]]) })
		idx = idx[:MaxTerms]
		slices.Sort(idx)
		t2, p2 := make([]string, len(idx)), make([][]uint32, len(idx))
		for i, k := range idx {
			t2[i], p2[i] = terms[k], post[k]
		}
		terms, post = t2, p2
	}
	t := &Table{chunks: chunks, terms: terms, post: post, id: make(map[string]int32, len(terms))}
	most := 0
	for i, term := range terms {
		t.id[term] = int32(i)
		for _, c := range post[i] {
			most = max(most, int(c)+1)
		}
	}
	// A chunk's words are needed only as related words: those in at
	// most MaxRelatedShare of the chunks.
	t.fwd = make([][]int32, most)
	for i, p := range post {
		if float64(len(p)) > MaxRelatedShare*float64(chunks) {
			continue
		}
		for _, c := range p {
			t.fwd[c] = append(t.fwd[c], int32(i))
		}
	}
	return t
}

// Related returns up to n words related to the query's terms (as the
// index analyses them), best first, the best weighing weight and the
// others in proportion to their strength. Query terms that are not in
// the table (too rare, too common) or in under MinQueryShare of the
// chunks bring none.
func (t *Table) Related(query []string, n int, weight float64) []indexer.Term {
	if t == nil || n <= 0 || weight <= 0 {
		return nil
	}
	N := float64(t.chunks)
	var qs []int32
	for _, w := range query {
		if i, ok := t.id[w]; ok && !slices.Contains(qs, i) && float64(len(t.post[i])) >= MinQueryShare*N {
			qs = append(qs, i)
		}
	}
	if len(qs) == 0 {
		return nil
	}
	// Counted in slices, not maps: a common query word's chunks can be
	// thousands, each with tens of words.
	shared := make([]int32, len(t.terms))
	strength := make([]float64, len(t.terms))
	var seen, ws []int32
	for _, q := range qs {
		// A common word's chunks are sampled, evenly: the counts are
		// estimates then, scaled up to all its chunks.
		p := t.post[q]
		step := (len(p) + maxScan - 1) / maxScan
		scanned := 0
		for i := 0; i < len(p); i += step {
			scanned++
			for _, w := range t.fwd[p[i]] {
				if shared[w] == 0 {
					seen = append(seen, w)
				}
				shared[w]++
			}
		}
		dq := float64(len(p))
		scale := dq / float64(scanned)
		for _, w := range seen {
			k := float64(shared[w]) * scale
			shared[w] = 0
			if k < MinShared || slices.Contains(qs, w) {
				continue
			}
			pmi := math.Log(k * N / (dq * float64(len(t.post[w]))))
			if pmi > 0 {
				if strength[w] == 0 {
					ws = append(ws, w)
				}
				strength[w] += pmi * k
			}
		}
		seen = seen[:0]
	}
	// The best n, kept in order as they come: the candidates can be
	// thousands, n is a few.
	better := func(a, b int32) bool {
		if strength[a] != strength[b] {
			return strength[a] > strength[b]
		}
		return t.terms[a] < t.terms[b]
	}
	best := make([]int32, 0, n+1)
	for _, w := range ws {
		if len(best) == n && !better(w, best[n-1]) {
			continue
		}
		i := sort.Search(len(best), func(i int) bool { return better(w, best[i]) })
		best = slices.Insert(best, i, w)
		best = best[:min(len(best), n)]
	}
	ws = best
	out := make([]indexer.Term, len(ws))
	for i, w := range ws {
		out[i] = indexer.Term{Text: t.terms[w], Weight: weight * strength[w] / strength[ws[0]]}
	}
	return out
}
