package statcache

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Encode writes the cache in git's index format, version 2. It returns the
// cache file, which carries the cache's own data in an optional extension,
// and the git index, which does not (git would drop the unknown extension
// when it rewrites the index). The two share their entries. With a Base,
// both are split indexes: the entries that differ from the base, and a
// link extension naming it.
func (c *Cache) Encode() (cacheFile []byte, gitIndex [][]byte) {
	token := c.Monitor
	if token == "" {
		token = "-"
	}
	ext := fmt.Sprintf("%s %d %s", c.Head.String(), c.Written, token)
	var b []byte
	if c.Base == nil {
		b = appendEntries(nil, c.Entries, c.Written, len(ext)+8+2*sha1.Size)
	} else {
		b = c.appendSplit(len(ext) + 8 + 2*sha1.Size)
	}
	h := sha1.New()
	h.Write(b)
	gitSum := h.Sum(nil)
	common := len(b)
	b = append(b, cacheExtension...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(ext)))
	b = append(b, ext...)
	h.Write(b[common:])
	b = h.Sum(b)
	return b, [][]byte{b[:common], gitSum}
}

// appendEntries starts an index holding entries as saved at written,
// with room for extra more bytes.
func appendEntries(b []byte, entries []Entry, written int64, extra int) []byte {
	size := 12 + extra
	for i := range entries {
		size += (entryFixedLen + len(entries[i].Path) + 8) &^ 7
	}
	b = append(make([]byte, 0, len(b)+size), b...)
	b = append(b, indexSignature...)
	b = binary.BigEndian.AppendUint32(b, 2)
	b = binary.BigEndian.AppendUint32(b, uint32(len(entries)))
	for i := range entries {
		e := entries[i].saved(written)
		b = appendEntry(b, &e)
	}
	return b
}

func appendEntry(b []byte, e *Entry) []byte {
	start := len(b)
	for _, v := range [...]uint32{e.CtimeS, e.CtimeN, e.MtimeS, e.MtimeN, e.Dev, e.Ino, e.Mode, e.UID, e.GID, e.Size} {
		b = binary.BigEndian.AppendUint32(b, v)
	}
	b = append(b, e.Hash[:]...)
	n := len(e.Path)
	if n > 0xfff {
		n = 0xfff
	}
	b = binary.BigEndian.AppendUint16(b, uint16(n))
	b = append(b, e.Path...)
	pad := 8 - (len(b)-start)%8
	return append(b, make([]byte, pad)...)
}

// Decode reads a stat cache written by Encode. It also reads a plain
// git index (version 2 or 3, stage 0 entries only), in which case the head
// is zero. A split cache is read with its base, which base returns from
// the base's checksum; the decoded cache keeps it as its Base.
func Decode(b []byte, base func(sum plumbing.Hash) (*Base, error)) (*Cache, error) {
	c, link, err := decode(b)
	if err != nil {
		return nil, err
	}
	if link == nil {
		if err := checkOrder(c.Entries); err != nil {
			return nil, err
		}
		return c, nil
	}
	if base == nil {
		return nil, fmt.Errorf("%w: split index with no base to read", errBad)
	}
	bs, err := base(link.base)
	if err != nil {
		return nil, fmt.Errorf("read base %s of split index: %w", link.base, err)
	}
	if bs.Sum != link.base {
		return nil, fmt.Errorf("%w: base %s read as %s", errBad, link.base, bs.Sum)
	}
	if c.Entries, err = link.merge(bs.Entries, c.Entries); err != nil {
		return nil, err
	}
	c.Base = bs
	return c, nil
}

// DecodeBase reads a base written by NewBase (or a shared index git
// wrote): a plain index named by its checksum.
func DecodeBase(b []byte) (*Base, error) {
	c, link, err := decode(b)
	if err != nil {
		return nil, err
	}
	if link != nil {
		return nil, fmt.Errorf("%w: a base that is itself split", errBad)
	}
	if err := checkOrder(c.Entries); err != nil {
		return nil, err
	}
	bs := &Base{Entries: c.Entries}
	copy(bs.Sum[:], b[len(b)-sha1.Size:])
	return bs, nil
}

