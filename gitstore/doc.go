// Package gitstore keeps a directory of files as a git repository whose
// every checkpoint is one commit.
//
// It knows paths, bytes and commits, and nothing of what the files mean.
// A checkpoint costs what changed, not what exists: changed files are found
// with a stat cache (the same records git keeps in its index, stored under
// .state/ and mirrored into .git/index so that git status stays clean and
// fast; both are git split indexes over one shared base, so a save writes
// what changed), and the new commit's trees are built from the previous
// commit's trees plus the changed paths. go-git is used to read objects; blobs,
// trees, commits and refs are written here, each through a temporary file,
// fsync and rename, so that a process killed at any instant leaves a
// repository that git fsck accepts.
//
// Inside, a Store is a few parts: objects reads the repository, index
// holds the stat cache (its format is gitstore/internal/statcache's),
// worktree scans, reads and writes the work tree, and objects are written
// by gitstore/internal/loose.
//
// Remotes (fetch, push, the three-way merge, verify and repair) are
// gitstore/gitsync's, and the inotify server of the fsmonitor protocol is
// gitstore/fsmonitor's; both build on the few low-level methods exported
// for them (WithRepo, NewObjectWriter, BuildTree, UpdateBranch, Reopen).
// gitstore keeps the fsmonitor client, since every checkpoint asks.
// Printing diffs is gitstore/gitdiff's, and reading the project's own
// repository (not the memory's) is gitstore/codegit's.
//
// A Store is safe for use by one goroutine at a time for reads and writes
// of the repository; Lock serialises writers across processes.
package gitstore
