package indexer

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

type evalMemory struct {
	ID, Title, Kind, Body string
}

type evalQuery struct {
	Q    string
	Want []string
	Type string // keyword, inflection, typo, paraphrase, multi
}

func loadJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestRetrievalQuality runs the labelled queries of testdata/eval against
// the labelled memories in each mode and reports hit@k (some wanted
// memory in the top k) and recall@k (the share of wanted memories in the
// top k). Hybrid must do better than keywords alone.
func TestRetrievalQuality(t *testing.T) {
	var mems []evalMemory
	var queries []evalQuery
	loadJSON(t, "testdata/eval/memories.json", &mems)
	loadJSON(t, "testdata/eval/queries.json", &queries)
	ix, _ := openTest(t, Options{})
	var docs []Document
	for _, m := range mems {
		docs = append(docs, Document{Path: m.ID, Title: m.Title, Kind: m.Kind, Body: m.Body})
	}
	put(t, ix, docs...)

	type score struct{ hit, recall [2]float64 } // at each of ks
	ks := []int{1, 5}
	results := map[Mode]map[string]*score{}
	for _, mode := range []Mode{Keyword, Vector, Hybrid} {
		results[mode] = map[string]*score{}
		for _, q := range queries {
			hits := search(t, ix, Query{Text: q.Q, Mode: mode, K: 5})
			for _, typ := range []string{q.Type, "all"} {
				s := results[mode][typ]
				if s == nil {
					s = &score{}
					results[mode][typ] = s
				}
				for i, k := range ks {
					found := 0
					for _, h := range hits[:min(k, len(hits))] {
						for _, w := range q.Want {
							if h.Path == w {
								found++
							}
						}
					}
					if found > 0 {
						s.hit[i]++
					}
					s.recall[i] += float64(found) / float64(len(q.Want))
				}
			}
		}
	}
	count := map[string]int{"all": len(queries)}
	for _, q := range queries {
		count[q.Type]++
	}
	var types []string
	for typ := range count {
		types = append(types, typ)
	}
	sort.Strings(types)
	var b strings.Builder
	fmt.Fprintf(&b, "%-11s %3s  %-29s %-29s %-29s\n", "queries", "n", "keyword hit@1 hit@5 rec@5", "vector", "hybrid")
	for _, typ := range types {
		fmt.Fprintf(&b, "%-11s %3d ", typ, count[typ])
		for _, mode := range []Mode{Keyword, Vector, Hybrid} {
			s := results[mode][typ]
			n := float64(count[typ])
			fmt.Fprintf(&b, "  %5.2f %5.2f %5.2f            ", s.hit[0]/n, s.hit[1]/n, s.recall[1]/n)
		}
		b.WriteByte('\n')
	}
	t.Logf("retrieval quality on %d memories:\n%s", len(mems), b.String())
	kw, hy := results[Keyword]["all"], results[Hybrid]["all"]
	if hy.hit[1] <= kw.hit[1] || hy.recall[1] <= kw.recall[1] {
		t.Errorf("hybrid hit@5 %v recall@5 %v does not beat keyword %v %v", hy.hit[1], hy.recall[1], kw.hit[1], kw.recall[1])
	}
}
