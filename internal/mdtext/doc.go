// Package mdtext holds the small text rules shared by everything that
// writes Markdown for people and agents: one-line text, cuts at a word
// boundary, code spans that survive backticks, plurals. Pure functions,
// no I/O.
package mdtext
