package indexer

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// parallelCorpus is benchDocs with session-like documents among them: a
// dialogue cut by turns and a summary by sections, both with a header,
// and a document without a body.
func parallelCorpus(n int) []Document {
	docs, _ := benchDocs(n, 3)
	r := rand.New(rand.NewSource(4))
	z := rand.NewZipf(r, 1.1, 2, 50000)
	for i := 0; i < n; i += 10 {
		var b strings.Builder
		for turn := range 3 + r.Intn(12) {
			fmt.Fprintf(&b, "**%s:** %s\n\n", []string{"Maya", "Tom", "Ana"}[turn%3], benchText(r, z, 10+r.Intn(40)))
		}
		docs[i].Cut, docs[i].Header, docs[i].Body = ByTurns, fmt.Sprintf("Session %d · 2026-11-%02d · Maya, Tom", i, 1+i%28), b.String()
		if i%20 == 0 {
			docs[i+1].Cut, docs[i+1].Header = BySection, fmt.Sprintf("Session %d", i)
			docs[i+1].Body = "## Request\n" + benchText(r, z, 40) + "\n\n## Outcome\n" + benchText(r, z, 300)
		}
		if i%30 == 0 {
			docs[i+2].Body = ""
		}
	}
	return docs
}

// An index is the same, file for file and hit for hit, whatever the
// number of workers, the size of Bleve's batches and of the Puts.
func TestParallelBuildSame(t *testing.T) {
	ctx := context.Background()
	docs := parallelCorpus(600)
	// A second round replaces some documents (one twice in a Put: the
	// last wins) and deletes others.
	again := []Document{docs[5], docs[17], docs[5]}
	again[0].Body, again[2].Body = "replaced body about queues", "replaced again: lemurs and queues"
	again[1].Body += "\n\nmore about the retry worker"
	gone := []string{docs[40].Path, docs[41].Path, "never/indexed.md"}

	queries := []string{"queue worker retry", "Maya Tom session", "decision database schema migration", "lemurs", "replaced", "w1f w2a the"}
	r := rand.New(rand.NewSource(5))
	for range 30 {
		words := strings.Fields(docs[r.Intn(len(docs))].Body)
		if len(words) > 1 {
			queries = append(queries, words[r.Intn(len(words))]+" "+words[r.Intn(len(words))])
		}
	}

	type built struct {
		hits  map[string][]Hit
		files map[string][]byte
	}
	// rankings records each query's rankings under prefix; keyword only
	// adds the keyword and hybrid ones.
	rankings := func(t *testing.T, ix *Index, b built, prefix string, keyword bool) {
		for _, q := range queries {
			b.hits[prefix+"vector "+q] = search(t, ix, Query{Text: q, Mode: Vector, K: 25, NoHitText: true})
			if !keyword {
				continue
			}
			// Hits of equal BM25 score come in the order of Bleve's
			// document numbers, which follow its segments and their
			// merges (in the background, as they happen to run): the
			// keyword ranking is compared without that order, and a
			// hybrid one, which takes ranks from it, only when the
			// keyword candidates have no ties.
			kw := search(t, ix, Query{Text: q, Mode: Keyword, K: 50, NoHitText: true})
			b.hits[prefix+"keyword "+q] = untied(kw[:min(len(kw), 25)], len(kw) == 50)
			if !tied(kw) {
				b.hits[prefix+"hybrid "+q] = search(t, ix, Query{Text: q, Mode: Hybrid, K: 10, NoHitText: true})
			}
		}
	}
	build := func(t *testing.T, workers, batch, putSize int) built {
		ix, dir := openTest(t, Options{Workers: workers, BatchSize: batch})
		b := built{hits: map[string][]Hit{}, files: map[string][]byte{}}
		for i := 0; i < len(docs); i += putSize {
			put(t, ix, docs[i:min(i+putSize, len(docs))]...)
		}
		rankings(t, ix, b, "built: ", true)
		// Replaced and deleted chunks stay in Bleve's statistics (its
		// document frequencies and lengths) until the segments holding
		// them are merged, as they happen to be: BM25 scores then
		// differ by a few percent between builds. Only the vectors are
		// compared.
		put(t, ix, again...)
		if err := ix.Delete(ctx, gone...); err != nil {
			t.Fatal(err)
		}
		if err := ix.SetVersion(ctx, "v"); err != nil {
			t.Fatal(err)
		}
		rankings(t, ix, b, "updated: ", false)
		for _, name := range []string{vectorsFile, vectorsFile + ".i8"} {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			b.files[name] = data
		}
		return b
	}
	// Bleve's BM25 takes a field's average length as the sum over its
	// segments of the terms in each one's dictionary, divided by the
	// documents: a term in two segments counts twice. Keyword scores
	// thus depend on how chunks fell into batches and how the segments
	// were merged since, and are compared between builds of one batch
	// (one segment); the vectors between any.
	want := build(t, 1, 1<<20, len(docs))
	hybrid := 0
	for q := range want.hits {
		if strings.HasPrefix(q, "built: hybrid ") {
			hybrid++
		}
	}
	if len(want.hits["built: keyword queue worker retry"]) == 0 || hybrid < len(queries)/3 {
		t.Fatalf("the reference index finds too little (%d hybrid rankings without ties of %d)", hybrid, len(queries))
	}
	for _, c := range []struct {
		name                    string
		workers, batch, putSize int
	}{
		{"3 workers, one batch", 3, 1 << 20, len(docs)},
		{"8 workers, one batch", 8, 1 << 20, len(docs)},
		{"4 workers, batches of 50, puts of 100", 4, 50, 100},
		{"2 workers, default batches, puts of 256", 2, 0, 256},
		{"8 workers, batches of 7, puts of 33", 8, 7, 33},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := build(t, c.workers, c.batch, c.putSize)
			for name, data := range want.files {
				if !bytes.Equal(got.files[name], data) {
					t.Errorf("%s differs (%d bytes, want %d)", name, len(got.files[name]), len(data))
				}
			}
			if len(got.hits) != len(want.hits) {
				t.Errorf("%d rankings compared, want %d", len(got.hits), len(want.hits))
			}
			for q, hits := range want.hits {
				if c.putSize < len(docs) && !strings.Contains(q, "vector ") {
					continue
				}
				if !reflect.DeepEqual(got.hits[q], hits) {
					t.Errorf("%s:\n got %v\nwant %v", q, brief(got.hits[q]), brief(hits))
				}
			}
		})
	}
}

