package main

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// bm25 is a plain Okapi BM25 index over a few texts, in memory: the
// baselines' ranking.
type bm25 struct {
	docs  []string
	tf    []map[string]int
	lens  []int
	df    map[string]int
	avgdl float64
}

const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

func newBM25(docs []string) *bm25 {
	x := &bm25{docs: docs, df: map[string]int{}}
	total := 0
	for _, d := range docs {
		tf := map[string]int{}
		toks := terms(d)
		for _, t := range toks {
			if tf[t] == 0 {
				x.df[t]++
			}
			tf[t]++
		}
		x.tf = append(x.tf, tf)
		x.lens = append(x.lens, len(toks))
		total += len(toks)
	}
	if len(docs) > 0 {
		x.avgdl = float64(total) / float64(len(docs))
	}
	return x
}

// search returns the texts of the k best documents, best first; documents
// that share no term with the query are left out.
func (x *bm25) search(query string, k int) []string {
	q := map[string]bool{}
	for _, t := range terms(query) {
		q[t] = true
	}
	type hit struct {
		i     int
		score float64
	}
	var hits []hit
	n := float64(len(x.docs))
	for i, tf := range x.tf {
		s := 0.0
		for t := range q {
			f := float64(tf[t])
			if f == 0 {
				continue
			}
			df := float64(x.df[t])
			idf := math.Log(1 + (n-df+0.5)/(df+0.5))
			s += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(x.lens[i])/x.avgdl))
		}
		if s > 0 {
			hits = append(hits, hit{i, s})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].score > hits[b].score })
	var out []string
	for _, h := range hits[:min(k, len(hits))] {
		out = append(out, x.docs[h.i])
	}
	return out
}

// terms are the runs of letters and digits of s, lower-cased and stemmed.
func terms(s string) []string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range f {
		f[i] = stem(w)
	}
	return f
}

// stem strips a few English suffixes: plurals, -ing, -ed, -ly. Light on
// purpose (the baseline is plain BM25), and the same for every text.
func stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 5 && strings.HasSuffix(w, "ing"):
		return w[:n-3]
	case n > 4 && strings.HasSuffix(w, "ed"):
		return w[:n-2]
	case n > 4 && strings.HasSuffix(w, "ly"):
		return w[:n-2]
	case n > 4 && strings.HasSuffix(w, "es") && strings.ContainsRune("sxz", rune(w[n-3])):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:n-1]
	}
	return w
}
