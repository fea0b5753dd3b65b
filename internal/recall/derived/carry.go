package derived

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/wire"
	"github.com/cairn-mem/cairn/internal/memory"
)

// A checkpoint that adds a core item changes the inputs, and with them
// the key of every answer in packcache.bin; the retirer's answers used to
// be computed again, each. Most stand: an answer reads only the
// statements sharing a key with what it checks, and the word statistics
// only as a class per key (digest.Trace). TraceFile keeps, beside the
// answers, what each read, and the retirer's statements as a trace meets
// them (digest.Source); a pack whose inputs changed takes an old answer
// when a carry says it stands. It is read only then: a pack whose
// inputs did not change reads packcache.bin alone.

// TraceFile holds the traces of the last answers, under .state.
const TraceFile = "packcache-trace.bin"

// carried is what TraceFile holds: the traces of the answers given for
// the inputs of key, by a retirer of sources and of files changed.
type carried struct {
	key     [sha256.Size]byte
	changed [16]byte
	sources []digest.Source
	answers map[string]traced
}

// traced is an answer with its trace, and the class (digest.Retirer.Class)
// each key of the trace had.
type traced struct {
	value   string
	trace   digest.Trace
	classes []uint8
}

// loadCarried reads TraceFile, made by this binary; nil when there is
// none or it is damaged (said once on stderr).
func loadCarried(m *memory.Memory) *carried {
	body := readBody(m, TraceFile, readingsKey())
	if body == nil {
		return nil
	}
	old, err := parseCarried(string(body))
	if err != nil {
		m.Warn(fmt.Sprintf("context: %s is damaged (%v); rebuilt", TraceFile, err))
		return nil
	}
	return old
}

// encodeCarried encodes old: the input key and the files changed, a table
// of the answers' keys, the sources and the answers, each key by its
// number in the table.
func encodeCarried(old *carried) []byte {
	ids := map[string]uint64{}
	var table []string
	id := func(k string) uint64 {
		n, ok := ids[k]
		if !ok {
			n = uint64(len(table))
			ids[k] = n
			table = append(table, k)
		}
		return n
	}
	var srcs, ans []byte
	srcs = binary.AppendUvarint(srcs, uint64(len(old.sources)))
	for _, s := range old.sources {
		srcs = append(append(srcs, byte(len(s.ID))), s.ID[:]...) // as wire.AppendStr
		srcs = binary.AppendVarint(srcs, int64(s.Rank))
		srcs = wire.AppendBool(srcs, s.Always)
		srcs = wire.AppendStr(srcs, s.Text)
	}
	ans = binary.AppendUvarint(ans, uint64(len(old.answers)))
	for q, a := range old.answers {
		ans = wire.AppendStr(ans, q)
		ans = wire.AppendStr(ans, a.value)
		ans = binary.AppendVarint(ans, int64(a.trace.Rank))
		ans = wire.AppendBool(ans, a.trace.Changed)
		ans = binary.AppendUvarint(ans, uint64(len(a.trace.Keys)))
		for i, k := range a.trace.Keys {
			ans = binary.AppendUvarint(ans, id(k))
			ans = binary.AppendUvarint(ans, uint64(a.classes[i]))
		}
	}
	b := append(old.key[:0:0], old.key[:]...)
	b = append(b, old.changed[:]...)
	b = binary.AppendUvarint(b, uint64(len(table)))
	for _, k := range table {
		b = wire.AppendStr(b, k)
	}
	b = append(b, srcs...)
	return append(b, ans...)
}

// parseCarried reads what encodeCarried wrote.
func parseCarried(b string) (*carried, error) {
	if len(b) < sha256.Size+16 {
		return nil, errCache
	}
	old := &carried{}
	copy(old.key[:], b)
	copy(old.changed[:], b[sha256.Size:])
	d := wire.NewDecoder(b[sha256.Size+16:], errCache)
	count := func() int {
		n := d.Uint()
		if n > uint64(len(b)) {
			d.Str() // more than the bytes: an error
			return 0
		}
		return int(n)
	}
	table := make([]string, count())
	for i := range table {
		table[i] = d.Str()
	}
	bad := false // a key past the table's end
	key := func() string {
		n := d.Uint()
		if n >= uint64(len(table)) {
			bad = true
			return ""
		}
		return table[n]
	}
	old.sources = make([]digest.Source, count())
	for i := range old.sources {
		s := &old.sources[i]
		copy(s.ID[:], d.Str()) // 16 bytes, as written
		s.Rank, s.Always, s.Text = int(d.Int()), d.Bool(), d.Str()
	}
	n := count()
	old.answers = make(map[string]traced, n)
	for range n {
		q, a := d.Str(), traced{value: d.Str()}
		a.trace.Rank, a.trace.Changed = int(d.Int()), d.Bool()
		a.trace.Keys = make([]string, count())
		a.classes = make([]uint8, len(a.trace.Keys))
		for j := range a.trace.Keys {
			a.trace.Keys[j] = key()
			a.classes[j] = uint8(d.Uint())
		}
		old.answers[q] = a
	}
	if err := d.End(); err != nil || bad {
		return nil, fmt.Errorf("%w: traces", errCache)
	}
	return old, nil
}

