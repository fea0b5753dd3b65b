// Package refs moves git refs the way git itself does: a ref.lock made
// with O_EXCL, a compare of the ref's current value against the one the
// caller expects, fsync, a rename over the ref, and a line appended to
// the reflogs. gitstore moves its branch and tags through Update, and
// writes .git/index through CreateLock.
//
// It knows nothing of a Store: the ref's current value is read through
// the go-git reference storer the caller passes, and the reflog line is
// the caller's.
package refs
