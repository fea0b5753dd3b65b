package fuse

import (
	"testing"

	"github.com/cairn-mem/cairn/indexer"
)

func TestRelevanceShortChunks(t *testing.T) {
	// Two passages and a short item that BM25 ranks alike; the item's
	// cosine is the highest, as a bag of words' is for a short text.
	hit := func(p string, tokens int, cos float64) indexer.Hit {
		return indexer.Hit{Path: p, Tokens: tokens, KeywordRank: 1, KeywordScore: 4, VectorRank: 1, VectorScore: cos}
	}
	hits := []indexer.Hit{hit("passage1.md", 90, 0.4), hit("item.md", 10, 0.6), hit("passage2.md", 100, 0.3)}
	tests := []struct {
		name       string
		bagOfWords bool
		best       string
	}{
		{"the built-in embedder's cosine is scaled by length", true, "passage1.md"},
		{"a trained model's cosine counts as it is", false, "item.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rel := Relevance(hits, 0.25, tt.bagOfWords)
			best := 0
			for i := range rel {
				if rel[i] > rel[best] {
					best = i
				}
			}
			if hits[best].Path != tt.best || rel[best] != 1 {
				t.Errorf("relevance %v: best %s, want %s at 1", rel, hits[best].Path, tt.best)
			}
		})
	}
	// Keyword or vector alone: the cosine is the ranking, left as it is.
	vec := []indexer.Hit{{Path: "long.md", Tokens: 90, VectorRank: 2, VectorScore: 0.4}, {Path: "short.md", Tokens: 10, VectorRank: 1, VectorScore: 0.6}}
	if rel := Relevance(vec, 1, true); rel[1] != 1 {
		t.Errorf("vector alone: relevance %v, want the short chunk first", rel)
	}
}
