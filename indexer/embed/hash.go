package embed

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
)

// HashDim is the number of dimensions of the built-in embedder.
const HashDim = 384

// Hash is the built-in embedder: it needs no model and no network,
// and is deterministic. It hashes features of the text into HashDim
// dimensions (the "hashing trick", each feature with a pseudo-random
// sign) and normalises the result:
//
//   - stemmed words (Bleve's English analyzer: "migrations" and
//     "migrate" agree), weight 1, sublinear in repetitions;
//   - pairs of adjacent stemmed words, weight 0.5, for phrases;
//   - character trigrams of each word with its boundaries ("^po", "pos",
//     ..., "es$"), together weighing about 0.6 of the word, so a typo
//     still shares most of its trigrams with the right spelling;
//   - a concept for words in a small table of software synonyms and
//     abbreviations ("db"/"database", "repo"/"repository", "auth"/"login"),
//     weight 1, for paraphrase.
//
// It is a bag of features, not a language model: it finds inflections,
// typos and the synonyms it knows, not paraphrase in general.
type Hash struct {
	analyzer analysis.Analyzer
	concepts map[string]string // stem -> concept
}

// NewHash returns the built-in embedder.
func NewHash() (*Hash, error) {
	a, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		return nil, fmt.Errorf("hash embedder: english analyzer: %w", err)
	}
	e := &Hash{analyzer: a, concepts: make(map[string]string)}
	for _, group := range synonyms {
		words := strings.Fields(group)
		for _, w := range words {
			for _, tok := range a.Analyze([]byte(w)) {
				e.concepts[string(tok.Term)] = words[0]
			}
		}
	}
	return e, nil
}

// Name says which algorithm made the vectors; it changes whenever the
// features or their weights do.
func (e *Hash) Name() string { return "cairn-hash-v1" }

// Dim returns HashDim.
func (e *Hash) Dim() int { return HashDim }

