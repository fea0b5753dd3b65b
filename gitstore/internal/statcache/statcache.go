package statcache

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"sort"
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
	// Base, when set, is the shared index Encode writes the cache
	// against: only the entries that differ from it are written (git's
	// split index), so that saving costs what changed since the base.
	Base *Base
}

// SmudgeRacy drops the stat data of the entries racy at c.Written, as
// saving does. A checkpoint calls it before moving Written past entries
// it did not look at again.
func (c *Cache) SmudgeRacy() {
	for i := range c.Entries {
		c.Entries[i] = c.Entries[i].saved(c.Written)
	}
}

// saved is e as a save at written records it: without its stat data
// when it is racy then, as git smudges racily clean entries when it
// writes an index. Otherwise a file changed again within the timestamp
// granularity after it was cached would keep matching its entry once a
// later save, with a later Written, made the entry look settled.
func (e Entry) saved(written int64) Entry {
	if !e.Smudged() && e.Racy(written) {
		e.Stat = Stat{}
	}
	return e
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

// FindFrom is Find for a path known to sort at or after the entry at
// from: it gallops forward from there, so a scan looking up its sorted
// files one by one touches nearby entries instead of searching the whole
// cache, at random, for each.
func (c *Cache) FindFrom(from int, path string) (int, bool) {
	lo, step := from, 1
	hi := lo
	for hi < len(c.Entries) && c.Entries[hi].Path < path {
		lo = hi + 1
		hi += step
		step *= 2
	}
	hi = min(hi, len(c.Entries))
	i := lo + sort.Search(hi-lo, func(i int) bool { return c.Entries[lo+i].Path >= path })
	return i, i < len(c.Entries) && c.Entries[i].Path == path
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
