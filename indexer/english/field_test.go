package english

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"
)

// A Field counts the terms Bleve's TextField does.
func TestFieldFrequencies(t *testing.T) {
	a, _ := analyzers(t)
	r := rand.New(rand.NewSource(1))
	words := strings.Fields("the queue worker retries a queued job; workers' retries queue up again and the job's queue drains Größe")
	for _, opts := range []index.FieldIndexingOptions{index.IndexField, index.IndexField | index.IncludeTermVectors} {
		for range 200 {
			var b strings.Builder
			for range r.Intn(60) {
				b.WriteString(words[r.Intn(len(words))])
				b.WriteByte(' ')
			}
			text := b.String()
			toks := a.Analyze([]byte(text))
			f := NewField("body", len(text), opts, toks)
			f.Analyze()
			want := analysis.TokenFrequency(a.Analyze([]byte(text)), nil, opts)
			if got := f.AnalyzedTokenFrequencies(); f.AnalyzedLength() != len(toks) || !reflect.DeepEqual(counts(got), counts(want)) {
				t.Fatalf("%q: %d tokens, frequencies %v, want %d, %v", text, f.AnalyzedLength(), counts(got), len(toks), counts(want))
			}
		}
	}
}

// counts is tf as terms and their counts and locations.
func counts(tf index.TokenFrequencies) map[string][2]int {
	m := make(map[string][2]int, len(tf))
	for k, f := range tf {
		if string(f.Term) != k {
			k = "term " + string(f.Term) + " under " + k
		}
		m[k] = [2]int{f.Frequency(), len(f.Locations)}
	}
	return m
}
