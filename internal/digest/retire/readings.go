package retire

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/quantity"
	"github.com/cairn-mem/cairn/internal/digest/retire/differ"
	"github.com/cairn-mem/cairn/internal/digest/wire"
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
		l, n := wire.Uvarint(data)
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
		return Statement{Text: text, Rank: rank, keys: change.TopicKeys(text), settings: prose.Settings(text), bare: prose.BareSettings(text)}
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
	return Statement{Text: text, Rank: rank, keys: change.TopicKeys(text), settings: prose.Settings(text), bare: prose.BareSettings(text)}
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
	b = wire.AppendSet(b, st.keys)
	b = wire.AppendMap(b, st.settings)
	b = wire.AppendMap(b, st.bare)
	if st.done {
		switch {
		case st.change == nil:
			b = append(b, 0)
		case st.change.Plan:
			b = append(b, 2)
		default:
			b = append(b, 1)
		}
		if st.change != nil {
			b = wire.AppendSets(b, st.change.Old)
			b = wire.AppendSets(b, st.change.New)
			b = wire.AppendSets(b, st.change.Replaced)
		}
		b = binary.AppendVarint(b, int64(st.state))
		b = wire.AppendMap(b, st.versions)
		b = wire.AppendLen(b, st.quantities == nil, len(st.quantities))
		for _, q := range st.quantities {
			b = wire.AppendStr(b, q.Unit)
			b = wire.AppendStr(b, q.Value)
			b = wire.AppendBool(b, q.Weak)
		}
		b = wire.AppendStrs(b, st.removed)
		b = wire.AppendMap(b, st.named)
		b = wire.AppendMap(b, st.tools)
		b = wire.AppendStr(b, st.nowNoun)
		b = wire.AppendStr(b, st.nowValue)
		b = wire.AppendLen(b, st.fractions == nil, len(st.fractions))
		for _, f := range st.fractions {
			b = wire.AppendStr(b, f.N)
			b = wire.AppendStr(b, f.Total)
			b = wire.AppendStr(b, f.Noun)
		}
		b = wire.AppendLen(b, st.insteadOf == nil, len(st.insteadOf))
		for _, p := range st.insteadOf {
			b = wire.AppendStr(b, p[0])
			b = wire.AppendStr(b, p[1])
		}
		b = wire.AppendMap(b, st.files)
	}
	if st.claim != nil {
		b = wire.AppendStr(b, st.claim.Subject)
		b = wire.AppendStrs(b, st.claim.Values)
		b = wire.AppendStrs(b, st.claim.Dropped)
		b = wire.AppendBool(b, st.claim.Chosen)
	}
	return b
}

// decodeReading fills st's readings from b, and returns its flags; st
// keeps its text and rank.
func decodeReading(b string, st *Statement) (uint64, error) {
	d := wire.NewDecoder(b, errReadings)
	flags := d.Uint()
	if flags >= readCount {
		return 0, fmt.Errorf("%w: flags %d", errReadings, flags)
	}
	st.keys, st.settings, st.bare = d.Set(), d.Map(), d.Map()
	if flags&readDone != 0 {
		if c := d.Uint(); c > 0 { // 1 a change, 2 a change of plan
			st.change = &change.Change{Plan: c == 2}
			st.change.Old, st.change.New, st.change.Replaced = d.Sets(), d.Sets(), d.Sets()
		}
		st.state = int(d.Int())
		st.versions = d.Map()
		if n, isNil := d.Len(); !isNil {
			st.quantities = make([]quantity.Quantity, 0, n)
			for range n {
				st.quantities = append(st.quantities, quantity.Quantity{Unit: d.Str(), Value: d.Str(), Weak: d.Bool()})
			}
		}
		st.removed, st.named, st.tools, st.done = d.Strs(), d.Map(), d.Map(), true
		st.nowNoun, st.nowValue = d.Str(), d.Str()
		if n, isNil := d.Len(); !isNil {
			st.fractions = make([]differ.Fraction, 0, n)
			for range n {
				st.fractions = append(st.fractions, differ.Fraction{N: d.Str(), Total: d.Str(), Noun: d.Str()})
			}
		}
		if n, isNil := d.Len(); !isNil {
			st.insteadOf = make([][2]string, 0, n)
			for range n {
				st.insteadOf = append(st.insteadOf, [2]string{d.Str(), d.Str()})
			}
		}
		st.files = d.Map()
	}
	if flags&readClaim != 0 {
		st.claim = &prose.Claim{Subject: d.Str(), Values: d.Strs(), Dropped: d.Strs(), Chosen: d.Bool()}
	}
	return flags, d.End()
}
