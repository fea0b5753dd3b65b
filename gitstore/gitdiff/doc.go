// Package gitdiff prints the diffs gitstore.Store.Diff returns the way git
// diff does: as a unified patch (WritePatch) or as a --stat summary
// (WriteStat).
//
// It is apart from gitstore because printing is not the Store's concern:
// it needs nothing but the two sides of each file, which a FileDiff
// carries, and go-git's patch encoder.
package gitdiff
