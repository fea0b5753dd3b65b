// Package gitgc repacks a gitstore repository: every object reachable
// from a ref, HEAD or a reflog goes into one new pack, and the loose
// objects and old packs it replaces are removed, with the unreachable
// loose objects older than a grace period.
//
// gitstore writes each object loose (one file, fsync'd in batches), so a
// memory that has made thousands of checkpoints holds tens of thousands of
// small files. Repack turns them into one pack and its index, written
// with go-git's pack encoder, so that no git binary is needed.
//
// The order of the steps is what makes a killed repack harmless: the pack
// and its index are written to temporary files, synced, and renamed into
// place (the pack first, since git ignores a pack without an index);
// only then, after the new pack has been read back and found to hold
// every object it must, are old packs and loose objects removed. A
// temporary file or an orphaned pack a killed run left is swept by the
// next. No reachable object is ever removed: everything removed is either
// in the new pack or unreachable and older than the grace period.
package gitgc
