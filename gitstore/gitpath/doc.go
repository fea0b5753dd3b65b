// Package gitpath checks the slash-separated repository paths that enter
// a memory: from callers (Clean), from the work tree (a checkpoint's scan)
// and from a remote's trees (gitsync's merge, Valid and ValidName). It
// refuses absolute paths, paths that climb out of the work tree or into
// .git or the state folder (ErrOutside), and names git, the file system
// or cairn would each read differently (ErrBadName).
//
// It is a leaf: it imports nothing of cairn, so gitstore, gitstore/gitsync
// and internal/memory share one definition of a valid path.
package gitpath