// Embed returns a unit vector per text (the zero vector for a text with no
// words). Large batches are spread over the processors.
func (e *Hash) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	workers := min(runtime.GOMAXPROCS(0), len(texts)/32)
	if workers <= 1 {
		var ft Scratch
		for i, t := range texts {
			if i%64 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			out[i] = e.embed(t, &ft)
		}
		return out, nil
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ft Scratch
			for i := w; i < len(texts); i += workers {
				if ctx.Err() != nil {
					return
				}
				out[i] = e.embed(texts[i], &ft)
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Feature kinds, hashed in front of the feature's text.
const (
	featWord    = 'w'
	featConcept = 'c'
	featBigram  = 'b'
	featTrigram = 't'
)

func (e *Hash) embed(text string, counts *Scratch) []float32 {
	counts.reset()
	st := featState{prevPos: -10}
	e.addText(&st, counts, text, e.analyzer.Analyze([]byte(text)), 0)
	return counts.vector()
}

// EmbedAnalyzed returns what Embed does for title + "\n\n" + body,
// given their tokens by Bleve's English analyzer (tt of the title, bt of
// the body), counting features in counts. The index shares each
// chunk's analysis with Bleve rather than analyse it twice (the analysis
// was a seventh of indexing). The body's positions follow the title's, as
// in the joined text. Concurrent calls need a Scratch each.
func (e *Hash) EmbedAnalyzed(title, body string, tt, bt analysis.TokenStream, counts *Scratch) []float32 {
	counts.reset()
	st := featState{prevPos: -10}
	last := e.addText(&st, counts, title, tt, 0)
	e.addText(&st, counts, body, bt, last)
	return counts.vector()
}

// featState carries a word into the next piece of text, for bigrams.
type featState struct {
	prev    []byte
	prevPos int
}

// addText counts the features of text, analysed into toks, with offset
// added to their positions; it returns the last position. A word's own
// features (its term, its concept, the trigrams of its lowered runes)
// depend on its term and written form alone: they are taken from
// counts' table of words seen (see Scratch.word), made the first time,
// and counted in the same order with the same weights, so the vector is
// the same to the bit.
func (e *Hash) addText(st *featState, counts *Scratch, text string, toks analysis.TokenStream, offset int) int {
	// The trigrams are of the word as written, lowered. When lowering
	// keeps every character's length (all ASCII text, most other text),
	// a word is lowered on its own; otherwise the whole text is lowered
	// and its bytes at the word's offsets taken, as they always were.
	lower, lowered := text, false
	if !isASCII(text) && !lowerKeepsLength(text) {
		lower, lowered = strings.ToLower(text), true
	}
	last := offset
	for _, tok := range toks {
		pos := tok.Position + offset
		last = pos
		var span string
		tri := tok.Start >= 0 && tok.Start < tok.End && tok.End <= len(lower) && len(lower) == len(text)
		if tri {
			span = lower[tok.Start:tok.End]
		}
		f := counts.word(e, tok.Term, span, tri, lowered)
		counts.add(f.word, 1)
		if f.hasConcept {
			counts.add(f.concept, 1)
		}
		if pos == st.prevPos+1 || pos == st.prevPos+2 { // allow one stop word between
			counts.add(hashFeature(featBigram, st.prev, tok.Term), 0.5)
		}
		st.prev, st.prevPos = tok.Term, pos
		// Trigrams of the word as written (lowercased), ends marked, together
		// weighing about 0.6 of a word.
		for _, h := range counts.tris[f.from:f.to] {
			counts.add(h, f.w)
		}
	}
	return last
}

// lowerKeepsLength reports whether strings.ToLower(s) changes no
// character's length in UTF-8 (nor meets invalid UTF-8, which it would
// replace): then its bytes at any character's offsets are that
// character lowered.
func lowerKeepsLength(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || utf8.RuneLen(unicode.ToLower(r)) != n {
			return false
		}
		i += n
	}
	return true
}

// wordFeats are the features of one word: its term's hash, its
// concept's if it has one, and its trigrams' (Scratch.tris[from:to]),
// each weighing w.
type wordFeats struct {
	word, concept uint64
	hasConcept    bool
	from, to      int32
	w             float64
}

// maxWords is how many words a Scratch's table holds before it starts
// again: about 4 MB.
const maxWords = 1 << 14

// word returns the features of the word of term written as span (with
// tri false, no trigrams; lowered, span is already lowered), from the
// table or made now.
func (t *Scratch) word(e *Hash, term []byte, span string, tri, lowered bool) wordFeats {
	// The key: the term, then the runes of the written word lowered,
	// which the trigrams are made of.
	key := append(t.key[:0], term...)
	if tri {
		key = append(key, 1)
		for _, r := range span {
			switch {
			case lowered:
			case 'A' <= r && r <= 'Z':
				r += 'a' - 'A'
			case r >= utf8.RuneSelf:
				r = unicode.ToLower(r)
			}
			key = utf8.AppendRune(key, r)
		}
	} else {
		key = append(key, 0)
	}
	t.key = key
	if i, ok := t.words[string(key)]; ok {
		return t.feats[i]
	}
	if len(t.feats) >= maxWords || t.words == nil {
		if t.words == nil {
			t.words = make(map[string]int32)
		}
		clear(t.words)
		t.feats, t.tris = t.feats[:0], t.tris[:0]
	}
	f := wordFeats{word: hashFeature(featWord, term, nil), from: int32(len(t.tris))}
	if c, ok := e.concepts[string(term)]; ok {
		f.concept, f.hasConcept = hashFeature(featConcept, []byte(c), nil), true
	}
	if tri {
		runes := append(t.runes[:0], '^')
		for _, r := range string(key[len(term)+1:]) {
			runes = append(runes, r)
		}
		runes = append(runes, '$')
		if n := len(runes) - 2; n > 0 {
			f.w = 0.6 / math.Sqrt(float64(n))
			for i := 0; i < n; i++ {
				t.tris = append(t.tris, hashRunes(featTrigram, runes[i:i+3]))
			}
		}
		t.runes = runes
	}
	f.to = int32(len(t.tris))
	t.words[string(key)] = int32(len(t.feats))
	t.feats = append(t.feats, f)
	return f
}

// isASCII reports whether s is ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// vector turns the counts into a unit vector.
func (t *Scratch) vector() []float32 {
	v := make([]float32, HashDim)
	for _, i := range t.used {
		h, c := t.keys[i], t.vals[i]
		w := c
		if c >= 1 {
			w = 1 + math.Log(c) // sublinear: repetition matters, but little
		}
		d := int(h % HashDim)
		if h>>63 == 1 {
			v[d] -= float32(w)
		} else {
			v[d] += float32(w)
		}
	}
	Normalize(v)
	return v
}

// Scratch is EmbedAnalyzed's working memory; its zero value is ready, and
// one goroutine reuses it from text to text. It counts features by hash:
// an open-addressing table, which spends a third of the time Go's map did
// (embedding was a quarter of the indexing CPU). Hashes are already
// mixed, so their low bits index it; 0 stands for the (one in 2^64) hash 0.
type Scratch struct {
	keys []uint64
	vals []float64
	used []int32 // occupied slots, in the order they were filled

	// The features of the words seen (see word), kept from text to text.
	words map[string]int32 // key -> feats index
	feats []wordFeats
	tris  []uint64
	key   []byte
	runes []rune
}

func (t *Scratch) reset() {
	for _, i := range t.used {
		t.keys[i] = 0
	}
	t.used = t.used[:0]
	if t.keys == nil {
		t.keys, t.vals = make([]uint64, 1024), make([]float64, 1024)
	}
}

func (t *Scratch) add(h uint64, w float64) {
	if h == 0 {
		h = 1
	}
	mask := len(t.keys) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		switch t.keys[i] {
		case h:
			t.vals[i] += w
			return
		case 0:
			t.keys[i], t.vals[i] = h, w
			t.used = append(t.used, int32(i))
			if 2*len(t.used) > len(t.keys) {
				t.grow()
			}
			return
		}
	}
}

