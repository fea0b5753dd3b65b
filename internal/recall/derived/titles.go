package derived

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"maps"
	"math"
	"slices"

	"github.com/cairn-mem/cairn/internal/digest/wire"
	"github.com/cairn-mem/cairn/internal/memory"
)

// TitlesFile holds the last pack's index of the core titles' words,
// under .state.
const TitlesFile = "titles.bin"

// Titles indexes the content words (lex.ContentWords) of core items'
// titles by word, each with a value of the caller's. Reading the words
// of 5,000 titles and indexing them cost a tenth of a pack; the index of
// the titles a pack added by their text (AddTitle) is kept in
// TitlesFile, keyed by a hash of those titles in order, so a pack of the
// same titles reads it instead.
type Titles[T any] struct {
	m *memory.Memory // where the index is kept; nil: nowhere
	// texts are the titles added by their text, in order; given the
	// words of those added by their words (Add), nil for the others.
	texts []string
	given [][]string
	vals  []T
	// The index, made on first use: the titles holding each word, in
	// order, and each title's number of words.
	built  bool
	made   bool // made now, not read: worth keeping
	key    [sha256.Size]byte
	byWord map[string][]int32
	size   []int32
	// Overlapping's scratch space, reused from one bullet to the next
	// (a pack asks for hundreds): per title, the pass that last counted
	// it and how many words it shares, side by side; the titles counted
	// in this pass.
	count []counted
	pass  int32
	seen  []int
}

type counted struct{ pass, shared int32 }

// NewTitles returns an empty index kept in m's state folder.
func NewTitles[T any](m *memory.Memory) *Titles[T] { return &Titles[T]{m: m} }

// Add adds a title's words with its value and returns its number,
// counting from 0.
func (c *Titles[T]) Add(words map[string]bool, v T) int {
	w := slices.Collect(maps.Keys(words))
	if w == nil {
		w = []string{}
	}
	return c.add("", w, v)
}

// AddTitle adds a title by its text, with its value, and returns its
// number: its words are its content words, and a title of fewer than
// two is never found.
func (c *Titles[T]) AddTitle(title string, v T) int {
	return c.add(title, nil, v)
}

func (c *Titles[T]) add(text string, words []string, v T) int {
	j := len(c.vals)
	c.texts, c.given, c.vals = append(c.texts, text), append(c.given, words), append(c.vals, v)
	c.built = false
	return j
}

// build makes the index, or reads the one kept for these very titles.
// For other titles (a checkpoint added a core item), the kept index
// still gives the words of each title it holds, and only the new titles
// are read.
func (c *Titles[T]) build() {
	c.built = true
	c.key = c.titlesKey()
	var old *keptTitles
	if c.m != nil {
		old = readTitles(c.m)
	}
	if old != nil && old.key == c.key && len(old.size) == len(c.vals) {
		c.byWord, c.size = old.byWord, old.size
		return
	}
	c.made = true
	if old != nil && c.remap(old) {
		return
	}
	known := old.wordsByText()
	c.size = make([]int32, len(c.vals))
	c.byWord = make(map[string][]int32, 4*len(c.vals))
	index := func(j int, w string) { c.byWord[w] = append(c.byWord[w], int32(j)) }
	for j := range c.vals {
		words, ok := c.given[j], c.given[j] != nil
		if !ok {
			words, ok = known[c.texts[j]]
		}
		if ok {
			c.size[j] = int32(len(words))
			for _, w := range words {
				index(j, w)
			}
			continue
		}
		if words := lex.ContentWords(c.texts[j]); len(words) >= 2 {
			c.size[j] = int32(len(words))
			for w := range words {
				index(j, w)
			}
		}
	}
}

