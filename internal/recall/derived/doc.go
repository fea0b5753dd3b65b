// Package derived keeps what a context pack derives from the memory, so
// that a pack's cost tracks what it shows and what changed rather than the
// memory's size.
//
// Which core titles and which sentences a newer statement retires
// (digest.Retirer), and which to-dos a newer session dealt with, are
// functions of the core titles with their ranks and of the summaries of
// the sessions the pack considers. Checking 5,000 core titles costs about
// a second; the answers are kept in .state/packcache.bin, keyed by a
// SHA-256 of those inputs, of rulesVersion and of the running binary
// (path, size, time), so a pack whose inputs did not change asks the
// retirer nothing and never builds it, and changed selection code never
// reads an old answer. The to-dos' answers depend on the summaries alone
// and are kept apart (.state/packcache-todo.bin, keyed by the summaries),
// so a checkpoint that adds a core item keeps them.
//
// When the inputs changed, the retirer is built again, but not from
// scratch: what it reads of a statement's text alone (its keys, settings,
// change, versions, quantities, removals, names and claim) is kept in
// .state/readings.bin by a hash of the text (digest.Readings), for
// rulesVersion and this binary, and a pack reads those of the texts it
// has seen before. Nor is every answer computed again: what each answer
// read of the retirer (digest.Trace) is kept in .state/packcache-trace.bin
// with the retirer's statements, and an old answer that no statement
// added or removed since could change stands (carry.go); which stand is
// told from the statements and counts that file keeps, and the retirer is
// built only for an answer to compute; a pack whose answers all stood
// leaves that file as it was while it lacks few of the core items now
// (maxDrift). Each file is
// 0600, replaced whole by rename, never
// synced; a damaged one is said in one line and made again.
//
// Titles finds the core titles a session's bullet may say again by the
// words they share, instead of comparing each bullet with every title;
// its index is kept in .state/titles.bin for the next pack.
package derived