// grow doubles the table.
func (t *Scratch) grow() {
	keys, vals, used := t.keys, t.vals, t.used
	t.keys, t.vals = make([]uint64, 2*len(keys)), make([]float64, 2*len(keys))
	t.used = make([]int32, 0, 2*cap(used))
	for _, i := range used {
		t.add(keys[i], vals[i])
	}
}

// FNV-1a, 64 bits.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashFeature hashes a feature kind and one or two byte strings.
func hashFeature(kind byte, a, b []byte) uint64 {
	h := uint64(fnvOffset)
	h = (h ^ uint64(kind)) * fnvPrime
	for _, c := range a {
		h = (h ^ uint64(c)) * fnvPrime
	}
	if b != nil {
		h = (h ^ ' ') * fnvPrime
		for _, c := range b {
			h = (h ^ uint64(c)) * fnvPrime
		}
	}
	return mix(h)
}

// hashRunes hashes a feature kind and some runes.
func hashRunes(kind byte, rs []rune) uint64 {
	h := uint64(fnvOffset)
	h = (h ^ uint64(kind)) * fnvPrime
	for _, r := range rs {
		h = (h ^ uint64(r)) * fnvPrime
	}
	return mix(h)
}

// mix spreads FNV's bits, so the top one (the sign) is as random as the
// rest.
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	return h
}

// Normalize scales v to unit length, in place; the zero vector stays
// zero. Vectors are compared by their inner product, which is the cosine
// only between unit vectors.
func Normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
}

// synonyms are groups of words that mean the same in software projects;
// the first word names the group. Words are stemmed before lookup.
var synonyms = []string{
	"database db databases postgres postgresql mysql sqlite",
	"repository repo repos",
	"configuration config configure cfg settings setting options",
	"authentication auth login signin authenticate",
	"authorization permission permissions access acl",
	"directory dir folder folders directories",
	"function func method procedure",
	"error errors failure fail failing failed exception",
	"bug defect issue regression",
	"crash panic segfault abort",
	"test tests testing spec unittest",
	"delete remove rm drop erase",
	"create add",
	"start launch boot startup",
	"stop halt kill terminate shutdown",
	"fast quick speed speedy performance perf",
	"slow latency sluggish",
	"documentation docs doc readme",
	"dependency dependencies deps dep",
	"environment env",
	"variable var vars",
	"message msg messages",
	"argument arg args parameter param params flag flags",
	"library lib package module",
	"install setup installation",
	"upgrade update bump",
	"fix repair patch resolve",
	"deploy deployment release rollout",
	"server backend service daemon",
	"client frontend ui",
	"queue job jobs worker",
	"cache caching memoize",
	"log logs logging",
	"commit checkpoint",
	"branch branches",
	"merge merging",
	"request req",
	"response resp reply",
	"timeout deadline",
	"concurrency concurrent parallel goroutine thread threads race",
	"memory ram heap",
	"storage disk",
	"network http",
	"secret secrets token credential credentials password apikey",
	"user users customer",
	"prefer preference favourite favorite",
	"decide decision chose choose choice",
	"migrate migration migrations schema",
	"benchmark bench profiling profile",
	"index indexing reindex",
	"search query lookup find",
	"container docker",
	"cli command terminal shell",
}
