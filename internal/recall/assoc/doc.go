// Package assoc learns which words go together in a memory, to close the
// gap between a question's words and the text that answers it ("What
// books has she read?" against turns naming titles) without a model.
//
// A Table holds, for the words of the search index's chunks (after the
// index's own analysis: stemmed, stop words out), which chunks hold
// each: words held by at least MinShared chunks and at most MaxShare of
// them, no digits, at most MaxTerms of them. It is read from the index's
// dictionary and postings (indexer.BodyTerms), saved in one checksummed
// file beside the index and keyed by the index's version and size: a
// Cache rebuilds it when the index has moved on or the file is missing
// or damaged, and never fails a search for it.
//
// Related ranks the words that share at least MinShared chunks with a
// query word by pointwise mutual information times how many chunks they
// share, summed over the query's words, and weighs the best of them at
// the weight asked, the rest in proportion: the keyword side of a search
// adds them to the query at that fraction of a query word's weight
// (indexer.Query.Related).
package assoc
