// Package open tells what a session left open and whether a newer
// session dealt with it: the sentences that state work still to do or a
// problem as it stands, the rare words that stand for such an item, and
// the newer sessions that name it, ask for it, fix it or close it. What
// one dealt with is stale and leaves the pack. No I/O.
package open
