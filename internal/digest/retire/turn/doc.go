// Package turn reads how a statement turns on an earlier choice: the
// choice a decision made over an alternative and whether a newer
// statement went back to it, what a decision stays with and whether a
// newer one took the other, what a statement says no to and whether a
// newer one took it "after all". The retirer asks these of the
// statements it compares. No I/O.
package turn
