// Package expand widens a search query with words of the memory itself,
// without a model: pseudo-relevance feedback after RM3 (Lavrenko and
// Croft's relevance model, mixed with the original query). The best hits
// of a first keyword pass stand for what the query is about; words they
// share, that the rest of the memory seldom holds, are added to the query
// with weights that sum to a fixed share of the original's, so that they
// can bring in a passage that says the same in other words but never
// outweigh the words the user typed.
//
// It works on terms already analysed by the caller (the index's analyser:
// lower-cased, stemmed, stop words out) and does no I/O beyond what it
// is given: document frequencies come through a function.
package expand
