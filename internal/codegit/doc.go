// Package codegit reads the project's own git repository: the one that
// holds the code a memory is about, not the memory's repository (that is
// gitstore's). Checkpoints record the project's HEAD in a trailer, and the
// history is filtered by what is reachable from a project commit.
//
// It is kept apart from gitstore because it shares nothing with it but
// go-git: gitstore writes one repository with its own plumbing, codegit
// only reads another through go-git's porcelain.
package codegit
