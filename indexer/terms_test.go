package indexer

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"
)

func TestBodyTerms(t *testing.T) {
	ix, _ := openTest(t, Options{})
	put(t, ix,
		Document{Path: "a.md", Body: "Reading a novel about whales."},
		Document{Path: "b.md", Body: "Another novel, about ships."},
		Document{Path: "c.md", Body: "Ships and whales."},
	)
	// Replaced and deleted chunks are not counted.
	put(t, ix, Document{Path: "c.md", Body: "Ships at sea."})
	put(t, ix, Document{Path: "d.md", Body: "A novel."})
	if err := ix.Delete(context.Background(), "d.md"); err != nil {
		t.Fatal(err)
	}
	got := map[string][]uint32{}
	n, err := ix.BodyTerms(context.Background(), func(term string, df int) bool { return term != "sea" }, func(term string, chunks []uint32) {
		got[term] = slices.Clone(chunks)
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("chunks = %d, want 3", n)
	}
	if _, ok := got["sea"]; ok {
		t.Error("a term keep refused was read")
	}
	if _, ok := got["about"]; ok {
		t.Error("a stop word was read")
	}
	// The numbers are private, but one chunk keeps one number.
	same := func(a, b string) bool {
		x, y := got[a], got[b]
		sort.Slice(x, func(i, j int) bool { return x[i] < x[j] })
		sort.Slice(y, func(i, j int) bool { return y[i] < y[j] })
		return slices.Equal(x, y)
	}
	if len(got["novel"]) != 2 || len(got["ship"]) != 2 || len(got["whale"]) != 1 || len(got["read"]) != 1 {
		t.Fatalf("postings = %v", got)
	}
	if !same("read", "whale") || same("novel", "ship") {
		t.Errorf("postings = %v: read and whale are of one chunk, novel and ship not", got)
	}
	if terms := ix.Terms("Reading the Novels"); !slices.Equal(terms, []string{"read", "novel"}) {
		t.Errorf("Terms = %q", terms)
	}
}

// TestRelatedNeverOutweigh: related words reorder the chunks that hold
// the query's words, find no others, and add less than a query word.
func TestRelatedNeverOutweigh(t *testing.T) {
	ix, _ := openTest(t, Options{})
	put(t, ix,
		Document{Path: "query.md", Body: "She talked about books all evening."},
		Document{Path: "both.md", Body: "Two books: Dune and Emma."},
		Document{Path: "related.md", Body: "Dune, Emma, Persuasion, Middlemarch and Dune again: Emma twice."},
		Document{Path: "other.md", Body: "The weather was fine for a walk."},
	)
	rel := []Term{{Text: "dune", Weight: 0.9}, {Text: "emma", Weight: 0.9}, {Text: "persuas", Weight: 0.9}, {Text: "middlemarch", Weight: 0.9}}
	before := search(t, ix, Query{Text: "books", Mode: Keyword})
	if p := paths(before); len(p) != 2 || p[0] != "query.md" && p[0] != "both.md" {
		t.Fatalf("without related words: %v", p)
	}
	after := search(t, ix, Query{Text: "books", Mode: Keyword, Related: rel})
	if p := paths(after); len(p) != 2 || p[0] != "both.md" {
		t.Fatalf("with related words: %v, want both.md first and related.md not found", p)
	}
	// Four related words at 0.9 add less than 0.9 of the best score of
	// the query's word.
	var plain float64
	for _, h := range before {
		if h.Path == "both.md" {
			plain = h.KeywordScore
		}
	}
	if bonus := after[0].KeywordScore - plain; bonus <= 0 || bonus > 0.9*max(before[0].KeywordScore, before[1].KeywordScore) {
		t.Errorf("related words add %v to a score of %v", bonus, plain)
	}
	// A query word is never dropped or weighed down by a related word
	// of the same name.
	same := search(t, ix, Query{Text: "books", Mode: Keyword, Related: []Term{{Text: "book", Weight: 5}}})
	if len(same) != len(before) || same[0].KeywordScore != before[0].KeywordScore {
		t.Errorf("a related word that is the query's changed the ranking: %v", paths(same))
	}
}

// TestTermsWhileWriting reads terms and searches with related words
// while documents are put and deleted (run with -race).
func TestTermsWhileWriting(t *testing.T) {
	ctx := context.Background()
	ix, _ := openTest(t, Options{})
	put(t, ix, corpus()...)
	done := make(chan error, 1)
	go func() {
		for i := range 20 {
			d := Document{Path: fmt.Sprintf("n/%d.md", i%4), Body: fmt.Sprintf("queue note %d about workers", i)}
			if err := ix.Put(ctx, d); err != nil {
				done <- err
				return
			}
			if i%5 == 0 {
				if err := ix.Delete(ctx, d.Path); err != nil {
					done <- err
					return
				}
			}
		}
		done <- nil
	}()
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			return
		default:
		}
		if _, err := ix.BodyTerms(ctx, func(string, int) bool { return true }, func(string, []uint32) {}); err != nil {
			t.Fatal(err)
		}
		q := Query{Text: "queue", Mode: Keyword, Related: []Term{{Text: ix.Terms("workers")[0], Weight: 0.2}}}
		if _, err := ix.Search(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
}
