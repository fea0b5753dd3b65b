package digest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/cairn-mem/cairn/internal/prose"
)

// What the retirer reads of a statement (its keys and settings, and,
// once a check meets it, its change, versions, quantities, removals,
// names and claim) is a function of the statement's text alone, and in
// a large memory reading 5,000 core titles costs more than the rest of a
// pack. Readings keeps those readings by the text's hash, so that a pack
// reads them instead of reading the texts again. Who stores them must
// tie them to the rules that made them (this binary): Readings does no
// I/O.

// Readings holds the readings of statement texts, by a hash of the text.
// A nil *Readings holds none and keeps none. It serves one pack, in one
// goroutine.
type Readings struct {
	// old are the encoded readings the cache held, decoded on use: parts
	// of one string, which the decoded keys and values share rather than
	// copy (50,000 of them at 5,000 core titles).
	old map[textHash]string
	// had are the flags of those a statement took (readDone, readClaim).
	had map[textHash]uint64
	// fresh are the texts read now, not found in old.
	fresh map[string]textHash
	// used are the hashes of the texts the retirer asked for, in order.
	used []textHash
	// now are the statements read beyond what old held, the fullest
	// per text.
	now map[textHash]*Statement
	// grew says that a statement was read beyond what old held.
	grew bool
	// sents are the sentences checked that are no statement, read once.
	sents map[string]*Statement
}

// sentence is the reading of a sentence the retirer checks that is no
// statement; nil without a cache.
func (rd *Readings) sentence(x string) *Statement {
	if rd == nil {
		return nil
	}
	if st := rd.sents[x]; st != nil {
		return st
	}
	if rd.sents == nil {
		rd.sents = make(map[string]*Statement)
	}
	st := rd.statement(x, 0)
	rd.sents[x] = &st
	return &st
}

type textHash [16]byte

func hashText(s string) textHash {
	sum := sha256.Sum256([]byte(s))
	return textHash(sum[:16])
}

// ParseReadings reads what Readings.Encode wrote.
func ParseReadings(b []byte) (*Readings, error) {
	rd := &Readings{old: make(map[textHash]string)}
	data := string(b)
	for len(data) > 0 {
		if len(data) < len(textHash{}) {
			return nil, errReadings
		}
		var h textHash
		copy(h[:], data)
		data = data[len(h):]
		l, n := uvarint(data)
		if n <= 0 || uint64(len(data)-n) < l {
			return nil, errReadings
		}
		rd.old[h] = data[n : n+int(l)]
		data = data[n+int(l):]
	}
	return rd, nil
}

var errReadings = errors.New("readings cut short")

// statement is the statement of text and rank, its readings taken from
// rd when it holds them.
func (rd *Readings) statement(text string, rank int) Statement {
	if rd == nil {
		return Statement{Text: text, Rank: rank, keys: topicKeys(text), settings: prose.Settings(text), bare: prose.BareSettings(text)}
	}
	h := hashText(text)
	rd.used = append(rd.used, h)
	if b, ok := rd.old[h]; ok {
		st := Statement{Text: text, Rank: rank}
		if flags, err := decodeReading(b, &st); err == nil {
			if rd.had == nil {
				rd.had = make(map[textHash]uint64)
			}
			rd.had[h] = flags
			return st
		}
		delete(rd.old, h) // damaged: made again
	}
	if rd.fresh == nil {
		rd.fresh = make(map[string]textHash)
	}
	rd.fresh[text], rd.grew = h, true
	return Statement{Text: text, Rank: rank, keys: topicKeys(text), settings: prose.Settings(text), bare: prose.BareSettings(text)}
}

