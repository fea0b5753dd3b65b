package gitstore

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// entry is one record of the stat cache: a tracked path, the blob it holds
// at HEAD and the stat data of the work-tree file when it last held that
// blob. Its fields are those of a git index (version 2) entry, so the cache
// can be written as .git/index unchanged.
type entry struct {
	path string
	hash plumbing.Hash
	mode uint32 // git mode: 0100644, 0100755 or 0120000
	stat
}

// stat is what a stat cache entry keeps of a file's stat data, truncated
// to 32 bits as git keeps it.
type stat struct {
	ctimeS, ctimeN uint32
	mtimeS, mtimeN uint32
	dev, ino       uint32
	uid, gid       uint32
	size           uint32
}

// smudged reports whether the entry carries no usable stat data, so the
// file must be hashed to know whether it changed.
func (e *entry) smudged() bool { return e.mtimeS == 0 && e.mtimeN == 0 && e.size == 0 && e.ino == 0 }

// cache is the decoded stat cache: entries sorted by path, and the commit
// they describe.
type cache struct {
	head    plumbing.Hash // commit whose tree the entries equal
	written int64         // unix nanoseconds when the cache was written (racy-git check)
	monitor string        // the Monitor token the entries are up to date with, if any
	entries []entry
}

const (
	indexSignature = "DIRC"
	cacheExtension = "CAIR" // upper-case first letter: optional, git ignores it
	entryFixedLen  = 62
)

var errBadCache = errors.New("bad stat cache")

func (c *cache) find(path string) (int, bool) {
	i := sort.Search(len(c.entries), func(i int) bool { return c.entries[i].path >= path })
	return i, i < len(c.entries) && c.entries[i].path == path
}

// encode writes the cache in git's index format, version 2. It returns the
// cache file, which carries the cache's own data in an optional extension,
// and the git index, which does not (git would warn about the unknown
// extension). The two share their entries.
func (c *cache) encode() (cacheFile []byte, gitIndex [][]byte) {
	token := c.monitor
	if token == "" {
		token = "-"
	}
	ext := fmt.Sprintf("%s %d %s", c.head.String(), c.written, token)
	size := 12 + 8 + len(ext) + 2*sha1.Size
	for i := range c.entries {
		size += (entryFixedLen + len(c.entries[i].path) + 8) &^ 7
	}
	b := make([]byte, 0, size)
	b = append(b, indexSignature...)
	b = binary.BigEndian.AppendUint32(b, 2)
	b = binary.BigEndian.AppendUint32(b, uint32(len(c.entries)))
	for i := range c.entries {
		e := &c.entries[i]
		start := len(b)
		for _, v := range [...]uint32{e.ctimeS, e.ctimeN, e.mtimeS, e.mtimeN, e.dev, e.ino, e.mode, e.uid, e.gid, e.size} {
			b = binary.BigEndian.AppendUint32(b, v)
		}
		b = append(b, e.hash[:]...)
		n := len(e.path)
		if n > 0xfff {
			n = 0xfff
		}
		b = binary.BigEndian.AppendUint16(b, uint16(n))
		b = append(b, e.path...)
		pad := 8 - (len(b)-start)%8
		b = append(b, make([]byte, pad)...)
	}
	h := sha1.New()
	h.Write(b)
	gitSum := h.Sum(nil)
	entries := len(b)
	b = append(b, cacheExtension...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(ext)))
	b = append(b, ext...)
	h.Write(b[entries:])
	b = h.Sum(b)
	return b, [][]byte{b[:entries], gitSum}
}

// decodeCache reads a stat cache written by encode. It also reads a plain
// git index (version 2 or 3, stage 0 entries only), in which case the head
// is zero.
func decodeCache(b []byte) (*cache, error) {
	if len(b) < 12+20 || string(b[:4]) != indexSignature {
		return nil, fmt.Errorf("%w: not an index file", errBadCache)
	}
	body, sum := b[:len(b)-20], b[len(b)-20:]
	if got := sha1.Sum(body); !bytes.Equal(got[:], sum) {
		return nil, fmt.Errorf("%w: checksum mismatch", errBadCache)
	}
	version := binary.BigEndian.Uint32(body[4:])
	if version != 2 && version != 3 {
		return nil, fmt.Errorf("%w: index version %d", errBadCache, version)
	}
	n := int(binary.BigEndian.Uint32(body[8:]))
	if n > len(body)/entryFixedLen {
		return nil, fmt.Errorf("%w: %d entries in %d bytes", errBadCache, n, len(body))
	}
	c := &cache{entries: make([]entry, 0, n)}
	off := 12
	for i := 0; i < n; i++ {
		if off+entryFixedLen > len(body) {
			return nil, fmt.Errorf("%w: truncated entry %d", errBadCache, i)
		}
		p := body[off:]
		var e entry
		u := func(k int) uint32 { return binary.BigEndian.Uint32(p[4*k:]) }
		e.ctimeS, e.ctimeN, e.mtimeS, e.mtimeN = u(0), u(1), u(2), u(3)
		e.dev, e.ino, e.mode, e.uid, e.gid, e.size = u(4), u(5), u(6), u(7), u(8), u(9)
		copy(e.hash[:], p[40:60])
		flags := binary.BigEndian.Uint16(p[60:])
		fixed := entryFixedLen
		if flags&0x4000 != 0 { // extended flags (version 3)
			fixed += 2
		}
		end := bytes.IndexByte(body[off+fixed:], 0)
		if end < 0 {
			return nil, fmt.Errorf("%w: unterminated path in entry %d", errBadCache, i)
		}
		e.path = string(body[off+fixed : off+fixed+end])
		entLen := (fixed + end + 8) &^ 7
		if off+entLen > len(body) {
			return nil, fmt.Errorf("%w: truncated entry %d", errBadCache, i)
		}
		off += entLen
		if stage := (flags >> 12) & 3; stage != 0 {
			continue
		}
		if k := len(c.entries); k > 0 && c.entries[k-1].path >= e.path {
			return nil, fmt.Errorf("%w: entries out of order at %q", errBadCache, e.path)
		}
		c.entries = append(c.entries, e)
	}
	for off+8 <= len(body) {
		sig := string(body[off : off+4])
		l := int(binary.BigEndian.Uint32(body[off+4:]))
		off += 8
		if l > len(body)-off {
			return nil, fmt.Errorf("%w: truncated extension %q", errBadCache, sig)
		}
		if sig == cacheExtension {
			f := strings.Fields(string(body[off : off+l]))
			if len(f) == 3 && f[2] != "-" {
				c.monitor = f[2]
			}
			if len(f) != 2 && len(f) != 3 {
				return nil, fmt.Errorf("%w: bad %s extension", errBadCache, cacheExtension)
			}
			h, err := hex.DecodeString(f[0])
			if err != nil || len(h) != 20 {
				return nil, fmt.Errorf("%w: bad head in %s extension", errBadCache, cacheExtension)
			}
			copy(c.head[:], h)
			if c.written, err = strconv.ParseInt(f[1], 10, 64); err != nil {
				return nil, fmt.Errorf("%w: bad time in %s extension", errBadCache, cacheExtension)
			}
		}
		off += l
	}
	return c, nil
}
