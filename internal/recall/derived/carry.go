package derived

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/retire"
	"github.com/cairn-mem/cairn/internal/digest/wire"
	"github.com/cairn-mem/cairn/internal/memory"
)

// A checkpoint that adds a core item changes the inputs, and with them
// the key of every answer in packcache.bin; the retirer's answers used to
// be computed again, each. Most stand: an answer reads only the
// statements sharing a key with what it checks, and the word statistics
// only as a class per key (retire.Trace). TraceFile keeps, beside the
// answers, what each read, and the retirer's statements as a trace meets
// them (retire.Source); a pack whose inputs changed takes an old answer
// when a carry says it stands. It is read only then: a pack whose
// inputs did not change reads packcache.bin alone.

// TraceFile holds the traces of the last answers, under .state.
const TraceFile = "packcache-trace.bin"

// carried is what TraceFile holds: the traces of the answers given for
// the inputs of key, by a retirer of sources and of files changed. The
// first ncore sources are the core items', each made of inputs[i] (""
// when that is its text); the others the summaries' of todoKey. counted
// (retire.Counted), df (of the keys the answers read) and distinct let
// the next pack follow the keys' classes without building the retirer.
type carried struct {
	key, todoKey [sha256.Size]byte
	changed      [16]byte
	sources      []retire.Source
	ncore        int
	inputs       []string
	counted      []bool
	df           map[string]int
	distinct     int
	answers      map[string]traced
}

// traced is an answer with its trace, and the class (retire.Retirer.Class)
// each key of the trace had.
type traced struct {
	value   string
	trace   retire.Trace
	classes []uint8
}

// loadCarried reads TraceFile, made by this binary; nil when there is
// none or it is damaged (said once on stderr).
func loadCarried(m *memory.Memory) *carried {
	body := readBody(m, TraceFile, readingsKey())
	if body == nil {
		return nil
	}
	old, err := parseCarried(string(body))
	if err != nil {
		m.Warn(fmt.Sprintf("context: %s is damaged (%v); rebuilt", TraceFile, err))
		return nil
	}
	return old
}

// encodeCarried encodes old: the input key and the files changed, a table
// of the answers' keys, the sources and the answers, each key by its
// number in the table.
func encodeCarried(old *carried) []byte {
	ids := map[string]uint64{}
	var table []string
	id := func(k string) uint64 {
		n, ok := ids[k]
		if !ok {
			n = uint64(len(table))
			ids[k] = n
			table = append(table, k)
		}
		return n
	}
	// Sized once: grown by doubling, the sources' half a megabyte at
	// 100,000 files was copied over and over.
	size := 2 * binary.MaxVarintLen64
	for i, s := range old.sources {
		size += len(s.ID) + len(s.Text) + 3 + 2*binary.MaxVarintLen64
		if i < old.ncore {
			size += len(old.inputs[i]) + binary.MaxVarintLen64
		}
	}
	srcs, ans := make([]byte, 0, size), []byte(nil)
	srcs = binary.AppendUvarint(srcs, uint64(len(old.sources)))
	srcs = binary.AppendUvarint(srcs, uint64(old.ncore))
	for i, s := range old.sources {
		srcs = append(append(srcs, byte(len(s.ID))), s.ID[:]...) // as wire.AppendStr
		srcs = binary.AppendVarint(srcs, int64(s.Rank))
		srcs = wire.AppendBool(srcs, s.Always)
		srcs = wire.AppendBool(srcs, s.Keyed)
		srcs = wire.AppendBool(srcs, old.counted[i])
		srcs = wire.AppendStr(srcs, s.Text)
		if i < old.ncore {
			srcs = wire.AppendStr(srcs, old.inputs[i])
		}
	}
	ans = binary.AppendUvarint(ans, uint64(len(old.answers)))
	for q, a := range old.answers {
		ans = wire.AppendStr(ans, q)
		ans = wire.AppendStr(ans, a.value)
		ans = binary.AppendVarint(ans, int64(a.trace.Rank))
		ans = wire.AppendBool(ans, a.trace.Changed)
		ans = binary.AppendUvarint(ans, uint64(len(a.trace.Keys)))
		for i, k := range a.trace.Keys {
			ans = binary.AppendUvarint(ans, id(k))
			ans = binary.AppendUvarint(ans, uint64(a.classes[i]))
		}
	}
	b := make([]byte, 0, 2*sha256.Size+16+len(srcs)+len(ans)+32*len(table)+binary.MaxVarintLen64)
	b = append(b, old.key[:]...)
	b = append(b, old.changed[:]...)
	b = append(b, old.todoKey[:]...)
	b = binary.AppendUvarint(b, uint64(old.distinct))
	b = binary.AppendUvarint(b, uint64(len(table)))
	for _, k := range table {
		b = wire.AppendStr(b, k)
		b = binary.AppendUvarint(b, uint64(old.df[k]))
	}
	b = append(b, srcs...)
	return append(b, ans...)
}

