// Package refs keeps how often each memory was packed into a context
// because a query retrieved it: counts in .state/references.json, never
// committed, which search's ranking reads (a memory asked for often
// ranks higher). They are written at every pack that retrieved
// something, under a lock, without an fsync: a crash loses at most the
// last counts, which only nudge the ranking.
package refs
