// Package digest holds what a session summary says: its parts (request,
// outcome, root causes, decisions, …) read from summary.md, how a
// session, an item and a turn render as text (headings, labelled parts,
// the files line), and the text rules they use: sentences and clauses
// never cut inside. What of it is still current is decided above it, in
// packages open (items a newer session dealt with) and retire
// (statements a newer one retired). No I/O.
package digest
