package english

import (
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"
)

// Scratch is the memory AnalyzeCounted reuses from one text to the next:
// the tokens and what counts the terms. Its zero value is ready; one
// goroutine uses it at a time.
type Scratch struct {
	toks []analysis.Token
	ptrs analysis.TokenStream
	// The text's terms, each once with its count, in the order they
	// first came (a term may be here twice, counted in parts: see
	// count); seen and at find a term's entry by its slot in the cache,
	// seen[slot] being epoch when at[slot] is of this text.
	terms []counted
	seen  []uint32
	at    []int32
	epoch uint32
}

type counted struct {
	term []byte
	n    int
}

// AnalyzeCounted returns the tokens Analyze does, made in s's memory
// (they are good until s is used again; their terms, slices of input or
// of shared stems, stay good), and the terms' frequencies as Bleve's
// analysis.TokenFrequency counts them for a field indexed without term
// vectors: each term once, with the number of its tokens unless
// skipFreqNorm (the field's index.FieldIndexingOptions.SkipFreqNorm).
//
// Bleve counts a field's terms in a map of every token, allocating a
// string and a TokenFreq for each distinct one; here tokens are counted
// by their terms' slots in the table of stems, and the map made of the
// distinct terms alone, all their bytes in one block (Bleve's segment
// builder reads each term's bytes twice and a document's terms one after
// another: terms spread over the heap, as the stems shared from the
// table are, cost it about as much as counting saves), their TokenFreqs
// in one slice.
func (a *Analyzer) AnalyzeCounted(s *Scratch, input []byte, skipFreqNorm bool) (analysis.TokenStream, index.TokenFrequencies) {
	s.terms = s.terms[:0]
	if s.seen == nil {
		s.seen, s.at = make([]uint32, cacheSize), make([]int32, cacheSize)
	}
	if s.epoch++; s.epoch == 0 {
		clear(s.seen)
		s.epoch = 1
	}
	toks := a.analyze(input, s)
	n := 0
	for _, c := range s.terms {
		n += len(c.term)
	}
	block := make([]byte, 0, n) // never written once filled: keys are strings of it
	freqs := make(index.TokenFrequencies, len(s.terms))
	each := make([]index.TokenFreq, len(s.terms))
	for i, c := range s.terms {
		term, key := c.term, ""
		if len(term) > 0 {
			from := len(block)
			block = append(block, term...)
			term = block[from:len(block):len(block)]
			key = unsafe.String(&term[0], len(term))
		}
		f := freqs[key]
		if f == nil {
			f = &each[i]
			f.Term = term
			freqs[key] = f
		} else {
			block = block[:len(block)-len(term)] // the term's first bytes serve
		}
		if !skipFreqNorm {
			f.SetFrequency(f.Frequency() + c.n)
		}
	}
	return toks, freqs
}

// count counts a token of term, found in the cache's slot (-1: none).
// Tokens of one slot count in one entry while the slot holds their term;
// a term met again after another took its slot gets a second entry, as
// does a stem of several words ("runs", "running"), which AnalyzeCounted
// adds up.
func (s *Scratch) count(slot int, term []byte) {
	if slot >= 0 && s.seen[slot] == s.epoch {
		c := &s.terms[s.at[slot]]
		if string(c.term) == string(term) {
			c.n++
			return
		}
	}
	s.terms = append(s.terms, counted{term: term, n: 1})
	if slot >= 0 {
		s.seen[slot], s.at[slot] = s.epoch, int32(len(s.terms)-1)
	}
}
