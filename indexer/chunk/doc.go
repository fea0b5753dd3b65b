// Package chunk owns how a memory file is cut into the pieces the index
// scores: Split cuts a Markdown body by size, preferring to end a chunk at
// a heading, a transcript turn, a paragraph, a line, a sentence or a word;
// SplitDialogue cuts a conversation into overlapping windows of a few
// turns; SplitSections cuts a summary into its sections. Each Chunk
// carries its line and column range in the file, so a hit can be read
// back from the file alone. Sizes are counted by EstimateTokens, cairn's
// estimate of what an LLM's tokenizer makes of a text.
//
// It is apart from package indexer because it is pure text work: it knows
// nothing of Bleve, vectors or the index's files, and what it does can be
// tested (golden files, fuzzing) on strings alone. The indexer imports it,
// never the reverse, and re-exports what its callers need
// (indexer.ChunkOptions, indexer.EstimateTokens) so that they import the
// indexer alone. Which chunks a body gives is part of the index's format:
// the indexer records the Options it chunked with and rebuilds when they
// change, but a change to the cutting rules themselves needs a new schema
// version there.
package chunk
