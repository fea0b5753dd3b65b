package embed

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
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
	runes   []rune
}

// addText counts the features of text, analysed into toks, with offset
// added to their positions; it returns the last position.
func (e *Hash) addText(st *featState, counts *Scratch, text string, toks analysis.TokenStream, offset int) int {
	// Text that is ASCII (most of it) is lowered a word at a time below,
	// not copied whole.
	ascii := isASCII(text)
	lower := text
	if !ascii {
		lower = strings.ToLower(text)
	}
	last := offset
	for _, tok := range toks {
		pos := tok.Position + offset
		last = pos
		counts.add(hashFeature(featWord, tok.Term, nil), 1)
		if c, ok := e.concepts[string(tok.Term)]; ok {
			counts.add(hashFeature(featConcept, []byte(c), nil), 1)
		}
		if pos == st.prevPos+1 || pos == st.prevPos+2 { // allow one stop word between
			counts.add(hashFeature(featBigram, st.prev, tok.Term), 0.5)
		}
		st.prev, st.prevPos = tok.Term, pos
		// Trigrams of the word as written (lowercased), ends marked, together
		// weighing about 0.6 of a word.
		if tok.Start >= 0 && tok.Start < tok.End && tok.End <= len(lower) && len(lower) == len(text) {
			runes := append(st.runes[:0], '^')
			for _, r := range lower[tok.Start:tok.End] {
				if ascii && 'A' <= r && r <= 'Z' {
					r += 'a' - 'A'
				}
				runes = append(runes, r)
			}
			runes = append(runes, '$')
			if n := len(runes) - 2; n > 0 {
				w := 0.6 / math.Sqrt(float64(n))
				for i := 0; i < n; i++ {
					counts.add(hashRunes(featTrigram, runes[i:i+3]), w)
				}
			}
			st.runes = runes
		}
	}
	return last
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
