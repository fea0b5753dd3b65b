// Package loose writes git's loose objects: zlib-compressed, each through
// a temporary file and a rename, made durable by one fsync per batch (see
// Writer). gitstore writes every blob, tree and commit through it, and
// hands Writers to gitstore/gitsync as gitstore.ObjectWriter.
//
// It knows nothing of a Store: the check for an object that is packed
// already is a function the caller passes, and so is any locking.
package loose