// Keep takes the readings of r's statements that go beyond what the
// cache held, and reports whether there are any: only then is the cache
// worth writing again.
func (rd *Readings) Keep(r *Retirer) bool {
	if rd == nil {
		return false
	}
	rd.now = make(map[textHash]*Statement)
	all := make([]*Statement, 0, len(r.stmts)+len(rd.sents))
	for i := range r.stmts {
		all = append(all, &r.stmts[i])
	}
	for _, st := range rd.sents {
		all = append(all, st)
	}
	for _, st := range all {
		h, fresh := rd.fresh[st.Text]
		if st.keys == nil || !fresh && flagsOf(st) == 0 {
			continue // a command's replacement (not read by add), or what the cache holds
		}
		if !fresh {
			h = hashText(st.Text)
			if flagsOf(st)&^rd.had[h] == 0 {
				continue
			}
		}
		if have := rd.now[h]; have == nil || flagsOf(st)&^flagsOf(have) != 0 {
			rd.now[h] = st
		}
		rd.grew = true
	}
	return rd.grew
}

// flagsOf says what st has read beyond its keys and settings.
func flagsOf(st *Statement) uint64 {
	var f uint64
	if st.done {
		f |= readDone
	}
	if st.claim != nil {
		f |= readClaim
	}
	return f
}

// Encode returns the readings of the texts this pack's retirer asked
// for, in the order of their hashes (the same readings, the same bytes):
// those Keep took, and the others as the cache held them. The texts no
// statement says any more are left out.
func (rd *Readings) Encode() []byte {
	if rd == nil {
		return nil
	}
	hs := slices.Clone(rd.used)
	slices.SortFunc(hs, func(a, b textHash) int { return bytes.Compare(a[:], b[:]) })
	hs = slices.Compact(hs)
	var out []byte
	for _, h := range hs {
		b, ok := rd.old[h]
		if st := rd.now[h]; st != nil {
			b, ok = string(encodeReading(st)), true
		}
		if !ok {
			continue
		}
		out = append(out, h[:]...)
		out = binary.AppendUvarint(out, uint64(len(b)))
		out = append(out, b...)
	}
	return out
}

// Flags of an encoded reading.
const (
	readDone  = 1 << iota // what read reads is there
	readClaim             // the fact claim is there
	readCount
)

// encodeReading encodes what st holds of its text. A nil map or slice
// is kept apart from an empty one (the checks tell some apart): each
// length is stored plus one, and nil as 0.
func encodeReading(st *Statement) []byte {
	b := binary.AppendUvarint(nil, flagsOf(st))
	b = appendSet(b, st.keys)
	b = appendMap(b, st.settings)
	b = appendMap(b, st.bare)
	if st.done {
		if st.change == nil {
			b = append(b, 0)
		} else {
			b = append(b, 1)
			b = appendSets(b, st.change.old)
			b = appendSets(b, st.change.new)
		}
		b = binary.AppendVarint(b, int64(st.state))
		b = appendMap(b, st.versions)
		b = appendLen(b, st.quantities == nil, len(st.quantities))
		for _, q := range st.quantities {
			b = appendStr(b, q.unit)
			b = appendStr(b, q.value)
			b = appendBool(b, q.weak)
		}
		b = appendStrs(b, st.removed)
		b = appendMap(b, st.named)
	}
	if st.claim != nil {
		b = appendStr(b, st.claim.Subject)
		b = appendStrs(b, st.claim.Values)
		b = appendStrs(b, st.claim.Dropped)
		b = appendBool(b, st.claim.Chosen)
	}
	return b
}

func appendLen(b []byte, isNil bool, n int) []byte {
	if isNil {
		return append(b, 0)
	}
	return binary.AppendUvarint(b, uint64(n)+1)
}

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func appendStrs(b []byte, ss []string) []byte {
	b = appendLen(b, ss == nil, len(ss))
	for _, s := range ss {
		b = appendStr(b, s)
	}
	return b
}

// appendSet and appendMap write keys sorted: a map's order is random.
func appendSet(b []byte, m map[string]bool) []byte {
	b = appendLen(b, m == nil, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b = appendStr(b, k)
		b = appendBool(b, m[k])
	}
	return b
}

