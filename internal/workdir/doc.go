// Package workdir finds the folder a cairn command works in: -C as git
// takes it (relative to the working directory's real path, which must
// exist and be a folder, and named by its real path), else the process's
// working directory. Every relative path a user gives is taken from it,
// as the process never changes directory.
package workdir
