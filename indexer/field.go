package indexer

import (
	"unsafe"

	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"
)

// tokensField is a Bleve text field given its tokens, as the indexer's
// analysis made them, which counts its terms with fewer allocations
// than Bleve's TextField (analysis.TokenFrequency makes a string and a
// TokenFreq for each distinct term of each chunk: the most allocated
// memory of a first build). The counts are the same.
//
// It holds no value: Bleve reads one only to store it or to keep doc
// values, which the mapping has neither of (see newMapping).
type tokensField struct {
	name  string
	size  int // of the text, in bytes
	opts  index.FieldIndexingOptions
	toks  analysis.TokenStream
	freqs index.TokenFrequencies
}

func newTokensField(name string, size int, opts index.FieldIndexingOptions, toks analysis.TokenStream) *tokensField {
	return &tokensField{name: name, size: size, opts: opts, toks: toks}
}

func (f *tokensField) Name() string                        { return f.name }
func (f *tokensField) ArrayPositions() []uint64            { return nil }
func (f *tokensField) Options() index.FieldIndexingOptions { return f.opts }
func (f *tokensField) Value() []byte                       { return nil }
func (f *tokensField) NumPlainTextBytes() uint64           { return uint64(f.size) }
func (f *tokensField) EncodedFieldType() byte              { return 't' } // as a TextField
func (f *tokensField) AnalyzedLength() int                 { return len(f.toks) }

func (f *tokensField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }

// Size is about the memory the field holds, for Bleve's accounting.
func (f *tokensField) Size() int {
	n := int(unsafe.Sizeof(*f)) + len(f.name)
	if f.freqs != nil {
		n += f.freqs.Size()
	}
	return n
}

// Analyze counts the field's terms. The map's keys share the terms'
// bytes, which nothing writes to once analysed (see english.Analyze),
// rather than copy each; the counts live in one slice.
func (f *tokensField) Analyze() {
	if f.opts.IncludeTermVectors() || f.opts.SkipFreqNorm() {
		f.freqs = analysis.TokenFrequency(f.toks, nil, f.opts)
		return
	}
	freqs := make(index.TokenFrequencies, len(f.toks))
	all := make([]index.TokenFreq, 0, len(f.toks))
	for _, t := range f.toks {
		key := unsafe.String(unsafe.SliceData(t.Term), len(t.Term))
		tf, ok := freqs[key]
		if !ok {
			all = append(all, index.TokenFreq{Term: t.Term})
			tf = &all[len(all)-1]
			freqs[key] = tf
		}
		tf.SetFrequency(tf.Frequency() + 1)
	}
	f.freqs = freqs
}
