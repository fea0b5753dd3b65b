package english

import (
	"bytes"
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/go-porterstemmer"
)

// Analyzer gives the tokens of Bleve's "en" analyzer. It is safe for
// concurrent use.
type Analyzer struct {
	tokenizer analysis.Tokenizer     // Bleve's, for what is not ASCII
	filters   []analysis.TokenFilter // Bleve's, up to the stemmer
	// Stem caches not in use: one per goroutine analysing at once, kept
	// (a sync.Pool would drop them at each collection, and a build
	// collects every few hundred milliseconds).
	mu    sync.Mutex
	stems []stemCache
}

// maxStems bounds a stem cache: past it the cache starts again, so that
// a build over many distinct words does not hold them all.
const maxStems = 1 << 16

type stemCache map[string][]byte

// New returns an Analyzer made of the parts of en, Bleve's "en"
// analyzer (a mapping's AnalyzerNamed(en.AnalyzerName)).
func New(en analysis.Analyzer) (*Analyzer, error) {
	d, ok := en.(*analysis.DefaultAnalyzer)
	if !ok || len(d.TokenFilters) == 0 || d.CharFilters != nil {
		return nil, fmt.Errorf("english analyzer: Bleve's analyzer is a %T of another shape", en)
	}
	last := len(d.TokenFilters) - 1
	if _, ok := d.TokenFilters[last].(*porter.PorterStemmer); !ok {
		return nil, fmt.Errorf("english analyzer: Bleve's analyzer does not end with the Porter stemmer")
	}
	return &Analyzer{tokenizer: d.Tokenizer, filters: d.TokenFilters[:last]}, nil
}

// Analyze returns the tokens of input, whose bytes it lowers in place
// (as Bleve's does); their terms are slices of input or of shared stems,
// not to be written to.
func (a *Analyzer) Analyze(input []byte) analysis.TokenStream {
	toks := a.tokenize(input)
	for _, f := range a.filters {
		toks = f.Filter(toks)
	}
	c := a.cache()
	if len(c) > maxStems {
		clear(c)
	}
	for _, t := range toks {
		if t.KeyWord {
			continue
		}
		s, ok := c[string(t.Term)]
		if !ok {
			s = stem(t.Term)
			c[string(t.Term)] = s
		}
		t.Term = s
	}
	a.mu.Lock()
	a.stems = append(a.stems, c)
	a.mu.Unlock()
	return toks
}

// cache takes a stem cache no other goroutine uses.
func (a *Analyzer) cache() stemCache {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n := len(a.stems); n > 0 {
		c := a.stems[n-1]
		a.stems = a.stems[:n-1]
		return c
	}
	return make(stemCache)
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
func (a *Analyzer) tokenize(input []byte) analysis.TokenStream {
	if !utf8.Valid(input) {
		return a.tokenizer.Tokenize(input)
	}
	toks := make([]analysis.Token, 0, words(input))
	pos := 1
	for i := 0; i < len(input); {
		k := i
		for k < len(input) && input[k] < utf8.RuneSelf {
			k++
		}
		if k == len(input) {
			toks, pos = asciiTokens(toks, input, i, k, pos)
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
	out := make(analysis.TokenStream, len(toks))
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
