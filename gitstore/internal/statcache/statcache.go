package statcache

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"golang.org/x/sys/unix"
)

// Entry is one record of the stat cache: a tracked path, the blob it holds
// at HEAD and the stat data of the work-tree file when it last held that
// blob. Its fields are those of a git index (version 2) entry, so the cache
// can be written as .git/index unchanged.
type Entry struct {
	Path string
	Hash plumbing.Hash
	Mode uint32 // git mode: 0100644, 0100755 or 0120000
	Stat
}

// Stat is what a stat cache entry keeps of a file's stat data, truncated
// to 32 bits as git keeps it.
type Stat struct {
	CtimeS, CtimeN uint32
	MtimeS, MtimeN uint32
	Dev, Ino       uint32
	UID, GID       uint32
	Size           uint32
}

// Smudged reports whether the entry carries no usable stat data, so the
// file must be hashed to know whether it changed.
func (e *Entry) Smudged() bool { return e.MtimeS == 0 && e.MtimeN == 0 && e.Size == 0 && e.Ino == 0 }

// Cache is the decoded stat cache: entries sorted by path, and the commit
// they describe.
type Cache struct {
	Head    plumbing.Hash // commit whose tree the entries equal
	Written int64         // unix nanoseconds when the cache was written (racy-git check)
	Monitor string        // the Monitor token the entries are up to date with, if any
	Entries []Entry
}

const (
	indexSignature = "DIRC"
	cacheExtension = "CAIR" // upper-case first letter: optional, git ignores it
	entryFixedLen  = 62
)

// racyWindow: a file whose mtime is this close to (or after) the moment
// its stat was cached may have changed again within the file system's
// timestamp granularity, so it is hashed rather than trusted.
const racyWindow = int64(2e9)

var errBad = errors.New("bad stat cache")

// Find returns the index of the entry for path, or where it would be
// inserted, and whether it is there.
func (c *Cache) Find(path string) (int, bool) {
	i := sort.Search(len(c.Entries), func(i int) bool { return c.Entries[i].Path >= path })
	return i, i < len(c.Entries) && c.Entries[i].Path == path
}

