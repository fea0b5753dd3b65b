package derived

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

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
// when digest.Carry says it stands. It is read only then: a pack whose
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

// traced is an answer with its trace.
type traced struct {
	value string
	trace digest.Trace
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
			ans = binary.AppendUvarint(ans, uint64(a.trace.Classes[i]))
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
		a.trace.Classes = make([]uint8, len(a.trace.Keys))
		for j := range a.trace.Keys {
			a.trace.Keys[j] = key()
			a.trace.Classes[j] = uint8(d.Uint())
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
			c.carry = c.r.CarryFrom(c.old.sources, c.sourcesNow(), c.old.changed)
		}
	}
	if c.old == nil {
		return "", false
	}
	a, ok := c.old.answers[k]
	if !ok || c.carry != nil && !c.carry.Stands(a.trace) {
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
	writeCache(m, TraceFile, readingsKey(), encodeCarried(&carried{key: c.key, changed: c.r.ChangedID(), sources: c.sourcesNow(), answers: answers}))
}
