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

// parse replays a vectors file's bytes (Load reads the table first, then
// the log's header and records the same way).
func (s *Store) parse(b []byte) error {
	s.ready.Store(false)
	gen, off, err := s.parseHeader(b)
	if err != nil {
		return err
	}
	s.gen = gen
	return s.parseRecords(b, off)
}

// put adds e with vector v to memory, replacing a chunk with the same id.
func (s *Store) put(e *Entry, v []float32) {
	slot := s.place(e)
	s.scales[slot] = quantize(v, s.codes[slot*s.cd:(slot+1)*s.cd])
}