// Encode writes the cache in git's index format, version 2. It returns the
// cache file, which carries the cache's own data in an optional extension,
// and the git index, which does not (git would warn about the unknown
// extension). The two share their entries.
func (c *Cache) Encode() (cacheFile []byte, gitIndex [][]byte) {
	token := c.Monitor
	if token == "" {
		token = "-"
	}
	ext := fmt.Sprintf("%s %d %s", c.Head.String(), c.Written, token)
	size := 12 + 8 + len(ext) + 2*sha1.Size
	for i := range c.Entries {
		size += (entryFixedLen + len(c.Entries[i].Path) + 8) &^ 7
	}
	b := make([]byte, 0, size)
	b = append(b, indexSignature...)
	b = binary.BigEndian.AppendUint32(b, 2)
	b = binary.BigEndian.AppendUint32(b, uint32(len(c.Entries)))
	for i := range c.Entries {
		e := &c.Entries[i]
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

// Decode reads a stat cache written by Encode. It also reads a plain
// git index (version 2 or 3, stage 0 entries only), in which case the head
// is zero.
func Decode(b []byte) (*Cache, error) {
	if len(b) < 12+20 || string(b[:4]) != indexSignature {
		return nil, fmt.Errorf("%w: not an index file", errBad)
	}
	body, sum := b[:len(b)-20], b[len(b)-20:]
	if got := sha1.Sum(body); !bytes.Equal(got[:], sum) {
		return nil, fmt.Errorf("%w: checksum mismatch", errBad)
	}
	version := binary.BigEndian.Uint32(body[4:])
	if version != 2 && version != 3 {
		return nil, fmt.Errorf("%w: index version %d", errBad, version)
	}
	n := int(binary.BigEndian.Uint32(body[8:]))
	if n > len(body)/entryFixedLen {
		return nil, fmt.Errorf("%w: %d entries in %d bytes", errBad, n, len(body))
	}
	c := &Cache{Entries: make([]Entry, 0, n)}
	off := 12
	for i := 0; i < n; i++ {
		if off+entryFixedLen > len(body) {
			return nil, fmt.Errorf("%w: truncated entry %d", errBad, i)
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
			return nil, fmt.Errorf("%w: unterminated path in entry %d", errBad, i)
		}
		e.Path = string(body[off+fixed : off+fixed+end])
		entLen := (fixed + end + 8) &^ 7
		if off+entLen > len(body) {
			return nil, fmt.Errorf("%w: truncated entry %d", errBad, i)
		}
		off += entLen
		if stage := (flags >> 12) & 3; stage != 0 {
			continue
		}
		if k := len(c.Entries); k > 0 && c.Entries[k-1].Path >= e.Path {
			return nil, fmt.Errorf("%w: entries out of order at %q", errBad, e.Path)
		}
		c.Entries = append(c.Entries, e)
	}
	for off+8 <= len(body) {
		sig := string(body[off : off+4])
		l := int(binary.BigEndian.Uint32(body[off+4:]))
		off += 8
		if l > len(body)-off {
			return nil, fmt.Errorf("%w: truncated extension %q", errBad, sig)
		}
		if sig == cacheExtension {
			f := strings.Fields(string(body[off : off+l]))
			if len(f) == 3 && f[2] != "-" {
				c.Monitor = f[2]
			}
			if len(f) != 2 && len(f) != 3 {
				return nil, fmt.Errorf("%w: bad %s extension", errBad, cacheExtension)
			}
			h, err := hex.DecodeString(f[0])
			if err != nil || len(h) != 20 {
				return nil, fmt.Errorf("%w: bad head in %s extension", errBad, cacheExtension)
			}
			copy(c.Head[:], h)
			if c.Written, err = strconv.ParseInt(f[1], 10, 64); err != nil {
				return nil, fmt.Errorf("%w: bad time in %s extension", errBad, cacheExtension)
			}
		}
		off += l
	}
	return c, nil
}

// StatOf keeps what an entry keeps of st, as git does.
func StatOf(st *unix.Stat_t) Stat {
	return Stat{
		CtimeS: uint32(st.Ctim.Sec), CtimeN: uint32(st.Ctim.Nsec),
		MtimeS: uint32(st.Mtim.Sec), MtimeN: uint32(st.Mtim.Nsec),
		Dev: uint32(st.Dev), Ino: uint32(st.Ino),
		UID: st.Uid, GID: st.Gid, Size: uint32(st.Size),
	}
}

// Matches compares what git compares by default; the device is left out,
// as git leaves it out, since it can change across mounts.
func (a *Stat) Matches(b *Stat) bool {
	return a.MtimeS == b.MtimeS && a.MtimeN == b.MtimeN && a.CtimeS == b.CtimeS && a.CtimeN == b.CtimeN &&
		a.Ino == b.Ino && a.Size == b.Size && a.UID == b.UID && a.GID == b.GID
}

// Racy reports whether e's stat data cannot be trusted to say the file
// is unchanged, in a cache written at written (unix nanoseconds): it has
// none, or the file's mtime is within racyWindow of the write.
func (e *Entry) Racy(written int64) bool {
	if e.Smudged() {
		return true
	}
	m := int64(e.MtimeS)*1e9 + int64(e.MtimeN)
	return m >= written-racyWindow
}

// HeadOfTail returns the commit a cache file describes from its last
// bytes (a few hundred are enough), without reading its entries, so that
// a reader can tell cheaply whether the cache, and the .git/index saved
// with it, lag behind HEAD. ok is false when the tail holds no cache
// extension.
func HeadOfTail(tail []byte) (head plumbing.Hash, ok bool) {
	if len(tail) < 20+8 {
		return head, false
	}
	body := tail[:len(tail)-20]
	for i := bytes.LastIndex(body, []byte(cacheExtension)); i >= 0; i = bytes.LastIndex(body[:i], []byte(cacheExtension)) {
		if i+8 > len(body) || i+8+int(binary.BigEndian.Uint32(body[i+4:])) != len(body) {
			continue
		}
		f := strings.Fields(string(body[i+8:]))
		if len(f) < 2 {
			return head, false
		}
		h, err := hex.DecodeString(f[0])
		if err != nil || len(h) != len(head) {
			return head, false
		}
		copy(head[:], h)
		return head, true
	}
	return head, false
}

// HeadOfFile reads the commit the stat cache file name describes from its
// last bytes, without reading its entries; zero when it cannot tell.
func HeadOfFile(name string) plumbing.Hash {
	f, err := os.Open(name)
	if err != nil {
		return plumbing.ZeroHash
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return plumbing.ZeroHash
	}
	n := min(fi.Size(), 4096)
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, fi.Size()-n); err != nil {
		return plumbing.ZeroHash
	}
	h, _ := HeadOfTail(buf)
	return h
}
