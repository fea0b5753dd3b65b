// Package fuse turns the indexer's keyword and vector rankings of a
// query's candidates into one relevance per hit, on which recall's rerank
// builds: each ranking's score relative to its best, the vector side
// weighed against BM25. docs/search.md ("Fusion") says why each part is
// there and what it was measured to give.
package fuse
