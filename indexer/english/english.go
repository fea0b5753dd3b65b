package english

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	enlang "github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
	"github.com/blevesearch/go-porterstemmer"
)

// Analyzer gives the tokens of Bleve's "en" analyzer. It is safe for
// concurrent use.
type Analyzer struct {
	// Bleve's parts: the tokenizer for what is not ASCII, the possessive
	// and lower-case filters for terms that are not, and the stop filter
	// for terms not seen before.
	tokenizer  analysis.Tokenizer
	possessive analysis.TokenFilter
	lower      analysis.TokenFilter
	stop       analysis.TokenFilter
	// Caches not in use: one per goroutine analysing at once, kept (a
	// sync.Pool would drop them at each collection, and a build collects
	// every few hundred milliseconds).
	mu     sync.Mutex
	caches []*cache
}

// cacheSize is how many terms a cache holds, by their hash: a table that
// stays in a processor's cache, unlike a map of every word.
const cacheSize = 1 << 13

// A cache holds what the stop and Porter filters make of terms: nil for
// a stop word, else the stem.
type cache struct {
	terms [cacheSize]string
	stems [cacheSize][]byte
}

// New returns an Analyzer made of the parts of en, Bleve's "en"
// analyzer (a mapping's AnalyzerNamed(en.AnalyzerName)).
func New(en analysis.Analyzer) (*Analyzer, error) {
	d, ok := en.(*analysis.DefaultAnalyzer)
	if !ok || len(d.TokenFilters) != 4 || d.CharFilters != nil {
		return nil, fmt.Errorf("english analyzer: Bleve's analyzer is a %T of another shape", en)
	}
	f := d.TokenFilters
	_, ok0 := f[0].(*enlang.PossessiveFilter)
	_, ok1 := f[1].(*lowercase.LowerCaseFilter)
	_, ok2 := f[2].(*stop.StopTokensFilter)
	_, ok3 := f[3].(*porter.PorterStemmer)
	if !ok0 || !ok1 || !ok2 || !ok3 {
		return nil, fmt.Errorf("english analyzer: Bleve's analyzer is not possessive, lower case, stop words, Porter")
	}
	return &Analyzer{tokenizer: d.Tokenizer, possessive: f[0], lower: f[1], stop: f[2]}, nil
}

// Analyze returns the tokens of input, whose bytes it lowers in place
// (as Bleve's does); their terms are slices of input or of shared stems,
// not to be written to.
func (a *Analyzer) Analyze(input []byte) analysis.TokenStream {
	return a.analyze(input, nil)
}

// analyze is Analyze, and with s AnalyzeCounted's tokens and counts:
// then the tokens are made in s's memory, and each kept term is counted
// by its slot in the cache.
func (a *Analyzer) analyze(input []byte, s *Scratch) analysis.TokenStream {
	toks := a.tokenize(input, s)
	c := a.cache()
	j := 0
	for _, t := range toks {
		if !lowerASCII(t) {
			one := analysis.TokenStream{t}
			a.lower.Filter(a.possessive.Filter(one))
		}
		if t.KeyWord { // never, in this analyzer: Porter leaves them
			if len(a.stop.Filter(analysis.TokenStream{t})) == 1 {
				toks[j] = t
				j++
				if s != nil {
					s.count(-1, t.Term)
				}
			}
			continue
		}
		h := hash(t.Term) & (cacheSize - 1)
		st := c.stems[h]
		if c.terms[h] != string(t.Term) || len(t.Term) == 0 { // "" is also an empty slot
			st = nil
			if len(a.stop.Filter(analysis.TokenStream{t})) == 1 {
				st = stem(t.Term)
			}
			c.terms[h], c.stems[h] = string(t.Term), st
		}
		if st != nil {
			t.Term = st
			toks[j] = t
			j++
			if s != nil {
				s.count(int(h), st)
			}
		}
	}
	a.mu.Lock()
	a.caches = append(a.caches, c)
	a.mu.Unlock()
	return toks[:j]
}

// lowerASCII does to t what the possessive and lower-case filters do, if
// its term is ASCII, and says whether it was: drops a final "'s" and
// lowers the letters, in place.
func lowerASCII(t *analysis.Token) bool {
	b := t.Term
	for i, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	if n := len(b); n >= 2 && b[n-1] == 's' && b[n-2] == '\'' {
		t.Term = b[:n-2]
	}
	return true
}

