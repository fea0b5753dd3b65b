// Package quote matches statements quoted as no longer true with the
// statements they quote: a model summarizer's "**No longer true**"
// section, a line the agent or the user took back (cairn outdated), and
// the older statements a pack would show. A quote names a statement said
// in the same words (case, spacing and the closing stop aside), one
// sentence of a quote of several, or the beginning of one of five words
// or more. No I/O.
package quote