// fromTrace returns the answer of memo key k that the trace file holds, if
// it stands for this pack's retirer (built).
func (c *Retirer) fromTrace(k string) (string, bool) {
	if !c.oldRead {
		c.oldRead = true
		c.old = loadCarried(c.m)
		if c.old != nil && c.old.key != c.key {
			c.carry = newCarry(c.r, c.old.sources, c.sourcesNow(), c.old.changed != filesID(c.sums))
		}
	}
	if c.old == nil {
		return "", false
	}
	a, ok := c.old.answers[k]
	if !ok || c.carry != nil && !c.carry.stands(a) {
		return "", false
	}
	c.traces[k] = a
	if c.carry != nil {
		c.carried++
	}
	return a.value, true
}

// sourcesNow are the statements of this pack's retirer (built), read
// once.
func (c *Retirer) sourcesNow() []digest.Source {
	if c.sources == nil {
		c.sources = c.r.Sources()
	}
	return c.sources
}

// saveTraces writes the trace file: the traces of this pack's answers,
// and those of the file's own answers when it was made for the same
// inputs (a pack of another budget asked other questions).
func (c *Retirer) saveTraces(m *memory.Memory) {
	if !c.oldRead {
		c.oldRead, c.old = true, loadCarried(m)
	}
	answers := c.traces
	if c.old != nil && c.old.key == c.key {
		for k, a := range c.old.answers {
			if _, ok := answers[k]; !ok {
				answers[k] = a
			}
		}
	}
	writeCache(m, TraceFile, readingsKey(), encodeCarried(&carried{key: c.key, changed: filesID(c.sums), sources: c.sourcesNow(), answers: answers}))
}

// A carry tells which answers of an earlier retirer stand for r: those
// no statement added or removed since is a candidate of, whose keys are
// of the class they were, and, if they read the files the sessions
// changed, whose files are the same.
type carry struct {
	r *digest.Retirer
	// alwaysRank is the smallest rank of the statements that moved and
	// meet every sentence; keyRank, per key, that of those holding it.
	alwaysRank int
	keyRank    map[string]int
	files      bool // the files the sessions changed are others
}

// newCarry compares r, of sources now (r.Sources()), with the retirer of
// sources old; files says the sessions' changed files moved. Each is a
// multiset: a statement said twice and now once moved too.
func newCarry(r *digest.Retirer, old, now []digest.Source, files bool) *carry {
	c := &carry{r: r, alwaysRank: math.MaxInt, keyRank: map[string]int{}, files: files}
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
func (c *carry) moved(s digest.Source) {
	if s.Always {
		c.alwaysRank = min(c.alwaysRank, s.Rank)
		return
	}
	for k := range digest.TopicKeys(s.Text) {
		if r, ok := c.keyRank[k]; !ok || s.Rank < r {
			c.keyRank[k] = s.Rank
		}
	}
}

// stands reports whether answer a of the earlier retirer is c.r's too.
func (c *carry) stands(a traced) bool {
	t := a.trace
	if t.Changed && c.files || len(a.classes) != len(t.Keys) || c.alwaysRank < t.Rank {
		return false
	}
	for i, k := range t.Keys {
		if c.r.Class(k) != a.classes[i] {
			return false
		}
		if r, ok := c.keyRank[k]; ok && r < t.Rank {
			return false
		}
	}
	return true
}

// filesID hashes the files the summaries say their sessions changed, by
// summary: what the retirer's changed files are made of.
func filesID(sums []*digest.Summary) [16]byte {
	var b []byte
	for _, d := range sums {
		b = binary.AppendUvarint(b, uint64(len(d.Parts[digest.Files])))
		for _, f := range d.Parts[digest.Files] {
			b = wire.AppendStr(b, f)
		}
	}
	sum := sha256.Sum256(b)
	return [16]byte(sum[:16])
}

// classesOf are the classes r gives the keys of t.
func classesOf(r *digest.Retirer, t digest.Trace) []uint8 {
	out := make([]uint8, len(t.Keys))
	for i, k := range t.Keys {
		out[i] = r.Class(k)
	}
	return out
}
