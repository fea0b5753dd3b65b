// Package match scores how much of a query a chunk holds: a search
// hit's match score (recall's Scores.Match); by Sketch, how much of one
// text another already holds (recall's Diversify); and, by Covered,
// whether a bullet the context pack already shows holds a sentence.
//
// The match score says how much of the query the
// chunk holds, on a scale of its own: the relevance of the rerank is
// relative to the best hit, so a query about something never stored
// has a best hit of relevance 1 all the same. The match is the share of
// the query's words (stop words left out, each weighted by its length,
// since long words say more) that the chunk's title or text holds, a
// word counting as held when the chunk has it, a word of the same stem,
// or one a typo away. docs/search.md states the scale.
package match
