package indexer

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/registry"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/cairn-mem/cairn/indexer/english"
)

// TestCountTerms checks that a counted field holds what Bleve's own text
// field holds once analysed: the same terms with the same frequencies
// and term bytes, the same length, value, options and type.
func TestCountTerms(t *testing.T) {
	bleveEn, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		t.Fatal(err)
	}
	a, err := english.New(bleveEn)
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"", "the", "The queue's workers retry; the queue retries.", "Ünïcode wörds and ASCII words, words: 3.14 3,14 o'clock"}
	r := rand.New(rand.NewSource(1))
	z := rand.NewZipf(r, 1.1, 2, 5000)
	for range 200 {
		texts = append(texts, benchText(r, z, r.Intn(400)))
	}
	opts := textOptions()
	for _, text := range texts {
		c := countTerms(fieldBody, readOnly(text), a.Analyze([]byte(text)), opts)

		f := document.NewTextFieldCustom(fieldBody, nil, []byte(text), opts, bleveEn)
		f.Analyze()
		want := f.AnalyzedTokenFrequencies()
		if c.AnalyzedLength() != f.AnalyzedLength() {
			t.Errorf("%q: length %d, Bleve %d", text, c.AnalyzedLength(), f.AnalyzedLength())
		}
		got := c.AnalyzedTokenFrequencies()
		if len(got) != len(want) {
			t.Errorf("%q: %d terms, Bleve %d", text, len(got), len(want))
		}
		for k, w := range want {
			g, ok := got[k]
			switch {
			case !ok:
				t.Errorf("%q: no term %q", text, k)
			case g.Frequency() != w.Frequency() || !bytes.Equal(g.Term, w.Term) || len(g.Locations) != 0:
				t.Errorf("%q: term %q: %q ×%d, Bleve %q ×%d", text, k, g.Term, g.Frequency(), w.Term, w.Frequency())
			}
		}
		if c.Name() != f.Name() || string(c.Value()) != text || c.NumPlainTextBytes() != f.NumPlainTextBytes() ||
			c.Options() != f.Options() || c.EncodedFieldType() != f.EncodedFieldType() || len(c.ArrayPositions()) != 0 {
			t.Errorf("%q: field %+v, Bleve's %+v", text, c, f)
		}
		// Size is for Bleve's statistics alone: about Bleve's own.
		if s, w := c.Size(), f.Size(); s < w/2 || s > 2*w {
			t.Errorf("%q: size %d, Bleve %d", text, s, w)
		}
	}
}

var (
	_ document.Field = (*counted)(nil)
	_ index.Field    = (*counted)(nil)
)
