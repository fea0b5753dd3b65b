// Package digest holds what a session summary says and what of it is
// still current: its parts, open items, and which statements a newer
// one retired; and the text rules that decide it (sentences and clauses
// never cut inside, content words and their stems, overlap). No I/O.
package digest
