// Package gitsync syncs a gitstore.Store with git remotes: the remotes'
// configuration and credentials, fetch, push, a reachability check, the
// three-way merge of trees, and the verification and repair of objects.
//
// It reads and writes .git/config (remotes, as plain git sees them),
// refs/remotes/NAME/BRANCH (tracking refs) and objects, and reads tokens
// from .state/credentials (see CredentialsFile). It fetches through
// go-git's transports, never pushes by force, and merges by asking a
// caller's MergeFunc about each file both sides changed, since only the
// caller knows what the bytes mean. The merge's result is written by
// gitstore.Store.UpdateBranch, so that the work tree, the stat cache and
// the branch move in the same crash-safe order as a checkpoint's.
// Repair moves corrupt loose objects aside into .state/corrupt/.
package gitsync
