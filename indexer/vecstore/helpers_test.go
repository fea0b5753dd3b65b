package vecstore

import (
	"io"
	"math"
)

// read replays a vectors file from r (with no vectors to read).
func (s *Store) read(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.dsize = math.MaxInt64 - 1<<32
	return s.parse(b)
}

// put adds e with vector v to memory, replacing a chunk with the same id.
func (s *Store) put(e *Entry, v []float32) {
	slot := s.place(e)
	s.scales[slot] = quantize(v, s.codes[slot*s.cd:(slot+1)*s.cd])
}
