package statcache

import (
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/go-git/go-git/v5/plumbing"
)

// A split cache is git's split index (see gitformat-index(5), "Split
// index"): a base, written whole now and then and named by its checksum,
// and a small file holding the entries that differ from the base, with a
// "link" extension naming the base and two bitmaps: the base entries
// deleted, and those replaced by the file's first entries, whose paths are
// left empty. Git reads .git/index written so, with the base stored as
// .git/sharedindex.<checksum>.

const linkExtension = "link"

// Base is the shared part of a split cache: a plain index, named by its
// checksum Sum.
type Base struct {
	Sum     plumbing.Hash
	Entries []Entry // sorted by path; never aliases a Cache's Entries
}

// BaseName is the file name git gives a base: sharedindex.<sum>.
func BaseName(sum plumbing.Hash) string { return "sharedindex." + sum.String() }

// BasePattern matches the names of bases (filepath.Match).
const BasePattern = "sharedindex.*"

// NewBase makes the cache's entries its new base, which later Encodes
// write against, and returns the base's file.
func (c *Cache) NewBase() []byte {
	b := appendEntries(nil, c.Entries, c.Written, sha1.Size)
	sum := sha1.Sum(b)
	es := make([]Entry, len(c.Entries))
	for i := range c.Entries {
		es[i] = c.Entries[i].saved(c.Written)
	}
	c.Base = &Base{Sum: sum, Entries: es}
	return append(b, sum[:]...)
}

// Delta returns how many entries a split Encode writes: the cache's
// entries that differ from its base as saved, plus the base's that are
// deleted.
// Without a base it is the number of entries.
func (c *Cache) Delta() int {
	if c.Base == nil {
		return len(c.Entries)
	}
	d := c.diff()
	return len(d.replaced) + len(d.added) + len(d.deleted)
}

// split is what a cache, as saved at its Written, changes in its base.
type split struct {
	replaced []int   // base positions whose entry differs, ascending
	entries  []Entry // their new entries, in the same order
	deleted  []int   // base positions with no entry now, ascending
	added    []Entry // entries whose path the base lacks, sorted
}

func (c *Cache) diff() split {
	var d split
	base := c.Base.Entries
	i, j := 0, 0
	for i < len(base) || j < len(c.Entries) {
		switch {
		case j == len(c.Entries) || i < len(base) && base[i].Path < c.Entries[j].Path:
			d.deleted = append(d.deleted, i)
			i++
		case i == len(base) || c.Entries[j].Path < base[i].Path:
			d.added = append(d.added, c.Entries[j])
			j++
		default:
			if e := c.Entries[j].saved(c.Written); base[i] != e {
				d.replaced = append(d.replaced, i)
				d.entries = append(d.entries, e)
			}
			i++
			j++
		}
	}
	return d
}

// appendSplit starts a split index against c.Base, with room for extra
// more bytes: the replacing entries with empty paths, the added ones,
// and the link extension.
func (c *Cache) appendSplit(extra int) []byte {
	d := c.diff()
	for i := range d.entries {
		d.entries[i].Path = "" // git takes the path from the base
	}
	var ext []byte
	ext = append(ext, c.Base.Sum[:]...)
	ext = appendEWAH(ext, d.deleted)
	ext = appendEWAH(ext, d.replaced)
	all := append(d.entries, d.added...)
	b := appendEntries(nil, all, c.Written, 8+len(ext)+extra)
	b = append(b, linkExtension...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(ext)))
	return append(b, ext...)
}

// link is a decoded link extension.
type link struct {
	base              plumbing.Hash
	deleted, replaced []int
}

func decodeLink(data []byte) (*link, error) {
	if len(data) < sha1.Size {
		return nil, fmt.Errorf("%w: short link extension", errBad)
	}
	l := &link{}
	copy(l.base[:], data)
	data = data[sha1.Size:]
	if len(data) == 0 {
		return l, nil
	}
	var err error
	if l.deleted, data, err = readEWAH(data); err != nil {
		return nil, err
	}
	if l.replaced, data, err = readEWAH(data); err != nil {
		return nil, err
	}
	if len(data) != 0 {
		return nil, fmt.Errorf("%w: garbage at the end of the link extension", errBad)
	}
	return l, nil
}

