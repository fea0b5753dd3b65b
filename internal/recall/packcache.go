package recall

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"slices"
	"strconv"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// What a pack derives from the memory (which core titles and which
// sentences a newer statement retires, which to-dos a newer session
// dealt with) is a function of the core titles with their ranks and of
// the summaries of the sessions the pack considers. Checking 5,000 core
// titles costs about a second; the answers are kept in
// .state/packcache.bin, keyed by a hash of those inputs and of the rules
// that decide (rulesVersion and this binary), so a pack whose inputs did
// not change asks the retirer nothing and never builds it. A changed
// input, another binary or a damaged file makes a new cache: never an
// old answer.

// rulesVersion changes when the meaning of a cached answer does.
const rulesVersion = 1

// packCacheFile is the cache under the memory's .state folder.
const packCacheFile = "packcache.bin"

// packCacheMagic opens the file: name and format version.
const packCacheMagic = "cairn-packcache 1\n"

// maxPackCache bounds the file read: larger is taken as damaged.
const maxPackCache = 64 << 20

// retirer answers the pack's questions of a digest.Retirer, from the
// cache when its inputs match, building the retirer only on a miss.
type retirer struct {
	build func() *digest.Retirer
	r     *digest.Retirer
	// done is doneLater for a rank: whether a to-do a statement of that
	// rank states is dealt with or said again by a newer session.
	done  func(rank int) func(string) bool
	key   [sha256.Size]byte
	memo  map[string]string
	added int // answers computed now, not found in the cache
}

// Kinds of answer, the first byte of a memo key.
const (
	askRetired      = 'R'
	askDropRetired  = 'D'
	askDropAsked    = 'A'
	askSessionTitle = 'T'
	askDropDone     = 'd'
	askTodoDone     = 't'
)

func (c *retirer) ask(kind byte, text string, rank int, compute func(*digest.Retirer) string) string {
	k := string(kind) + strconv.Itoa(rank) + "\x00" + text
	if v, ok := c.memo[k]; ok {
		return v
	}
	if c.r == nil && kind != askDropDone && kind != askTodoDone {
		c.r = c.build()
	}
	v := compute(c.r)
	c.memo[k] = v
	c.added++
	return v
}

// Retired is digest.Retirer.Retired.
func (c *retirer) Retired(x string, rank int) bool {
	return c.ask(askRetired, x, rank, func(r *digest.Retirer) string {
		if r.Retired(x, rank) {
			return "1"
		}
		return ""
	}) != ""
}

// DropRetired is digest.Retirer.DropRetired.
func (c *retirer) DropRetired(s string, rank int) string {
	return c.ask(askDropRetired, s, rank, func(r *digest.Retirer) string { return r.DropRetired(s, rank) })
}

// DropRetiredAsked is digest.Retirer.DropRetiredAsked.
func (c *retirer) DropRetiredAsked(s string, rank int) string {
	return c.ask(askDropAsked, s, rank, func(r *digest.Retirer) string { return r.DropRetiredAsked(s, rank) })
}

// Title is digest.Retirer.Title.
func (c *retirer) Title(title string, rank int) string {
	return c.ask(askSessionTitle, title, rank, func(r *digest.Retirer) string { return r.Title(title, rank) })
}

// DropDone is digest.DropDone of s with what rank's doneLater says.
func (c *retirer) DropDone(rank int, s string) string {
	return c.ask(askDropDone, s, rank, func(*digest.Retirer) string { return digest.DropDone(s, c.done(rank)) })
}

// TodoDone reports whether title states work to do that a session newer
// than rank dealt with.
func (c *retirer) TodoDone(rank int, title string) bool {
	return c.ask(askTodoDone, title, rank, func(*digest.Retirer) string {
		if digest.IsTodo(title) && c.done(rank)(title) {
			return "1"
		}
		return ""
	}) != ""
}

// newRetirer returns the pack's retirer of the core statements and the
// summaries sums, with the answers m's cache holds for exactly these
// inputs.
func newRetirer(m *memory.Memory, core []digest.Statement, sums []*digest.Summary, done func(rank int) func(string) bool) *retirer {
	c := &retirer{build: func() *digest.Retirer { return digest.NewRetirer(core, sums) }, done: done, key: retirerKey(core, sums)}
	c.memo = readPackCache(m, c.key)
	if c.memo == nil {
		c.memo = make(map[string]string)
	}
	return c
}

