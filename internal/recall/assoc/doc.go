// Package assoc learns which words go together in a memory, to close the
// gap between a question's words and the text that answers it ("What
// books has she read?" against turns naming titles) without a model.
//
// A Table holds, for the words of the search index's chunks (after the
// index's own analysis: stemmed, stop words out), which chunks hold
// each: words in at least MinShared chunks and at most MaxShare of
// them, letters only, at most MaxTerms of them. It is read from the
// index's dictionary and postings (indexer.BodyTerms) and saved in one
// checksummed file beside the index; a Cache reads it again from the
// index when the index has grown or shrunk by more than a tenth, or when
// the file is missing or damaged, and never fails a search for it.
//
// Related takes the query's words in at least MinQueryShare of the
// chunks (rarer ones find their chunks alone) and ranks the words in at
// most MaxRelatedShare of them that share at least MinShared chunks with
// one by pointwise mutual information times how many chunks they share,
// summed over the query's words; the best weighs the weight asked, the
// rest less, in proportion. The keyword side of a search adds them to
// the query at that fraction of a query word's weight
// (indexer.Query.Related), to reorder the chunks that hold its words.
package assoc
