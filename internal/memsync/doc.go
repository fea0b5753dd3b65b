// Package memsync moves memory between machines and projects: sync with
// git remotes (fetch, merge with cairn's content rules, push that never
// forces), conflict copies and their resolution, verify and repair of the
// history, and sharing items between sessions or into another project's
// memory. See docs/sync.md for the merge rules and the conflict copy
// naming.
package memsync
