package indexer

import (
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"
)

// counted is a text field whose terms were counted when the chunk was
// analysed, on the indexer's own goroutines (see analyze): Bleve, handed
// it, has nothing left to do in its analysis step but take the counts.
// What Bleve's own TextField would hold after Analyze, it holds; the
// segment built from it is the same. It was Bleve's analysis step
// (analysis.TokenFrequency: a map, a string and a TokenFreq allocated
// per distinct term) and the walk over those counts that measures a
// document's size for Bleve's statistics, a tenth of a first build.
type counted struct {
	name   string
	value  []byte
	opts   index.FieldIndexingOptions
	length int // tokens
	freqs  index.TokenFrequencies
	size   int
}

func (f *counted) Name() string                                     { return f.name }
func (f *counted) ArrayPositions() []uint64                         { return nil }
func (f *counted) Options() index.FieldIndexingOptions              { return f.opts }
func (f *counted) Analyze()                                         {}
func (f *counted) Value() []byte                                    { return f.value }
func (f *counted) NumPlainTextBytes() uint64                        { return uint64(len(f.value)) }
func (f *counted) Size() int                                        { return f.size }
func (f *counted) EncodedFieldType() byte                           { return 't' }
func (f *counted) AnalyzedLength() int                              { return f.length }
func (f *counted) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }

// Sizes for counted.size, as Bleve's Size methods reckon them.
const (
	sizeOfCounted   = int(unsafe.Sizeof(counted{})) + int(unsafe.Sizeof(uintptr(0)))
	sizeOfMap       = int(unsafe.Sizeof(map[int]int{}))
	sizeOfString    = int(unsafe.Sizeof(""))
	sizeOfPtr       = int(unsafe.Sizeof(uintptr(0)))
	sizeOfTokenFreq = int(unsafe.Sizeof(index.TokenFreq{}))
)

// countTerms returns the field name of value, whose tokens are toks,
// with its terms counted as analysis.TokenFrequency counts them for
// fields without term vectors (opts must have none): each distinct
// term once, keyed by its text, with how often it occurs (unless opts
// skip frequencies and norms). The keys' bytes are copied into one
// allocation and the TokenFreqs made in another, instead of one of each
// per term; the map is sized as Bleve sizes it.
func countTerms(name string, value []byte, toks analysis.TokenStream, opts index.FieldIndexingOptions) *counted {
	n := 0
	for _, t := range toks {
		n += len(t.Term)
	}
	var (
		freqs = make(index.TokenFrequencies, len(toks))
		keys  = make([]byte, 0, n) // never grown: the keys point into it
		slab  = make([]index.TokenFreq, 0, len(toks))
		size  = sizeOfMap
		count = !opts.SkipFreqNorm()
	)
	for _, t := range toks {
		tf, ok := freqs[string(t.Term)]
		if !ok {
			from := len(keys)
			keys = append(keys, t.Term...)
			key := unsafe.String(unsafe.SliceData(keys[from:]), len(t.Term))
			slab = append(slab, index.TokenFreq{Term: t.Term})
			tf = &slab[len(slab)-1]
			freqs[key] = tf
			size += sizeOfString + sizeOfPtr + 2*len(t.Term) + sizeOfTokenFreq
		}
		if count {
			tf.SetFrequency(tf.Frequency() + 1)
		}
	}
	return &counted{
		name: name, value: value, opts: opts,
		length: len(toks), freqs: freqs,
		size: sizeOfCounted + len(name) + len(value) + size,
	}
}

// readOnly returns s's bytes without copying them: for a field's value,
// which Bleve reads (its size, and a stored field's value: none is
// stored) and a counted field never analyses, so nothing writes to it.
func readOnly(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