func appendMap(b []byte, m map[string]string) []byte {
	b = appendLen(b, m == nil, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b = appendStr(b, k)
		b = appendStr(b, m[k])
	}
	return b
}

func appendSets(b []byte, ms []map[string]bool) []byte {
	b = appendLen(b, ms == nil, len(ms))
	for _, m := range ms {
		b = appendSet(b, m)
	}
	return b
}

// decoder reads an encoded reading; its first failure stays in err.
type decoder struct {
	b   string
	err error
}

// uvarint is binary.Uvarint of a string.
func uvarint(s string) (uint64, int) {
	var x uint64
	var shift uint
	for i := range min(len(s), binary.MaxVarintLen64) {
		c := s[i]
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, -(i + 1) // overflow
			}
			return x | uint64(c)<<shift, i + 1
		}
		x |= uint64(c&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := uvarint(d.b)
	if n <= 0 {
		d.err = errReadings
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int64 {
	if d.err != nil {
		return 0
	}
	ux, n := uvarint(d.b)
	if n <= 0 {
		d.err = errReadings
		return 0
	}
	d.b = d.b[n:]
	v := int64(ux >> 1) // binary.Varint's zig-zag
	if ux&1 != 0 {
		v = ^v
	}
	return v
}

// len returns a length stored plus one, and whether it is nil.
func (d *decoder) len() (int, bool) {
	n := d.uint()
	if d.err == nil && n > uint64(len(d.b))+1 {
		d.err = errReadings // every element takes a byte at least
	}
	if n == 0 || d.err != nil {
		return 0, true
	}
	return int(n - 1), false
}

func (d *decoder) str() string {
	n := d.uint()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errReadings
		return ""
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func (d *decoder) bool() bool { return d.uint() == 1 }

func (d *decoder) strs() []string {
	n, isNil := d.len()
	if isNil {
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		out = append(out, d.str())
	}
	return out
}

func (d *decoder) set() map[string]bool {
	n, isNil := d.len()
	if isNil {
		return nil
	}
	m := make(map[string]bool, n)
	for range n {
		k := d.str()
		m[k] = d.bool()
	}
	return m
}

func (d *decoder) smap() map[string]string {
	n, isNil := d.len()
	if isNil {
		return nil
	}
	m := make(map[string]string, n)
	for range n {
		k := d.str()
		m[k] = d.str()
	}
	return m
}

func (d *decoder) sets() []map[string]bool {
	n, isNil := d.len()
	if isNil {
		return nil
	}
	out := make([]map[string]bool, 0, n)
	for range n {
		out = append(out, d.set())
	}
	return out
}

// decodeReading fills st's readings from b, and returns its flags; st
// keeps its text and rank.
func decodeReading(b string, st *Statement) (uint64, error) {
	d := &decoder{b: b}
	flags := d.uint()
	if flags >= readCount {
		return 0, fmt.Errorf("%w: flags %d", errReadings, flags)
	}
	st.keys, st.settings, st.bare = d.set(), d.smap(), d.smap()
	if flags&readDone != 0 {
		if d.bool() {
			st.change = &change{old: d.sets(), new: d.sets()}
		}
		st.state = int(d.int())
		st.versions = d.smap()
		if n, isNil := d.len(); !isNil {
			st.quantities = make([]quantity, 0, n)
			for range n {
				st.quantities = append(st.quantities, quantity{unit: d.str(), value: d.str(), weak: d.bool()})
			}
		}
		st.removed, st.named, st.done = d.strs(), d.smap(), true
	}
	if flags&readClaim != 0 {
		st.claim = &prose.Claim{Subject: d.str(), Values: d.strs(), Dropped: d.strs(), Chosen: d.bool()}
	}
	if d.err == nil && len(d.b) > 0 {
		d.err = errReadings
	}
	return flags, d.err
}
