// Command convo is the long-conversation retrieval benchmark (issue 14):
// how much of the evidence a question needs cairn's search returns, per
// kind of question, within k hits and within a budget of tokens, next to
// plain BM25 over single turns and over whole sessions on the same data.
//
//	go run ./bench/convo [-dir testdata/convo] [-json] [-v] [-k 50] [-strict] [CONV...]
//
// Each conversation is a folder of -dir holding conversation.md and
// questions.yaml (testdata/convo/README or docs/benchmarks.md: the format).
// For each, the benchmark makes a fresh memory in a temporary folder,
// ingests conversation.md in process through capture.IngestFiles (what
// cairn ingest runs), builds the search index (recall.OpenIndex, with the
// configured embedder: the built-in one), and runs every question through
// recall.Index.Search in keyword, vector and hybrid mode, asking for -k
// hits (50), the index opened once (warm). Faint hits (under
// search.min_match) are kept, as cairn search --all does, so that each
// mode gives its whole ranking; -strict drops them, as cairn search does
// by default (a handful of hits is then all a question gets).
//
// In process rather than through the built binary: the same functions the
// commands call, and the latency is the search's, not a process start's.
//
// # Found
//
// A turn is found in a text when the text contains the turn's first 60
// characters, or the whole turn when it is shorter, both normalised:
// lower case, runs of white space made one space, Markdown emphasis
// marks (*) dropped, and the turn's speaker prefix ("Maya: ") not part
// of the turn. A chunk, a summary or a core item that quotes the turn's
// opening finds it.
//
// # Figures
//
// recall@k (k = 5, 10, 20) is the share of a question's evidence turns
// found in the text of its top k hits, averaged over the questions of a
// kind and over all. recall within N tokens (500, 1,000, 2,000) is the
// same share in the hits' text concatenated in rank order and cut at N
// tokens by indexer.EstimateTokens (cairn's token estimate): the last hit
// that fits only in part is cut at a word.
//
// The baselines rank the conversation's own text with Okapi BM25 (k1 1.2,
// b 0.75; tokens are runs of letters and digits, lower-cased and stemmed
// by a light suffix stripper): bm25-turns ranks single turns ("Maya:
// text"), bm25-sessions whole sessions (their turns, one a line). Their
// ranked texts are scored by the same rules.
//
// Latency is the median and 95th percentile of one query's search, per
// mode and for each baseline, over all questions.
//
// -v prints, per question, the rank (1-based) of the first hit in which
// each evidence turn was found, "-" when none of the -k hits holds it.
package main
