package digest

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"github.com/cairn-mem/cairn/internal/digest/change"
)

// What an answer read of the retirer, so that recall/derived can carry
// it over to a retirer of other statements: Retired(x) tests only the
// candidates of x's sentences (older statements holding one of their
// keys, and those that meet every sentence), reads df only as Class of
// those keys, and reads the files the sessions changed.

// A Trace is what the answers given while it was on read of the retirer:
// the keys of the sentences checked, the largest order checked against
// (only statements of a smaller one are candidates), and whether a
// file's reading was checked against the files the sessions changed.
type Trace struct {
	Keys    []string
	Rank    int
	Changed bool
}

// Traced runs f and returns what the answers it asked of r read.
func (r *Retirer) Traced(f func()) Trace {
	t := &Trace{}
	r.trace = t
	defer func() { r.trace = nil }()
	f()
	slices.Sort(t.Keys)
	t.Keys = slices.Compact(t.Keys)
	return *t
}

// Class is how every test sees key k: bit 0 set when at most limit()
// statements hold it, bit 1 when at most asideLimit() do.
func (r *Retirer) Class(k string) uint8 {
	var c uint8
	if r.df[k] <= r.limit() {
		c |= 1
	}
	if r.df[k] <= r.asideLimit() {
		c |= 2
	}
	return c
}

// A Source is a statement as a Trace meets it: ID hashes its kind, rank
// and text; it is a candidate of a sentence of a larger order holding one
// of TopicKeys(Text), or, when Always, of any.
type Source struct {
	ID     [16]byte
	Rank   int
	Always bool
	Text   string
}

// Sources are r's statements, in order.
func (r *Retirer) Sources() []Source {
	out := make([]Source, len(r.stmts))
	var b []byte
	for i := range r.stmts {
		st := &r.stmts[i]
		b = append(b[:0], 's')
		if st.keys == nil { // a command's replacement, made of what it replaced too
			b = append(binary.AppendUvarint(append(b[:0], 'r'), uint64(len(st.was))), st.was...)
		}
		sum := sha256.Sum256(append(binary.AppendVarint(b, int64(st.Rank)), st.Text...))
		out[i] = Source{ID: [16]byte(sum[:16]), Rank: st.Rank, Always: always(st), Text: st.Text}
	}
	return out
}

// always reports whether st is a candidate of every sentence.
func always(st *Statement) bool {
	return st.keys == nil || len(st.settings) > 0 || len(st.bare) > 0
}

// TopicKeys are the keys of a statement of text s.
func TopicKeys(s string) map[string]bool { return change.TopicKeys(s) }
