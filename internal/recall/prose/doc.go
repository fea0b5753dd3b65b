// Package prose holds the text rules the context pack cuts and compares
// memories by: sentences and clauses that are never cut inside, budgets
// in tokens, content words and their stems, and the share of words two
// texts have in common. Strings in, strings out; no I/O.
package prose
