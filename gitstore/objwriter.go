package gitstore

import (
	"github.com/cairn-mem/cairn/gitstore/internal/loose"
	"github.com/go-git/go-git/v5/plumbing"
)

// An ObjectWriter writes loose objects into the repository for the
// packages that build commits on the Store: the blobs and trees of a
// merge, objects brought back by a repair. Objects are made durable in
// batches, by Flush (see loose.Writer).
type ObjectWriter struct {
	w *loose.Writer
	s *Store // whose mutex Write takes
}

// NewObjectWriter returns a writer of loose objects into the repository.
// It skips an object the repository has, loose or packed, unless rewrite
// is set: a repair puts back objects that are corrupt where they are.
func (s *Store) NewObjectWriter(rewrite bool) *ObjectWriter {
	has := s.objs.has
	if rewrite {
		has = nil
	}
	return &ObjectWriter{w: loose.NewWriter(s.gitDir, has), s: s}
}

// Write stores an object of type t and returns its id; an object that
// exists already is not written again. It takes the Store's mutex, which
// the check for a packed object needs.
func (w *ObjectWriter) Write(t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.w.Write(t, data)
}

// Flush makes the objects written so far durable. No ref may point at
// them before it returns.
func (w *ObjectWriter) Flush() error { return w.w.Flush() }
