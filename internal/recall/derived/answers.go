package derived

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"maps"
	"os"
	"slices"
	"strconv"

	"github.com/cairn-mem/cairn/internal/anchor"
	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// rulesVersion changes when the meaning of a cached answer does.
const rulesVersion = 3

// File is the cache under the memory's .state folder.
const File = "packcache.bin"

// magic opens the file: name and format version.
const magic = "cairn-packcache 1\n"

// maxCache bounds the file read: larger is taken as damaged.
const maxCache = 64 << 20

// A Retirer answers a pack's questions of a digest.Retirer and of its
// to-dos, from the cache when its inputs match, building the retirer only
// on a miss. It serves one pack, in one goroutine.
type Retirer struct {
	build func() *digest.Retirer
	r     *digest.Retirer
	// v and sums answer, for a rank, whether a to-do a statement of
	// that rank states was dealt with or said again by a newer session
	// (Vocab.DoneLater) and whether a problem it tells a newer session
	// fixed (Vocab.FixedLater).
	v     *digest.Vocab
	sums  []*digest.Summary
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

func (c *Retirer) ask(kind byte, text string, rank int, compute func(*digest.Retirer) string) string {
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
func (c *Retirer) Retired(x string, rank int) bool {
	return c.ask(askRetired, x, rank, func(r *digest.Retirer) string {
		if r.Retired(x, rank) {
			return "1"
		}
		return ""
	}) != ""
}

// DropRetired is digest.Retirer.DropRetired.
func (c *Retirer) DropRetired(s string, rank int) string {
	return c.ask(askDropRetired, s, rank, func(r *digest.Retirer) string { return r.DropRetired(s, rank) })
}

// DropRetiredAsked is digest.Retirer.DropRetiredAsked.
func (c *Retirer) DropRetiredAsked(s string, rank int) string {
	return c.ask(askDropAsked, s, rank, func(r *digest.Retirer) string { return r.DropRetiredAsked(s, rank) })
}

// Title is digest.Retirer.Title.
func (c *Retirer) Title(title string, rank int) string {
	return c.ask(askSessionTitle, title, rank, func(r *digest.Retirer) string { return r.Title(title, rank) })
}

// DropDone is s without the to-dos a newer session dealt with
// (digest.DropDone) and the problems a newer session fixed
// (digest.DropFixed).
func (c *Retirer) DropDone(rank int, s string) string {
	return c.ask(askDropDone, s, rank, func(*digest.Retirer) string {
		return digest.DropFixed(digest.DropDone(s, c.v.DoneLater(c.sums, rank)), c.v.FixedLater(c.sums, rank))
	})
}

// TodoDone reports whether title states work to do that a session newer
// than rank dealt with.
func (c *Retirer) TodoDone(rank int, title string) bool {
	return c.ask(askTodoDone, title, rank, func(*digest.Retirer) string {
		if digest.IsTodo(title) && c.v.DoneLater(c.sums, rank)(title) {
			return "1"
		}
		return ""
	}) != ""
}

// CheckStale brings the check of what the code changed under (package
// anchor) up to the memory's and the project's HEADs; anchor.Check
// answers from its report when that is there already. Packs never run
// it: they show what the last check found (anchor.Known). A long-running
// process (the daemon) calls it in the background.
func CheckStale(ctx context.Context, m *memory.Memory) error {
	_, err := anchor.Check(ctx, m)
	return err
}

// New returns the pack's Retirer of the core statements and the
// summaries sums (digest.NewRetirer's inputs, newest summary first), v
// their vocabulary, with the answers m's cache holds for exactly these
// inputs.
func New(m *memory.Memory, core []digest.Statement, sums []*digest.Summary, v *digest.Vocab) *Retirer {
	c := &Retirer{build: func() *digest.Retirer { return digest.NewRetirer(core, sums) }, v: v, sums: sums, key: retirerKey(core, sums)}
	c.memo = readCache(m, c.key)
	if c.memo == nil {
		c.memo = make(map[string]string)
	}
	return c
}

// Save writes the answers back when this pack computed any: the next
// pack of the same inputs finds them all. A cache that cannot be written
// costs the next pack time, nothing else: it is said on stderr.
func (c *Retirer) Save(m *memory.Memory) {
	if c.added == 0 {
		return
	}
	var b bytes.Buffer
	b.WriteString(magic)
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
	if err := safefile.WriteSync(m.StatePath(File), b.Bytes(), 0o600, safefile.SyncNone); err != nil {
		m.Warn(fmt.Sprintf("context: keep the pack cache: %v", err))
	}
}

// readCache returns the answers in m's cache if it was made for key;
// nil when there is none, it is for other inputs, or it is damaged (said
// once on stderr: it is rebuilt).
func readCache(m *memory.Memory, key [sha256.Size]byte) map[string]string {
	data, err := os.ReadFile(m.StatePath(File))
	if err != nil {
		return nil
	}
	memo, err := parseCache(data, key)
	if err != nil {
		m.Warn(fmt.Sprintf("context: %s is damaged (%v); rebuilt", File, err))
		return nil
	}
	return memo
}

var errCache = errors.New("not a pack cache this version wrote whole")

// parseCache reads a cache file's content; nil and no error when it
// was made for another key.
func parseCache(data []byte, key [sha256.Size]byte) (map[string]string, error) {
	if len(data) > maxCache || !bytes.HasPrefix(data, []byte(magic)) || len(data) < len(magic)+sha256.Size+4 {
		return nil, errCache
	}
	data = data[len(magic):]
	if !bytes.Equal(data[:sha256.Size], key[:]) {
		return nil, nil
	}
	sum := binary.BigEndian.Uint32(data[sha256.Size:])
	body := data[sha256.Size+4:]
	if crc32.ChecksumIEEE(body) != sum {
		return nil, fmt.Errorf("%w: checksum", errCache)
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
			return nil, fmt.Errorf("%w: cut short", errCache)
		}
		v, ok := next()
		if !ok {
			return nil, fmt.Errorf("%w: cut short", errCache)
		}
		memo[k] = v
	}
	return memo, nil
}

// retirerKey hashes what decides every answer: the rules (rulesVersion
// and this binary) and the inputs, exactly as NewRetirer and Vocab.DoneLater
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