// parseCarried reads what encodeCarried wrote.
func parseCarried(b string) (*carried, error) {
	if len(b) < 2*sha256.Size+16 {
		return nil, errCache
	}
	old := &carried{}
	copy(old.key[:], b)
	copy(old.changed[:], b[sha256.Size:])
	copy(old.todoKey[:], b[sha256.Size+16:])
	d := wire.NewDecoder(b[2*sha256.Size+16:], errCache)
	count := func() int {
		n := d.Uint()
		if n > uint64(len(b)) {
			d.Str() // more than the bytes: an error
			return 0
		}
		return int(n)
	}
	old.distinct = count()
	table := make([]string, count())
	old.df = make(map[string]int, len(table))
	for i := range table {
		table[i] = d.Str()
		old.df[table[i]] = count()
	}
	bad := false // a key past the table's end
	key := func() string {
		n := d.Uint()
		if n >= uint64(len(table)) {
			bad = true
			return ""
		}
		return table[n]
	}
	old.sources = make([]retire.Source, count())
	old.counted = make([]bool, len(old.sources))
	old.ncore = min(count(), len(old.sources))
	old.inputs = make([]string, old.ncore)
	for i := range old.sources {
		s := &old.sources[i]
		copy(s.ID[:], d.Str()) // 16 bytes, as written
		s.Rank, s.Always, s.Keyed, old.counted[i], s.Text = int(d.Int()), d.Bool(), d.Bool(), d.Bool(), d.Str()
		if i < old.ncore {
			old.inputs[i] = d.Str()
		}
	}
	n := count()
	old.answers = make(map[string]traced, n)
	for range n {
		q, a := d.Str(), traced{value: d.Str()}
		a.trace.Rank, a.trace.Changed = int(d.Int()), d.Bool()
		a.trace.Keys = make([]string, count())
		a.classes = make([]uint8, len(a.trace.Keys))
		for j := range a.trace.Keys {
			a.trace.Keys[j] = key()
			a.classes[j] = uint8(d.Uint())
		}
		old.answers[q] = a
	}
	if err := d.End(); err != nil || bad {
		return nil, fmt.Errorf("%w: traces", errCache)
	}
	return old, nil
}

// fromTrace returns the answer of memo key k that the trace file holds, if
// it stands for this pack's inputs. Whether it stands is told from the
// statements alone when it can be (lightCarry): the retirer is built only
// for an answer to compute.
func (c *Retirer) fromTrace(k string) (string, bool) {
	if !c.oldRead {
		c.oldRead = true
		c.old = loadCarried(c.m)
		if c.old != nil && c.old.key != c.key {
			c.carry = c.lightCarry()
			if c.carry == nil {
				c.r = c.build()
				c.carry = newCarry(c.r.Class, c.old.sources, c.sourcesNow(), c.old.changed != filesID(c.sums))
			}
		}
	}
	if c.old == nil {
		return "", false
	}
	a, ok := c.old.answers[k]
	if !ok || c.carry != nil && !c.carry.stands(a) {
		return "", false
	}
	c.traces[k] = a
	if c.carry != nil {
		c.carried++
	}
	return a.value, true
}