// merge applies a split file's entries, in file order, to its base.
func (l *link) merge(base, split []Entry) ([]Entry, error) {
	if len(l.replaced) > len(split) {
		return nil, fmt.Errorf("%w: %d replacements, %d entries", errBad, len(l.replaced), len(split))
	}
	out := slices.Clone(base)
	gone := make(map[int]bool, len(l.deleted))
	for _, p := range l.deleted {
		if p >= len(out) {
			return nil, fmt.Errorf("%w: deleted entry %d of %d", errBad, p, len(out))
		}
		gone[p] = true
	}
	for k, p := range l.replaced {
		if p >= len(out) || gone[p] {
			return nil, fmt.Errorf("%w: bad replaced entry %d", errBad, p)
		}
		e := split[k]
		if e.Path != "" {
			return nil, fmt.Errorf("%w: replacing entry %d has a path", errBad, k)
		}
		e.Path = out[p].Path
		out[p] = e
	}
	if len(gone) > 0 {
		k := 0
		out = slices.DeleteFunc(out, func(Entry) bool { k++; return gone[k-1] })
	}
	added := split[len(l.replaced):]
	if err := checkOrder(added); err != nil {
		return nil, err
	}
	merged := make([]Entry, 0, len(out)+len(added))
	i := 0
	for _, e := range added {
		for i < len(out) && out[i].Path < e.Path {
			merged = append(merged, out[i])
			i++
		}
		if e.Path == "" || i < len(out) && out[i].Path == e.Path {
			return nil, fmt.Errorf("%w: added entry %q is in the base", errBad, e.Path)
		}
		merged = append(merged, e)
	}
	return append(merged, out[i:]...), nil
}

// EWAH bitmaps as git serialises them (ewah/ewah_io.c): the size in
// bits, the number of 64-bit words, the words, and the position of the
// last marker word, all big-endian. A marker word holds a run of
// identical words (bit 0: their bit, bits 1-32: how many) and the count
// of literal words after it (bits 33-63).
const (
	runBits     = 32
	maxRun      = 1<<runBits - 1
	maxLiterals = 1<<(63-runBits) - 1
	// maxEntries bounds what a bitmap may describe, so that a damaged one
	// cannot make its reader list billions of positions.
	maxEntries = 1 << 26
)

// appendEWAH appends the bitmap with the ascending positions set.
func appendEWAH(b []byte, positions []int) []byte {
	words := []uint64{0} // the first marker
	marker, next := 0, 0 // marker's index; the word index after the last one written
	for k := 0; k < len(positions); {
		w := positions[k] / 64
		var lit uint64
		for ; k < len(positions) && positions[k]/64 == w; k++ {
			lit |= 1 << (positions[k] % 64)
		}
		gap := w - next
		if gap > 0 || words[marker]>>(1+runBits) == maxLiterals {
			for gap > maxRun { // not reached below 2^38 bits
				words = append(words, maxRun<<1)
				gap -= maxRun
			}
			if marker == len(words)-1 && words[marker] == 0 {
				words[marker] = uint64(gap) << 1 // the empty first marker
			} else {
				words = append(words, uint64(gap)<<1)
				marker = len(words) - 1
			}
		}
		words[marker] += 1 << (1 + runBits)
		words = append(words, lit)
		next = w + 1
	}
	size := 0
	if len(positions) > 0 {
		size = positions[len(positions)-1] + 1
	}
	b = binary.BigEndian.AppendUint32(b, uint32(size))
	b = binary.BigEndian.AppendUint32(b, uint32(len(words)))
	for _, w := range words {
		b = binary.BigEndian.AppendUint64(b, w)
	}
	return binary.BigEndian.AppendUint32(b, uint32(marker))
}

// readEWAH reads a bitmap from the front of b, returning its set
// positions and what follows it.
func readEWAH(b []byte) ([]int, []byte, error) {
	if len(b) < 8 {
		return nil, nil, fmt.Errorf("%w: short bitmap", errBad)
	}
	size := int(binary.BigEndian.Uint32(b))
	n := int(binary.BigEndian.Uint32(b[4:]))
	b = b[8:]
	if size > maxEntries {
		return nil, nil, fmt.Errorf("%w: bitmap of %d bits", errBad, size)
	}
	if n > (len(b)-4)/8 {
		return nil, nil, fmt.Errorf("%w: truncated bitmap", errBad)
	}
	words := b[:8*n]
	rest := b[8*n+4:]
	var out []int
	pos := 0
	for k := 0; k < n; {
		m := binary.BigEndian.Uint64(words[8*k:])
		k++
		run := int((m >> 1) & maxRun)
		if pos+64*run > size+64 { // positions only go up to size
			return nil, nil, fmt.Errorf("%w: bitmap runs past its size", errBad)
		}
		if m&1 != 0 {
			for i := 0; i < 64*run; i++ {
				out = append(out, pos+i)
			}
		}
		pos += 64 * run
		lits := int(m >> (1 + runBits))
		if lits > n-k {
			return nil, nil, fmt.Errorf("%w: bitmap literals past its end", errBad)
		}
		for ; lits > 0; lits-- {
			w := binary.BigEndian.Uint64(words[8*k:])
			k++
			for w != 0 {
				out = append(out, pos+bits.TrailingZeros64(w))
				w &= w - 1
			}
			pos += 64
		}
	}
	for _, p := range out {
		if p >= size {
			return nil, nil, fmt.Errorf("%w: bit %d past the bitmap's size %d", errBad, p, size)
		}
	}
	return out, rest, nil
}