// save writes the answers back when this pack computed any: the next
// pack of the same inputs finds them all. A cache that cannot be written
// costs the next pack time, nothing else: it is said on stderr.
func (c *retirer) save(m *memory.Memory) {
	if c.added == 0 {
		return
	}
	var b bytes.Buffer
	b.WriteString(packCacheMagic)
	b.Write(c.key[:])
	var body bytes.Buffer
	var n [binary.MaxVarintLen64]byte
	for _, k := range slices.Sorted(maps.Keys(c.memo)) { // the same answers, the same file
		v := c.memo[k]
		body.Write(n[:binary.PutUvarint(n[:], uint64(len(k)))])
		body.WriteString(k)
		body.Write(n[:binary.PutUvarint(n[:], uint64(len(v)))])
		body.WriteString(v)
	}
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], crc32.ChecksumIEEE(body.Bytes()))
	b.Write(sum[:])
	b.Write(body.Bytes())
	// Derived and checked when read: a crash that damages it costs one
	// rebuild, so it is not synced.
	if err := safefile.WriteSync(m.StatePath(packCacheFile), b.Bytes(), 0o600, safefile.SyncNone); err != nil {
		m.Warn(fmt.Sprintf("context: keep the pack cache: %v", err))
	}
}

// readPackCache returns the answers in m's cache if it was made for key;
// nil when there is none, it is for other inputs, or it is damaged (said
// once on stderr: it is rebuilt).
func readPackCache(m *memory.Memory, key [sha256.Size]byte) map[string]string {
	data, err := os.ReadFile(m.StatePath(packCacheFile))
	if err != nil {
		return nil
	}
	memo, err := parsePackCache(data, key)
	if err != nil {
		m.Warn(fmt.Sprintf("context: %s is damaged (%v); rebuilt", packCacheFile, err))
		return nil
	}
	return memo
}

var errPackCache = errors.New("not a pack cache this version wrote whole")

// parsePackCache reads a cache file's content; nil and no error when it
// was made for another key.
func parsePackCache(data []byte, key [sha256.Size]byte) (map[string]string, error) {
	if len(data) > maxPackCache || !bytes.HasPrefix(data, []byte(packCacheMagic)) || len(data) < len(packCacheMagic)+sha256.Size+4 {
		return nil, errPackCache
	}
	data = data[len(packCacheMagic):]
	if !bytes.Equal(data[:sha256.Size], key[:]) {
		return nil, nil
	}
	sum := binary.BigEndian.Uint32(data[sha256.Size:])
	body := data[sha256.Size+4:]
	if crc32.ChecksumIEEE(body) != sum {
		return nil, fmt.Errorf("%w: checksum", errPackCache)
	}
	memo := make(map[string]string)
	next := func() (string, bool) {
		l, n := binary.Uvarint(body)
		if n <= 0 || uint64(len(body)-n) < l {
			return "", false
		}
		s := string(body[n : n+int(l)])
		body = body[n+int(l):]
		return s, true
	}
	for len(body) > 0 {
		k, ok := next()
		if !ok {
			return nil, fmt.Errorf("%w: cut short", errPackCache)
		}
		v, ok := next()
		if !ok {
			return nil, fmt.Errorf("%w: cut short", errPackCache)
		}
		memo[k] = v
	}
	return memo, nil
}

// retirerKey hashes what decides every answer: the rules (rulesVersion
// and this binary) and the inputs, exactly as NewRetirer and doneLater
// read them: the statements, and each summary's parts and open items.
func retirerKey(core []digest.Statement, sums []*digest.Summary) [sha256.Size]byte {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	str := func(s string) {
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	num := func(i int) { h.Write(n[:binary.PutVarint(n[:], int64(i))]) }
	num(rulesVersion)
	str(binaryID())
	num(len(core))
	for _, c := range core {
		str(c.Text)
		num(c.Rank)
	}
	num(len(sums))
	for _, d := range sums {
		for _, bullets := range append(d.Parts[:], d.Open) {
			num(len(bullets))
			for _, b := range bullets {
				str(b)
			}
		}
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}

// binaryID names the running program's build: its path, size and time,
// so that a rebuilt binary (with other selection code) never reads the
// answers of an older one.
func binaryID() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	return fmt.Sprintf("%s %d %d", exe, fi.Size(), fi.ModTime().UnixNano())
}