// maxNewCore bounds the core items a light carry reads afresh: past it,
// building the retirer costs no more.
const maxNewCore = 64

// lightCarry is the carry from the trace file to this pack's inputs,
// made without building the retirer: the statements now are the old
// ones of the same core items and, for the same summaries, of the same
// sessions, plus those a retirer of the rest alone gives; df and
// distinct follow the statements counted that moved
// (TestCarriedAnswers). Nil when too many are new.
func (c *Retirer) lightCarry() *carry {
	src := c.lightSources()
	if src == nil {
		return nil
	}
	n := followCounts(c.old, src)
	c.sources, c.counts = src, n
	return newCarry(n.class, c.old.sources, src, c.old.changed != filesID(c.sums))
}

// lightSources are the statements a retirer of this pack's inputs has
// (retire.Retirer.Sources), from the trace file's where it has the same
// input; nil when more than maxNewCore core items are new.
func (c *Retirer) lightSources() []retire.Source {
	old := c.old
	was := old.sources[:old.ncore]
	// madeOf reports whether old core source i is of core item j now.
	madeOf := func(i, j int) bool {
		in := old.inputs[i]
		if in == "" {
			in = was[i].Text
		}
		return in == c.core[j].Text && was[i].Rank == retire.CoreRank(c.core[j].Rank)
	}
	// A checkpoint adds or removes an item or two: the items before and
	// after them are the old ones, in place; the rest is found by input.
	n, m := len(was), len(c.core)
	lo, hi := commonEnds(n, m, madeOf)
	out := make([]retire.Source, m, m+len(old.sources)-old.ncore)
	copy(out, was[:lo])
	copy(out[m-hi:], was[n-hi:])
	type input struct {
		text string
		rank int
	}
	byInput := make(map[input]int, n-lo-hi)
	for i := lo; i < n-hi; i++ {
		in := old.inputs[i]
		if in == "" {
			in = was[i].Text
		}
		byInput[input{in, was[i].Rank}] = i
	}
	var fresh []retire.Statement
	var at []int
	for i := lo; i < m-hi; i++ {
		st := c.core[i]
		if j, ok := byInput[input{st.Text, retire.CoreRank(st.Rank)}]; ok {
			out[i] = was[j]
			continue
		}
		if fresh, at = append(fresh, st), append(at, i); len(fresh) > maxNewCore {
			return nil
		}
	}
	c.fresh = len(fresh)
	if len(fresh) > 0 {
		// One statement a core item, whatever the others: the
		// retirer of the new ones alone gives theirs.
		got := retire.New(fresh, nil).Sources()
		if len(got) != len(fresh) {
			return nil
		}
		for j, i := range at {
			out[i] = got[j]
		}
	}
	if old.todoKey == c.todoKey {
		return append(out, old.sources[old.ncore:]...)
	}
	return append(out, retire.New(nil, c.sums).Sources()...)
}

// counts are df, of the keys the trace file's answers read, and
// distinct, followed to the statements now.
type counts struct {
	old      map[string]int
	delta    map[string]int
	distinct int
	counted  []bool // of the statements now
}