// brief is hits as their ids and scores.
func brief(hits []Hit) []string {
	var s []string
	for _, h := range hits {
		s = append(s, fmt.Sprintf("%s k%.6g v%.6g", h.ID, h.KeywordScore, h.VectorScore))
	}
	return s
}

// untied is hits sorted by score, then id, without the last score's hits
// when there may be more of that score than fit (full).
func untied(hits []Hit, full bool) []Hit {
	hits = append([]Hit(nil), hits...)
	sort.SliceStable(hits, func(i, j int) bool {
		if hits[i].KeywordScore != hits[j].KeywordScore {
			return hits[i].KeywordScore > hits[j].KeywordScore
		}
		return hits[i].ID < hits[j].ID
	})
	if full || len(hits) == 25 {
		last := len(hits)
		for last > 0 && hits[last-1].KeywordScore == hits[len(hits)-1].KeywordScore {
			last--
		}
		hits = hits[:last]
	}
	for i := range hits {
		hits[i].KeywordRank, hits[i].Score, hits[i].Relevance = 0, 0, 0
	}
	return hits
}

// tied reports whether two hits have the same keyword score.
func tied(hits []Hit) bool {
	seen := map[float64]bool{}
	for _, h := range hits {
		if seen[h.KeywordScore] {
			return true
		}
		seen[h.KeywordScore] = true
	}
	return false
}