// remap makes the index from old, an index of other titles, when the
// titles it holds keep their order among those now (a checkpoint added
// or removed core items): each title of a word is renumbered in place
// and only the new titles' words are read, where taking every title's
// words from old and indexing them again cost a cold pack 5 ms. False,
// with nothing changed, when the titles were reordered.
func (c *Titles[T]) remap(old *keptTitles) bool {
	was := old.titles()
	if was == nil {
		return false
	}
	newOf := make([]int32, len(old.size))
	for j := range newOf {
		newOf[j] = -1
	}
	// The titles before and after those a checkpoint moved are in place;
	// the rest are found by text.
	n, m := len(was), len(c.vals)
	same := func(i, j int) bool { return c.given[j] == nil && c.texts[j] == was[i] }
	lo, hi := commonEnds(n, m, same)
	for i := range lo {
		newOf[i] = int32(i)
	}
	for i := range hi {
		newOf[n-1-i] = int32(m - 1 - i)
	}
	at := make(map[string][]int32, n-lo-hi) // old numbers, by text
	for j := lo; j < n-hi; j++ {
		at[was[j]] = append(at[was[j]], int32(j))
	}
	var fresh []int // titles now that old has not
	last := int32(lo - 1)
	for j := lo; j < m-hi; j++ {
		js := at[c.texts[j]]
		if c.given[j] != nil || len(js) == 0 {
			fresh = append(fresh, j)
			continue
		}
		if js[0] < last {
			return false // reordered: postings would need sorting
		}
		newOf[js[0]], last, at[c.texts[j]] = int32(j), js[0], js[1:]
	}
	size := make([]int32, len(c.vals))
	for j, n := range newOf {
		if n >= 0 {
			size[n] = old.size[j]
		}
	}
	for w, js := range old.byWord {
		out := js[:0]
		for _, j := range js {
			if n := newOf[j]; n >= 0 {
				out = append(out, n)
			}
		}
		if len(out) == 0 {
			delete(old.byWord, w)
		} else {
			old.byWord[w] = out
		}
	}
	for _, j := range fresh {
		words := c.given[j]
		if words == nil {
			if ws := lex.ContentWords(c.texts[j]); len(ws) >= 2 {
				words = slices.Collect(maps.Keys(ws))
			}
		}
		size[j] = int32(len(words))
		for _, w := range words {
			js := old.byWord[w]
			i, _ := slices.BinarySearch(js, int32(j))
			old.byWord[w] = slices.Insert(js, i, int32(j))
		}
	}
	c.byWord, c.size = old.byWord, size
	return true
}

// titlesKey hashes the titles added by their text, in order, and the
// binary that reads their words; nil words stand for those added by
// words, which are never kept.
func (c *Titles[T]) titlesKey() [sha256.Size]byte {
	size := 64
	for _, t := range c.texts {
		size += len(t) + binary.MaxVarintLen64
	}
	b := make([]byte, 0, size)
	b = wire.AppendStr(b, binaryID())
	b = binary.AppendUvarint(b, rulesVersion)
	for j, t := range c.texts {
		if c.given[j] != nil {
			b = append(b, 0xff) // no length starts so: never a text's
			continue
		}
		b = wire.AppendStr(b, t)
	}
	return sha256.Sum256(b)
}

// Save keeps the index made by this pack, if any, for the next one,
// under the key of this binary: the key of its titles, the titles'
// texts, their numbers of words, and the titles of each word.
func (c *Titles[T]) Save() {
	if c.m == nil || !c.made || slices.ContainsFunc(c.given, func(w []string) bool { return w != nil }) {
		return
	}
	var texts []byte
	for _, t := range c.texts {
		texts = wire.AppendStr(texts, t)
	}
	b := append(c.key[:0:0], c.key[:]...)
	b = wire.AppendStr(b, string(texts))
	b = binary.AppendUvarint(b, uint64(len(c.size)))
	for _, n := range c.size {
		b = binary.AppendUvarint(b, uint64(n))
	}
	b = binary.AppendUvarint(b, uint64(len(c.byWord)))
	for w, js := range c.byWord {
		b = wire.AppendStr(b, w)
		b = binary.AppendUvarint(b, uint64(len(js)))
		last := int32(0)
		for _, j := range js {
			b = binary.AppendUvarint(b, uint64(j-last)) // in order: gaps
			last = j
		}
	}
	writeCache(c.m, TitlesFile, readingsKey(), b)
	c.made = false
}

// keptTitles is a kept index: of the titles of key, their words, and
// their texts, encoded (texts), read only for other titles.
type keptTitles struct {
	key    [sha256.Size]byte
	byWord map[string][]int32
	size   []int32
	texts  string
}