// followCounts follows old's df and distinct to the statements now: the
// counted statements of one and not the other (a multiset, as in
// newCarry) add or take away their keys.
func followCounts(old *carried, now []retire.Source) *counts {
	n := &counts{old: old.df, delta: map[string]int{}, counted: retire.Counted(now)}
	add := func(s retire.Source, by int) {
		for k := range retire.TopicKeys(s.Text) {
			n.delta[k] += by
		}
	}
	for _, c := range n.counted {
		if c {
			n.distinct++
		}
	}
	// The statements both have in place count or not on their own.
	lo, hi := common(old.sources, now)
	ends := func(i int) (int, int) { // old's index, now's
		if i < lo {
			return i, i
		}
		return len(old.sources) - (i - lo) - 1, len(now) - (i - lo) - 1
	}
	for i := range lo + hi {
		o, w := ends(i)
		if old.counted[o] != n.counted[w] {
			by := 1
			if old.counted[o] {
				by = -1
			}
			add(now[w], by)
		}
	}
	count := map[[16]byte]int{}
	for i := lo; i < len(old.sources)-hi; i++ {
		if old.counted[i] {
			count[old.sources[i].ID]++
		}
	}
	for i := lo; i < len(now)-hi; i++ {
		if !n.counted[i] {
			continue
		}
		if s := now[i]; count[s.ID] > 0 {
			count[s.ID]--
		} else {
			add(s, 1)
		}
	}
	for i := lo; i < len(old.sources)-hi; i++ {
		if s := old.sources[i]; old.counted[i] && count[s.ID] > 0 {
			count[s.ID]--
			add(s, -1)
		}
	}
	return n
}

// common returns how many statements old and now have alike at their
// start (lo) and, after those, at their end (hi): a checkpoint moves a
// few in the middle, and the multisets are compared past these alone.
func common(old, now []retire.Source) (lo, hi int) {
	return commonEnds(len(old), len(now), func(i, j int) bool { return old[i].ID == now[j].ID })
}

// commonEnds returns how many of two lists of n and m things are alike
// (same(i, j), i of the first and j of the second) at their start, lo,
// and after those at their end, hi.
func commonEnds(n, m int, same func(i, j int) bool) (lo, hi int) {
	for lo < n && lo < m && same(lo, lo) {
		lo++
	}
	for hi < n-lo && hi < m-lo && same(n-1-hi, m-1-hi) {
		hi++
	}
	return lo, hi
}

// df is how many counted statements now hold k, a key the old answers
// read.
func (n *counts) df(k string) int { return n.old[k] + n.delta[k] }

func (n *counts) class(k string) uint8 { return retire.ClassOf(n.df(k), n.distinct) }

// sourcesNow are the statements of this pack's retirer, read once: the
// carry's, or the built retirer's.
func (c *Retirer) sourcesNow() []retire.Source {
	if c.sources == nil && c.r != nil {
		c.sources = c.r.Sources()
	}
	return c.sources
}

// maxDrift bounds the core items a trace file may lack and still be kept
// rather than written again, by a pack whose answers all stood (no
// retirer built): it is the same file for the next carry, which reads
// those items afresh again (a retirer of them alone). Written again, a
// file of 5,000 core items cost a cold pack at 100,000 files 2-3 ms of
// encoding and writing after each checkpoint; a warm pack never reads it.
const maxDrift = 16

// saveTraces writes the trace file: the traces of this pack's answers,
// and those of the file's own answers when it was made for the same
// inputs (a pack of another budget asked other questions).
func (c *Retirer) saveTraces(m *memory.Memory) {
	if !c.oldRead {
		c.oldRead, c.old = true, loadCarried(m)
	}
	if c.r == nil && (c.counts == nil || c.fresh <= maxDrift) {
		// Every answer came from the file: made for these inputs, it
		// holds them already; carried, it is still close enough.
		return
	}
	answers := c.traces
	same := c.old != nil && c.old.key == c.key
	if same {
		for k, a := range c.old.answers {
			if _, ok := answers[k]; !ok {
				answers[k] = a
			}
		}
	}
	src := c.sourcesNow()
	if len(src) < len(c.core) {
		return
	}
	out := &carried{key: c.key, todoKey: c.todoKey, changed: filesID(c.sums), sources: src, ncore: len(c.core), answers: answers, df: map[string]int{}}
	out.inputs = inputsOf(c.core, src)
	var df func(k string) int
	if c.r != nil {
		out.counted, out.distinct, df = retire.Counted(src), c.r.Distinct(), c.r.DF
	} else {
		out.counted, out.distinct, df = c.counts.counted, c.counts.distinct, c.counts.df
	}
	for _, a := range answers {
		for _, k := range a.trace.Keys {
			out.df[k] = df(k)
		}
	}
	b := encodeCarried(out)
	for len(b) > maxBody && len(out.answers) > 0 {
		// Under the limit, less the largest answers: they are computed
		// again when asked (keepUnder).
		total := 0
		for k, a := range out.answers {
			total += traceSize(k, a)
		}
		out.answers = keepUnder(out.answers, total-(len(b)-maxBody), traceSize)
		b = encodeCarried(out)
	}
	writeCache(m, TraceFile, readingsKey(), b)
}

