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
	// MaxTerms caps the vocabulary, the words in most chunks kept.
	MaxTerms = 50000
)

// A Table is which chunks of an index hold each of its words.
type Table struct {
	chunks int        // in the index
	terms  []string   // sorted
	post   [][]uint32 // per term, the chunks holding it, ascending
	id     map[string]int32
	fwd    [][]int32 // per chunk, its terms
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
	t.fwd = make([][]int32, most)
	for i, p := range post {
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
	strength := make(map[int32]float64)
	shared := make(map[int32]int)
	for _, q := range qs {
		clear(shared)
		for _, c := range t.post[q] {
			for _, w := range t.fwd[c] {
				shared[w]++
			}
		}
		dq := float64(len(t.post[q]))
		for w, k := range shared {
			if k < MinShared || slices.Contains(qs, w) {
				continue
			}
			if float64(len(t.post[w])) > MaxRelatedShare*N {
				continue
			}
			pmi := math.Log(float64(k) * N / (dq * float64(len(t.post[w]))))
			if pmi > 0 {
				strength[w] += pmi * float64(k)
			}
		}
	}
	ws := make([]int32, 0, len(strength))
	for w := range strength {
		ws = append(ws, w)
	}
	sort.Slice(ws, func(a, b int) bool {
		if sa, sb := strength[ws[a]], strength[ws[b]]; sa != sb {
			return sa > sb
		}
		return t.terms[ws[a]] < t.terms[ws[b]]
	})
	ws = ws[:min(len(ws), n)]
	out := make([]indexer.Term, len(ws))
	for i, w := range ws {
		out[i] = indexer.Term{Text: t.terms[w], Weight: weight * strength[w] / strength[ws[0]]}
	}
	return out
}