// hash is FNV-1a of b.
func hash(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// cache takes a cache no other goroutine uses.
func (a *Analyzer) cache() *cache {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n := len(a.caches); n > 0 {
		c := a.caches[n-1]
		a.caches = a.caches[:n-1]
		return c
	}
	return new(cache)
}

// stem is what Bleve's Porter filter makes of term, with no spare
// capacity, so that an append to one token's term cannot write into
// another's.
func stem(term []byte) []byte {
	s := analysis.BuildTermFromRunes(porterstemmer.StemWithoutLowerCasing(bytes.Runes(term)))
	return s[:len(s):len(s)]
}

// tokenize is what Bleve's Unicode tokenizer makes of input. Valid UTF-8
// is cut into pieces at white space followed by ASCII, which no word
// spans and no segment but the white space's own: the pieces that are
// all ASCII are segmented here, the others by Bleve.
//
// With s, the tokens are made in its memory.
func (a *Analyzer) tokenize(input []byte, s *Scratch) analysis.TokenStream {
	if !utf8.Valid(input) {
		return a.tokenizer.Tokenize(input)
	}
	var toks []analysis.Token
	if s != nil {
		toks = s.toks[:0]
	} else {
		toks = make([]analysis.Token, 0, words(input))
	}
	pos := 1
	for i := 0; i < len(input); {
		k := i
		for k < len(input) && input[k] < utf8.RuneSelf {
			k++
		}
		if k == len(input) {
			toks, _ = asciiTokens(toks, input, i, k, pos)
			break
		}
		// input[k] starts a rune beyond ASCII: Bleve segments from the last
		// white space before it to the next white space followed by ASCII.
		from := k
		for from > i && !isSpace(input[from-1]) {
			from--
		}
		if from > i {
			from-- // the white space itself, whose segment is its own
		}
		toks, pos = asciiTokens(toks, input, i, from, pos)
		to := k + 1
		for to < len(input) && !(isSpace(input[to]) && (to+1 == len(input) || input[to+1] < utf8.RuneSelf)) {
			to++
		}
		for _, t := range a.tokenizer.Tokenize(input[from:to]) {
			t.Start += from
			t.End += from
			t.Position = pos
			pos++
			toks = append(toks, *t)
		}
		i = to
	}
	var out analysis.TokenStream
	if s != nil {
		s.toks = toks
		out = slices.Grow(s.ptrs[:0], len(toks))[:len(toks)]
		s.ptrs = out
	} else {
		out = make(analysis.TokenStream, len(toks))
	}
	for i := range toks {
		out[i] = &toks[i]
	}
	return out
}

// words is how many words input has at most, for the capacity of its
// tokens: growing them as they come was half of tokenize's time.
func words(input []byte) int {
	n, in := 0, false
	for _, c := range input {
		w := c >= utf8.RuneSelf || class[c] == letter || class[c] == digit || class[c] == under
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Word-break classes of ASCII (UAX #29, as Bleve's segmenter has them).
const (
	other     = iota
	letter    // ALetter
	digit     // Numeric
	under     // ExtendNumLet
	midLetter // MidLetter: between letters
	midNum    // MidNum: between digits
	midBoth   // MidNumLet, Single_Quote: between letters or digits
)

var class = func() (c [128]uint8) {
	for b := 'a'; b <= 'z'; b++ {
		c[b], c[b-'a'+'A'] = letter, letter
	}
	for b := '0'; b <= '9'; b++ {
		c[b] = digit
	}
	c['_'] = under
	c[':'] = midLetter
	c[','], c[';'] = midNum, midNum
	c['.'], c['\''] = midBoth, midBoth
	return c
}()

// asciiTokens appends the words of input[from:to], all ASCII, numbering
// them from pos: runs of letters, digits and underscores, joined across
// one mid character between two letters (":", ".", "'") or two digits
// (",", ";", ".", "'"). A word with digits and no letter is numeric.
func asciiTokens(toks []analysis.Token, input []byte, from, to, pos int) ([]analysis.Token, int) {
	for i := from; i < to; {
		c := class[input[i]]
		if c != letter && c != digit && c != under {
			i++
			continue
		}
		start := i
		letters, digits := false, false
		for i < to {
			switch class[input[i]] {
			case letter:
				letters = true
				i++
				continue
			case digit:
				digits = true
				i++
				continue
			case under:
				i++
				continue
			case midLetter:
				if i+1 < to && class[input[i-1]] == letter && class[input[i+1]] == letter {
					i++
					continue
				}
			case midNum:
				if i+1 < to && class[input[i-1]] == digit && class[input[i+1]] == digit {
					i++
					continue
				}
			case midBoth:
				if i+1 < to && class[input[i-1]] == class[input[i+1]] && (class[input[i+1]] == letter || class[input[i+1]] == digit) {
					i++
					continue
				}
			}
			break
		}
		typ := analysis.AlphaNumeric
		if digits && !letters {
			typ = analysis.Numeric
		}
		toks = append(toks, analysis.Token{Term: input[start:i], Start: start, End: i, Position: pos, Type: typ})
		pos++
	}
	return toks, pos
}
