// Package statcache is gitstore's stat cache: for each tracked path, the
// blob it holds at HEAD and the stat data of the work-tree file when it
// last held that blob, so that a checkpoint hashes only files whose stat
// data moved (git's "racy git" rules included; see Entry.Racy).
//
// Its file format is git's index, version 2, with the cache's own data in
// an optional extension, so that Encode also gives the .git/index that
// keeps git status clean and Decode reads an index git wrote. A cache
// with a Base is written as git's split index (split.go): the entries
// that differ from the base and a link extension, so that saving costs
// what changed since the base. Files reads the cache and keeps its bases
// (written next to it and hard-linked into .git, replaced when too much
// differs, removed when old); repairing the cache, saving it and
// .git/index is gitstore's (its index type).
package statcache
