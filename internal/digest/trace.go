package digest

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"slices"
)

// A checkpoint that adds a core item changes the retirer's statements,
// and a pack used to compute every answer again: about a third of a cold
// pack at 5,000 core titles. An answer reads little of the retirer,
// though. Retired(x) tests only the candidates of x's sentences (the
// statements older than x that hold one of its keys, and those that are
// candidates of every sentence), and reads the word statistics only as
// whether df[k] is at most limit() or at most asideLimit(), for keys k
// of the sentences it checks. So an answer holds for another retirer
// when none of the statements added or removed is such a candidate, and
// each of those keys stands as it stood; a Trace records what that test
// needs.

// A Trace is what the answers given while it was on read of the
// retirer.
type Trace struct {
	// Keys are the keys of every sentence checked, perhaps more than
	// once.
	Keys []string
	// Rank is the largest order checked against: statements of a
	// smaller one are the only candidates.
	Rank int
	// Changed says that a file's reading was checked against the files
	// the sessions changed (ChangedID).
	Changed bool
	// Classes are the classes (Class) of Keys, in their order.
	Classes []uint8
}

// note records the check of a sentence of keys xk.
func (t *Trace) note(xk map[string]bool) {
	for k := range xk {
		t.Keys = append(t.Keys, k)
	}
}

// Traced runs f and returns what the answers it asked of r read. A
// Retirer serves one pack, in one goroutine: f asks nothing of r from
// elsewhere.
func (r *Retirer) Traced(f func()) Trace {
	t := &Trace{}
	r.trace = t
	defer func() { r.trace = nil }()
	f()
	slices.Sort(t.Keys)
	t.Keys = slices.Compact(t.Keys)
	t.Classes = make([]uint8, len(t.Keys))
	for i, k := range t.Keys {
		t.Classes[i] = r.Class(k)
	}
	return *t
}

// Key classes (Class): how the retirer's tests see a key.
const (
	UnderLimit = 1 << iota // df at most limit()
	UnderAside             // df at most asideLimit()
)

// Class is how every test of the retirer sees key k: whether it is held
// by at most limit() and by at most asideLimit() statements. Answers
// read the statistics of the statements only so.
func (r *Retirer) Class(k string) uint8 {
	var c uint8
	df := r.df[k]
	if df <= r.limit() {
		c |= UnderLimit
	}
	if df <= r.asideLimit() {
		c |= UnderAside
	}
	return c
}

// A Source is a statement of the retirer as a Trace meets it: what it
// was made of (ID, a hash of its kind, rank and text), and when it is a
// candidate of a sentence: a sentence of a larger order that holds one
// of the keys of its Text, or, when Always, any. Only the few statements
// one retirer has and the other has not have their keys read again.
type Source struct {
	ID     [16]byte
	Rank   int
	Always bool
	Text   string
}

// Sources are r's statements, in order.
func (r *Retirer) Sources() []Source {
	out := make([]Source, len(r.stmts))
	var buf []byte
	for i := range r.stmts {
		st := &r.stmts[i]
		buf = buf[:0]
		if st.keys == nil {
			// A command's replacement: what it replaced is part of it.
			buf = append(buf, 'r')
			buf = binary.AppendUvarint(buf, uint64(len(st.was)))
			buf = append(buf, st.was...)
		} else {
			buf = append(buf, 's')
		}
		buf = binary.AppendVarint(buf, int64(st.Rank))
		buf = append(buf, st.Text...)
		sum := sha256.Sum256(buf)
		out[i] = Source{ID: [16]byte(sum[:16]), Rank: st.Rank, Always: always(st), Text: st.Text}
	}
	return out
}

// always reports whether st is a candidate of every sentence
// (candidates).
func always(st *Statement) bool {
	return st.keys == nil || len(st.settings) > 0 || len(st.bare) > 0
}

// ChangedID is a hash of the files the sessions changed, by order
// (what changedSince reads).
func (r *Retirer) ChangedID() [16]byte {
	ks := make([]int, 0, len(r.changed))
	for k := range r.changed {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	h := sha256.New()
	var b []byte
	for _, k := range ks {
		b = binary.AppendVarint(b[:0], int64(k))
		for _, f := range r.changed[k] {
			b = binary.AppendUvarint(b, uint64(len(f)))
			b = append(b, f...)
		}
		h.Write(b)
	}
	var id [16]byte
	copy(id[:], h.Sum(nil))
	return id
}

// A Carry tells which answers of an earlier retirer stand for r: those
// no statement added or removed since is a candidate of, whose keys are
// of the class they were, and, if they read the files the sessions
// changed, whose files are the same.
type Carry struct {
	r *Retirer
	// alwaysRank is the smallest rank of the statements that moved and
	// are candidates of every sentence; keyRank, per key, that of those
	// holding it.
	alwaysRank int
	keyRank    map[string]int
	changed    bool // the files the sessions changed are others
}

// CarryFrom compares r, of sources now (r.Sources()), with the retirer
// of sources old and files changed (ChangedID). Each is a multiset: a
// statement said twice and now once moved too.
func (r *Retirer) CarryFrom(old, now []Source, changed [16]byte) *Carry {
	c := &Carry{r: r, alwaysRank: math.MaxInt, keyRank: map[string]int{}, changed: changed != r.ChangedID()}
	count := make(map[[16]byte]int, len(old))
	for _, s := range old {
		count[s.ID]++
	}
	for _, s := range now {
		if count[s.ID] > 0 {
			count[s.ID]--
			continue
		}
		c.moved(s)
	}
	for _, s := range old {
		if count[s.ID] > 0 {
			count[s.ID]--
			c.moved(s)
		}
	}
	return c
}

// moved notes statement s, which one retirer has and the other has not.
func (c *Carry) moved(s Source) {
	if s.Always {
		c.alwaysRank = min(c.alwaysRank, s.Rank)
		return
	}
	// A statement's keys are its text's (Readings.statement).
	for k := range topicKeys(s.Text) {
		if r, ok := c.keyRank[k]; !ok || s.Rank < r {
			c.keyRank[k] = s.Rank
		}
	}
}

// Stands reports whether an answer that read t of the earlier retirer is
// c.r's answer too.
func (c *Carry) Stands(t Trace) bool {
	if t.Changed && c.changed || len(t.Classes) != len(t.Keys) || c.alwaysRank < t.Rank {
		return false
	}
	for i, k := range t.Keys {
		if c.r.Class(k) != t.Classes[i] {
			return false
		}
		if r, ok := c.keyRank[k]; ok && r < t.Rank {
			return false
		}
	}
	return true
}
