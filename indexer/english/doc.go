// Package english is Bleve's English analyzer ("en": Unicode word
// segmentation, possessives, lower case, stop words, Porter stemming)
// made cheaper for an index build, giving exactly the tokens Bleve's
// does: the same terms, offsets, positions and types.
//
// Two things cost most in Bleve's: the Unicode segmenter, a Ragel state
// machine over every byte, and the stemmer, which turns each term into
// runes and allocates a new term for it. Here text that is ASCII is cut
// into words by the few word-break rules of UAX #29 that ASCII can meet
// (the segmenter still cuts the rest), and each stem is computed once
// per term and reused.
package english