func checkOrder(es []Entry) error {
	for k := 1; k < len(es); k++ {
		if es[k-1].Path >= es[k].Path {
			return fmt.Errorf("%w: entries out of order at %q", errBad, es[k].Path)
		}
	}
	return nil
}

// decode reads an index's entries, in file order, and its extensions.
func decode(b []byte) (*Cache, *link, error) {
	if len(b) < 12+20 || string(b[:4]) != indexSignature {
		return nil, nil, fmt.Errorf("%w: not an index file", errBad)
	}
	body, sum := b[:len(b)-20], b[len(b)-20:]
	if got := sha1.Sum(body); !bytes.Equal(got[:], sum) {
		return nil, nil, fmt.Errorf("%w: checksum mismatch", errBad)
	}
	version := binary.BigEndian.Uint32(body[4:])
	if version != 2 && version != 3 {
		return nil, nil, fmt.Errorf("%w: index version %d", errBad, version)
	}
	n := int(binary.BigEndian.Uint32(body[8:]))
	if n > len(body)/entryFixedLen {
		return nil, nil, fmt.Errorf("%w: %d entries in %d bytes", errBad, n, len(body))
	}
	c := &Cache{Entries: make([]Entry, 0, n)}
	off := 12
	for i := 0; i < n; i++ {
		if off+entryFixedLen > len(body) {
			return nil, nil, fmt.Errorf("%w: truncated entry %d", errBad, i)
		}
		p := body[off:]
		var e Entry
		u := func(k int) uint32 { return binary.BigEndian.Uint32(p[4*k:]) }
		e.CtimeS, e.CtimeN, e.MtimeS, e.MtimeN = u(0), u(1), u(2), u(3)
		e.Dev, e.Ino, e.Mode, e.UID, e.GID, e.Size = u(4), u(5), u(6), u(7), u(8), u(9)
		copy(e.Hash[:], p[40:60])
		flags := binary.BigEndian.Uint16(p[60:])
		fixed := entryFixedLen
		if flags&0x4000 != 0 { // extended flags (version 3)
			fixed += 2
		}
		end := bytes.IndexByte(body[off+fixed:], 0)
		if end < 0 {
			return nil, nil, fmt.Errorf("%w: unterminated path in entry %d", errBad, i)
		}
		e.Path = string(body[off+fixed : off+fixed+end])
		entLen := (fixed + end + 8) &^ 7
		if off+entLen > len(body) {
			return nil, nil, fmt.Errorf("%w: truncated entry %d", errBad, i)
		}
		off += entLen
		if stage := (flags >> 12) & 3; stage != 0 {
			continue
		}
		c.Entries = append(c.Entries, e)
	}
	var lk *link
	for off+8 <= len(body) {
		sig := string(body[off : off+4])
		l := int(binary.BigEndian.Uint32(body[off+4:]))
		off += 8
		if l > len(body)-off {
			return nil, nil, fmt.Errorf("%w: truncated extension %q", errBad, sig)
		}
		data := body[off : off+l]
		switch sig {
		case cacheExtension:
			if err := c.decodeExtension(data); err != nil {
				return nil, nil, err
			}
		case linkExtension:
			var err error
			if lk, err = decodeLink(data); err != nil {
				return nil, nil, err
			}
		}
		off += l
	}
	return c, lk, nil
}

func (c *Cache) decodeExtension(data []byte) error {
	f := strings.Fields(string(data))
	if len(f) != 2 && len(f) != 3 {
		return fmt.Errorf("%w: bad %s extension", errBad, cacheExtension)
	}
	if len(f) == 3 && f[2] != "-" {
		c.Monitor = f[2]
	}
	h, err := hex.DecodeString(f[0])
	if err != nil || len(h) != 20 {
		return fmt.Errorf("%w: bad head in %s extension", errBad, cacheExtension)
	}
	copy(c.Head[:], h)
	if c.Written, err = strconv.ParseInt(f[1], 10, 64); err != nil {
		return fmt.Errorf("%w: bad time in %s extension", errBad, cacheExtension)
	}
	return nil
}
