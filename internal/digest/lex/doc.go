// Package lex holds the word-level primitives the digest packages
// compare statements with: content words, a crude English stem, stop
// words, comparison keys and the overlap of two word sets.
package lex