// readTitles returns the index this binary kept, whatever titles it is
// of; nil when there is none or it is damaged (said once).
func readTitles(m *memory.Memory) *keptTitles {
	body := readBody(m, TitlesFile, readingsKey())
	if body == nil {
		return nil
	}
	old := &keptTitles{}
	err := fmt.Errorf("%w: titles", errCache)
	if len(body) >= sha256.Size {
		copy(old.key[:], body)
		old.byWord, old.size, old.texts, err = parseTitles(string(body[sha256.Size:]))
	}
	if err != nil {
		m.Warn(fmt.Sprintf("context: %s is damaged (%v); rebuilt", TitlesFile, err))
		return nil
	}
	return old
}

// titles are the texts of the kept index's titles, in its order; nil if
// they do not decode.
func (old *keptTitles) titles() []string {
	d := wire.NewDecoder(old.texts, errCache)
	texts := make([]string, len(old.size))
	for j := range texts {
		texts[j] = d.Str()
	}
	if d.End() != nil {
		return nil
	}
	return texts
}

// wordsByText gives, for each title text of the kept index, its words;
// nil for a title not indexed (fewer than two). None without an index.
func (old *keptTitles) wordsByText() map[string][]string {
	if old == nil {
		return nil
	}
	texts := old.titles()
	if texts == nil {
		return nil
	}
	// Each title's words, from the titles of each word, in one slab.
	at := make([]int, len(old.size)+1)
	for j, n := range old.size {
		at[j+1] = at[j] + int(n)
	}
	slab, fill := make([]string, at[len(old.size)]), slices.Clone(at[:len(old.size)])
	for w, js := range old.byWord {
		for _, j := range js {
			if fill[j] == at[j+1] {
				return nil // more words than the title has: not this index's
			}
			slab[fill[j]], fill[j] = w, fill[j]+1
		}
	}
	out := make(map[string][]string, len(texts))
	for j, t := range texts {
		if old.size[j] == 0 {
			out[t] = nil
		} else {
			out[t] = slab[at[j]:at[j+1]:at[j+1]]
		}
	}
	return out
}

// parseTitles reads what Save wrote: the titles of each word, the
// titles' numbers of words, and the titles' texts left encoded.
func parseTitles(b string) (map[string][]int32, []int32, string, error) {
	bad := fmt.Errorf("%w: titles", errCache)
	d := wire.NewDecoder(b, errCache)
	texts := d.Str()
	n := d.Uint()
	if n > uint64(len(b)) {
		return nil, nil, "", bad
	}
	size := make([]int32, n)
	total := 0
	for j := range size {
		size[j] = int32(min(d.Uint(), math.MaxInt32))
		total += int(size[j])
	}
	words := d.Uint()
	if words > uint64(len(b)) || total > len(b) {
		return nil, nil, "", bad
	}
	byWord := make(map[string][]int32, words)
	slab := make([]int32, 0, total) // the lists share it
	for range words {
		w := d.Str()
		k := d.Uint()
		if k > uint64(cap(slab)-len(slab)) {
			return nil, nil, "", bad
		}
		start, j := len(slab), uint64(0)
		for range k {
			if j += d.Uint(); j >= n {
				return nil, nil, "", bad
			}
			slab = append(slab, int32(j))
		}
		byWord[w] = slab[start:len(slab):len(slab)]
	}
	if err := d.End(); err != nil {
		return nil, nil, "", err
	}
	return byWord, size, texts, nil
}

// Overlapping returns, in order, the titles t with lex.Overlap(t,
// words) >= least, if words has two or more: the share of a title's words
// that words holds, counted from the titles each word is in. A pack
// compares each of a session's bullets with thousands of titles.
func (c *Titles[T]) Overlapping(words map[string]bool, least float64) []int {
	if len(words) < 2 {
		return nil
	}
	if !c.built {
		c.build()
	}
	if len(c.count) != len(c.vals) || c.pass == math.MaxInt32 {
		c.count, c.pass = make([]counted, len(c.vals)), 0
	}
	c.pass++
	seen := c.seen[:0]
	for w := range words {
		for _, j := range c.byWord[w] {
			k := &c.count[j]
			if k.pass != c.pass {
				k.pass, k.shared = c.pass, 0
				seen = append(seen, int(j))
			}
			k.shared++
		}
	}
	c.seen = seen
	var out []int
	for _, j := range seen {
		if float64(c.count[j].shared)/float64(c.size[j]) >= least {
			out = append(out, j)
		}
	}
	slices.Sort(out)
	return out
}

// Value is the value title j was added with.
func (c *Titles[T]) Value(j int) T { return c.vals[j] }
