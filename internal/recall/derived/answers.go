package derived

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-mem/cairn/internal/anchor"
	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/open"
	"github.com/cairn-mem/cairn/internal/digest/retire"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// rulesVersion changes when the meaning of a cached answer does.
const rulesVersion = 5

// The caches under the memory's .state folder: the retirer's answers,
// the to-dos' answers, and the readings of statement texts.
const (
	File         = "packcache.bin"
	TodoFile     = "packcache-todo.bin"
	ReadingsFile = "readings.bin"
)

// magic opens the file: name and format version.
const magic = "cairn-packcache 1\n"

// maxCache bounds a cache file, written and read: a file larger was not
// written by this version, and is made again (said once, on stderr).
// Writers keep under it (keepUnder).
const maxCache = 64 << 20

// maxBody is the most a cache's body may hold: maxCache less the header.
const maxBody = maxCache - len(magic) - sha256.Size - 4

// A Retirer answers a pack's questions of a retire.Retirer and of its
// to-dos, from the cache when its inputs match, building the retirer only
// on a miss. It serves one pack, in one goroutine.
type Retirer struct {
	build func() *retire.Retirer
	r     *retire.Retirer
	// v and sums answer, for a rank, whether a to-do a statement of
	// that rank states was dealt with or said again by a newer session
	// (Vocab.DoneLater) and whether a problem it tells a newer session
	// fixed (Vocab.FixedLater).
	v    *open.Vocab
	sums []*digest.Summary
	// memo holds the answers of the retirer, for key (all the inputs);
	// todo those of the to-dos, for todoKey (the summaries only): a
	// checkpoint that adds a core item keeps the to-dos' answers.
	key, todoKey   [sha256.Size]byte
	memo, todo     map[string]string
	added, addTodo int // answers computed now, not found in the caches
	// rd are the readings of statement texts the retirer takes instead
	// of reading them (retire.Readings), loaded when it is built.
	rd *retire.Readings
	// traces are what this pack's answers read of the retirer, computed
	// or carried; old the trace file's answers, read on the first
	// answer not in memo, and carry which of them stand (nil when they
	// are of these very inputs); sources the retirer's statements.
	m       *memory.Memory
	traces  map[string]traced
	old     *carried
	oldRead bool
	carry   *carry
	sources []retire.Source
	counts  *counts // df and distinct, when the carry was made without the retirer
	fresh   int     // core items the trace file's statements lack, read afresh by the light carry
	carried int     // answers of other inputs that stood
	core    []retire.Statement
}

// Kinds of answer, the first byte of a memo key.
const (
	askRetired      = 'R'
	askDropRetired  = 'D'
	askDropAsked    = 'A'
	askSessionTitle = 'T'
	askDropDone     = 'd'
	askTodoDone     = 't'
	askDropCause    = 'c'
)

func (c *Retirer) ask(kind byte, text string, rank int, compute func(*retire.Retirer) string) string {
	k := string(kind) + strconv.Itoa(rank) + "\x00" + text
	if kind == askDropDone || kind == askTodoDone || kind == askDropCause {
		if v, ok := c.todo[k]; ok {
			return v
		}
		v := compute(nil)
		c.todo[k] = v
		c.addTodo++
		return v
	}
	if v, ok := c.memo[k]; ok {
		return v
	}
	if v, ok := c.fromTrace(k); ok {
		c.memo[k] = v
		c.added++
		return v
	}
	if c.r == nil {
		c.r = c.build()
		c.sources = nil // the retirer's, read from it
	}
	var v string
	t := c.r.Traced(func() { v = compute(c.r) })
	c.memo[k], c.traces[k] = v, traced{value: v, trace: t, classes: classesOf(c.r, t)}
	c.added++
	return v
}

// Retired is retire.Retirer.Retired.
func (c *Retirer) Retired(x string, rank int) bool {
	return c.ask(askRetired, x, rank, func(r *retire.Retirer) string {
		if r.Retired(x, rank) {
			return "1"
		}
		return ""
	}) != ""
}

// DropRetired is retire.Retirer.DropRetired.
func (c *Retirer) DropRetired(s string, rank int) string {
	return c.ask(askDropRetired, s, rank, func(r *retire.Retirer) string { return r.DropRetired(s, rank) })
}

// DropRetiredAsked is retire.Retirer.DropRetiredAsked.
func (c *Retirer) DropRetiredAsked(s string, rank int) string {
	return c.ask(askDropAsked, s, rank, func(r *retire.Retirer) string { return r.DropRetiredAsked(s, rank) })
}

// Title is retire.Retirer.Title.
func (c *Retirer) Title(title string, rank int) string {
	return c.ask(askSessionTitle, title, rank, func(r *retire.Retirer) string { return r.Title(title, rank) })
}

