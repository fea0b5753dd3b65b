// Package crypt encrypts chosen memory files with age (filippo.io/age).
//
// cairn writes git objects itself, so encryption is a step of its own,
// like git's clean and smudge filters: a Filter turns the plaintext of a
// work-tree file whose path matches cairn.yaml's encrypt.paths into age
// ciphertext for encrypt.recipients when it is stored (Clean), and the
// ciphertext back into plaintext when a blob is written to the work tree
// (Smudge). The work tree holds plaintext for the owner of a key, so the
// index searches it; git, and every remote it syncs with, holds only
// ciphertext.
//
// age encryption is not deterministic: the same plaintext encrypts to a
// new ciphertext every time. So that a checkpoint does not commit a file
// that did not change, the Filter keeps, under the memory's state
// folder, the last ciphertext of each path with its plaintext's SHA-256
// and the recipients it was made for; Clean returns that ciphertext
// again while both are the same.
//
// A clone with no key (or a key none of the recipients is) keeps the
// ciphertext itself in its work tree: Clean passes ciphertext through
// unchanged, so such a clone checkpoints and syncs the file without
// touching it, and readers skip it (IsCiphertext).
package crypt
