package retire

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/retire/differ"
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
func (r *Retirer) Class(k string) uint8 { return ClassOf(r.df[k], r.distinct) }

// ClassOf is the Class of a key that df of distinct statements hold: a
// carry follows the two figures without building the retirer.
func ClassOf(df, distinct int) uint8 {
	var c uint8
	if df <= limitOf(distinct) {
		c |= 1
	}
	if df <= asideLimitOf(distinct) {
		c |= 2
	}
	return c
}

// DF is how many of the statements counted (Counted) hold key k.
func (r *Retirer) DF(k string) int { return r.df[k] }

// Distinct is how many statements were counted.
func (r *Retirer) Distinct() int { return r.distinct }

// A Source is a statement as a Trace meets it: ID hashes its kind, rank
// and text; it is a candidate of a sentence of a larger order holding one
// of TopicKeys(Text), or, when Always, of any. Keyed says it has keys
// (a command's replacement has none): only those are counted.
type Source struct {
	ID     [16]byte
	Rank   int
	Always bool
	Keyed  bool
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
			if st.own {
				b = append(b, 'o') // its copy for its own session
			}
		}
		sum := sha256.Sum256(append(binary.AppendVarint(b, int64(st.Rank)), st.Text...))
		rank := st.Rank
		if st.own {
			// It meets the statements of its own rank, as a statement
			// of the rank before would: what it took back or added
			// moves their answers too.
			rank--
		}
		out[i] = Source{ID: [16]byte(sum[:16]), Rank: rank, Always: always(st), Keyed: st.keys != nil, Text: st.Text}
	}
	return out
}

// always reports whether st is a candidate of every sentence: so is one
// that names what it replaced by a name the older statement need share no
// key with ("BILL_YYYYMM.csv" for "BILL_YYYYMM.txt", "instead of the
// ERP-Import share" for "\\fs01\billing\ERP-Import"); and so is one
// that goes back on something ("we're putting the retry queue in
// Postgres after all"), which retires a pick that names only what it
// took ("Failed deliveries in spool files on disk").
func always(st *Statement) bool {
	return st.keys == nil || len(st.settings) > 0 || len(st.bare) > 0 || namesReplaced(st) || change.GoesBack(st.Text)
}

// namesReplaced reports whether st says code took another's place, or
// names a distinctive file while it announces a change. Such a statement
// is read now rather than on its first candidate: it is everyone's.
func namesReplaced(st *Statement) bool {
	s := st.Text
	if !strings.Contains(s, "instead of") && !strings.Contains(s, "rather than") && !strings.Contains(s, "in place of") && !strings.Contains(s, "replacing") && !differ.NamesFile(s) {
		return false
	}
	st.read()
	return len(st.insteadOf) > 0 || len(st.files) > 0
}

// TopicKeys are the keys of a statement of text s.
func TopicKeys(s string) map[string]bool { return change.TopicKeys(s) }

// CoreRank is the rank the statement of a core item of rank has.
func CoreRank(rank int) int { return order(rank, false) }

// Counted reports, of each of a retirer's sources (Sources, in order),
// whether countKeys counts it: df and distinct are the counted
// statements' keys and number, so a carry can follow them from the
// statements alone. countKeys and Counted both ask counted, so the two
// cannot part (TestCountedIsCountKeys).
func Counted(src []Source) []bool {
	return counted(len(src), func(i int) (string, int, bool) { return src[i].Text, src[i].Rank, src[i].Keyed })
}
