// Package recall is what an agent gets back from the memory: the search
// index that follows the repository (.state/index, through indexer), the
// rerank of its hits (relevance, recency, importance, references), the
// context pack within a token budget, and the text to resume a session
// with. A Searcher is either an Index this process has open or a Remote,
// the daemon that has it (Bleve allows one process at a time). See
// docs/search.md.
package recall