// traceSize is the most bytes encodeCarried writes for an answer.
func traceSize(k string, a traced) int {
	return len(k) + len(a.value) + (4+2*len(a.trace.Keys))*binary.MaxVarintLen64
}

// inputsOf are the texts of core items that differ from their sources
// ("" where the same): what a carry finds a statement's core item by.
func inputsOf(core []retire.Statement, src []retire.Source) []string {
	out := make([]string, len(core))
	for i, st := range core {
		if st.Text != src[i].Text {
			out[i] = st.Text
		}
	}
	return out
}

// A carry tells which answers of an earlier retirer stand for one now:
// those no statement added or removed since is a candidate of, whose
// keys are of the class they were, and, if they read the files the
// sessions changed, whose files are the same.
type carry struct {
	class func(k string) uint8 // of the retirer now (retire.Retirer.Class)
	// alwaysRank is the smallest rank of the statements that moved and
	// meet every sentence; keyRank, per key, that of those holding it.
	alwaysRank int
	keyRank    map[string]int
	files      bool // the files the sessions changed are others
}

// newCarry compares the retirer of sources now, whose classes are class,
// with the retirer of sources old; files says the sessions' changed
// files moved. Each is a multiset: a statement said twice and now once
// moved too.
func newCarry(class func(string) uint8, old, now []retire.Source, files bool) *carry {
	c := &carry{class: class, alwaysRank: math.MaxInt, keyRank: map[string]int{}, files: files}
	lo, hi := common(old, now)
	old, now = old[lo:len(old)-hi], now[lo:len(now)-hi]
	count := make(map[[16]byte]int, len(old))
	for _, s := range old {
		count[s.ID]++
	}
	for _, s := range now {
		if count[s.ID] > 0 {
			count[s.ID]--
			continue
		}
		c.moved(s)
	}
	for _, s := range old {
		if count[s.ID] > 0 {
			count[s.ID]--
			c.moved(s)
		}
	}
	return c
}

// moved notes statement s, which one retirer has and the other has not.
func (c *carry) moved(s retire.Source) {
	if s.Always {
		c.alwaysRank = min(c.alwaysRank, s.Rank)
		return
	}
	for k := range retire.TopicKeys(s.Text) {
		if r, ok := c.keyRank[k]; !ok || s.Rank < r {
			c.keyRank[k] = s.Rank
		}
	}
}

// stands reports whether answer a of the earlier retirer is the one now.
func (c *carry) stands(a traced) bool {
	t := a.trace
	if t.Changed && c.files || len(a.classes) != len(t.Keys) || c.alwaysRank < t.Rank {
		return false
	}
	for i, k := range t.Keys {
		if c.class(k) != a.classes[i] {
			return false
		}
		if r, ok := c.keyRank[k]; ok && r < t.Rank {
			return false
		}
	}
	return true
}

// filesID hashes the files the summaries say their sessions changed, by
// summary: what the retirer's changed files are made of.
func filesID(sums []*digest.Summary) [16]byte {
	var b []byte
	for _, d := range sums {
		b = binary.AppendUvarint(b, uint64(len(d.Parts[digest.Files])))
		for _, f := range d.Parts[digest.Files] {
			b = wire.AppendStr(b, f)
		}
	}
	sum := sha256.Sum256(b)
	return [16]byte(sum[:16])
}

// classesOf are the classes r gives the keys of t.
func classesOf(r *retire.Retirer, t retire.Trace) []uint8 {
	out := make([]uint8, len(t.Keys))
	for i, k := range t.Keys {
		out[i] = r.Class(k)
	}
	return out
}