// DropDone is s without the to-dos a newer session dealt with
// (open.Vocab.DropDone) and the problems a newer session fixed
// (open.DropFixed).
func (c *Retirer) DropDone(rank int, s string) string {
	return c.dropDone(askDropDone, rank, s, c.v.DealtLater)
}

// DropDoneCause is DropDone for a root cause, an older session's request
// or a core item's body: a problem it tells goes only when a newer
// session says it is fixed. The work a newer session was asked to do on
// what it names (open.Vocab.DealtLater) does not make what happened,
// or what was asked, untrue.
func (c *Retirer) DropDoneCause(rank int, s string) string {
	return c.dropDone(askDropCause, rank, s, c.v.FixedLater)
}

// dropDone drops from s the to-dos a newer session dealt with and the
// problems fixed tells a newer session dealt with.
func (c *Retirer) dropDone(kind byte, rank int, s string, fixed func([]*digest.Summary, int) func(string) bool) string {
	return c.ask(kind, s, rank, func(*retire.Retirer) string {
		return open.DropFixed(c.v.DropDone(s, c.v.DoneLater(c.sums, rank)), fixed(c.sums, rank))
	})
}

// TodoDone reports whether title states work to do that a session newer
// than rank dealt with.
func (c *Retirer) TodoDone(rank int, title string) bool {
	return c.ask(askTodoDone, title, rank, func(*retire.Retirer) string {
		if c.v.IsTodo(title) && c.v.DoneLater(c.sums, rank)(title) {
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
// summaries sums (retire.New's inputs, newest summary first), v
// their vocabulary, with the answers m's cache holds for exactly these
// inputs.
func New(m *memory.Memory, core []retire.Statement, sums []*digest.Summary, v *open.Vocab) *Retirer {
	c := &Retirer{v: v, sums: sums, core: core, key: retirerKey(core, sums), todoKey: todoKey(sums), m: m, traces: map[string]traced{}}
	c.build = func() *retire.Retirer {
		c.rd = readReadings(m)
		return retire.NewWith(c.rd, core, sums)
	}
	c.memo = readCache(m, File, c.key)
	if c.memo == nil {
		c.memo = make(map[string]string)
	}
	c.todo = readCache(m, TodoFile, c.todoKey)
	if c.todo == nil {
		c.todo = make(map[string]string)
	}
	return c
}

// Said returns the summaries of the sessions of rank and newer, newest
// first.
func (c *Retirer) Said(rank int) []*digest.Summary { return c.sums[:min(max(rank+1, 0), len(c.sums))] }

// Save writes the answers back when this pack computed any: the next
// pack of the same inputs finds them all. A cache that cannot be written
// costs the next pack time, nothing else: it is said on stderr.
func (c *Retirer) Save(m *memory.Memory) {
	if c.added > 0 {
		writeCache(m, File, c.key, encodeMemo(keepUnder(c.memo, maxBody, memoSize)))
		c.saveTraces(m)
	}
	if c.addTodo > 0 {
		writeCache(m, TodoFile, c.todoKey, encodeMemo(keepUnder(c.todo, maxBody, memoSize)))
	}
	if c.r != nil && c.rd.Keep(c.r) {
		writeCache(m, ReadingsFile, readingsKey(), c.rd.Encode())
	}
}

// encodeMemo encodes answers in the order of their keys: the same
// answers, the same bytes.
func encodeMemo(memo map[string]string) []byte {
	size := 0
	for k, v := range memo {
		size += memoSize(k, v)
	}
	body := make([]byte, 0, size)
	for _, k := range slices.Sorted(maps.Keys(memo)) {
		v := memo[k]
		body = binary.AppendUvarint(body, uint64(len(k)))
		body = append(body, k...)
		body = binary.AppendUvarint(body, uint64(len(v)))
		body = append(body, v...)
	}
	return body
}

// memoSize is the most bytes encodeMemo writes for an answer.
func memoSize(k, v string) int { return len(k) + len(v) + 2*binary.MaxVarintLen64 }

// keepUnder returns answers, or when size says they take more than limit
// bytes, the answers that fit once the largest are left out: each is
// computed again when a pack asks for it, while a cache over its limit
// would be made again whole by every pack (maxCache). The answers of
// long texts (bodies, at most digest.MaxBodyBytes each) go first.
func keepUnder[V any](answers map[string]V, limit int, size func(string, V) int) map[string]V {
	total := 0
	for k, v := range answers {
		total += size(k, v)
	}
	if total <= limit {
		return answers
	}
	keys := slices.Collect(maps.Keys(answers))
	// The largest first, then by key: the same answers, the same cut.
	slices.SortFunc(keys, func(a, b string) int {
		if d := size(b, answers[b]) - size(a, answers[a]); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	kept := maps.Clone(answers)
	for _, k := range keys {
		if total <= limit {
			break
		}
		total -= size(k, answers[k])
		delete(kept, k)
	}
	return kept
}

// writeCache writes body as the cache name, made for key; a body over
// maxBody is not kept (nor the file it would have replaced), and said.
func writeCache(m *memory.Memory, name string, key [sha256.Size]byte, body []byte) {
	if len(body) > maxBody {
		os.Remove(m.StatePath(name))
		m.Warn(fmt.Sprintf("context: %s would be %d MiB, over its %d MiB limit; not kept", name, len(body)>>20, maxCache>>20))
		return
	}
	b := make([]byte, 0, len(magic)+sha256.Size+4+len(body))
	b = append(b, magic...)
	b = append(b, key[:]...)
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(body))
	b = append(b, body...)
	// Derived and checked when read: a crash that damages it costs one
	// rebuild, so it is not synced.
	if err := safefile.WriteSync(m.StatePath(name), b, 0o600, safefile.SyncNone); err != nil {
		m.Warn(fmt.Sprintf("context: keep %s: %v", name, err))
	}
}

// readCache returns the answers in m's cache if it was made for key;
// nil when there is none, it is for other inputs, or it is damaged (said
// once on stderr: it is rebuilt).
func readCache(m *memory.Memory, name string, key [sha256.Size]byte) map[string]string {
	body := readBody(m, name, key)
	if body == nil {
		return nil
	}
	memo, err := parseMemo(body)
	if err != nil {
		m.Warn(fmt.Sprintf("context: %s is damaged (%v); rebuilt", name, err))
		return nil
	}
	return memo
}

// readBody returns the body of the cache name if it was made for key;
// nil when there is none, it is for other inputs, or it is damaged (said
// once on stderr: it is rebuilt).
func readBody(m *memory.Memory, name string, key [sha256.Size]byte) []byte {
	f, err := os.Open(m.StatePath(name))
	if err != nil {
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > maxCache {
		// Never read whole: an older cairn wrote it, with no limit.
		// The next write replaces it with one under the limit.
		m.Warn(fmt.Sprintf("context: %s is %d MiB, over its %d MiB limit; made again", name, fi.Size()>>20, maxCache>>20))
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, maxCache+1))
	if err != nil {
		return nil
	}
	body, err := parseCache(data, key)
	if err != nil {
		m.Warn(fmt.Sprintf("context: %s is damaged (%v); rebuilt", name, err))
		return nil
	}
	return body
}

// readReadings returns the readings m's cache holds for this binary, or
// none (an empty Readings, which keeps what the retirer reads now).
func readReadings(m *memory.Memory) *retire.Readings {
	if body := readBody(m, ReadingsFile, readingsKey()); body != nil {
		rd, err := retire.ParseReadings(body)
		if err == nil {
			return rd
		}
		m.Warn(fmt.Sprintf("context: %s is damaged (%v); rebuilt", ReadingsFile, err))
	}
	rd, _ := retire.ParseReadings(nil)
	return rd
}

var errCache = errors.New("not a pack cache this version wrote whole")

// parseCache returns the body of a cache file's content after checking
// it; nil and no error when it was made for another key.
func parseCache(data []byte, key [sha256.Size]byte) ([]byte, error) {
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
	return body, nil
}

// parseMemo reads what encodeMemo wrote.
func parseMemo(body []byte) (map[string]string, error) {
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
func retirerKey(core []retire.Statement, sums []*digest.Summary) [sha256.Size]byte {
	// Gathered, then hashed in one call: 10,000 small writes to the hash
	// cost more than the hashing.
	size := 64
	for _, c := range core {
		size += len(c.Text) + 2*binary.MaxVarintLen64
	}
	b := make([]byte, 0, size)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	num := func(i int) { b = binary.AppendVarint(b, int64(i)) }
	num(rulesVersion)
	str(binaryID())
	num(len(core))
	for _, c := range core {
		str(c.Text)
		num(c.Rank)
	}
	num(len(sums))
	for _, d := range sums {
		for _, bullets := range append(d.Parts[:], d.Open, d.Untrue, d.NewerUntrue) {
			num(len(bullets))
			for _, x := range bullets {
				str(x)
				num(d.Seg[x]) // the retirer orders a session's statements by segment
			}
		}
	}
	return sha256.Sum256(b)
}

// todoKey hashes what decides the to-dos' answers (DropDone, TodoDone):
// the rules and the summaries, as Vocab reads them.
func todoKey(sums []*digest.Summary) [sha256.Size]byte {
	return retirerKey(nil, sums)
}

// readingsKey names the rules that read a text (rulesVersion and this
// binary): the readings of another build are not read.
func readingsKey() [sha256.Size]byte {
	return retirerKey(nil, nil)
}

// binaryID names the running program's build: its path, size and time,
// so that a rebuilt binary (with other selection code) never reads the
// answers of an older one. Read once: every cache of a pack names it.
var binaryID = sync.OnceValue(readBinaryID)

func readBinaryID() string {
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
