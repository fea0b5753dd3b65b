package indexer

import (
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	index "github.com/blevesearch/bleve_index_api"
)

// A tokensField counts the terms Bleve's TextField does.
func TestTokensFieldFrequencies(t *testing.T) {
	ix, _ := openTest(t, Options{})
	r := rand.New(rand.NewSource(1))
	words := strings.Fields("the queue worker retries a queued job; workers' retries queue up again and the job's queue drains")
	for range 200 {
		var b strings.Builder
		for range r.Intn(60) {
			b.WriteString(words[r.Intn(len(words))])
			b.WriteByte(' ')
		}
		text := b.String()
		toks := ix.analyzer.Analyze([]byte(text))
		f := newTokensField(fieldBody, len(text), ix.textOpts, toks)
		f.Analyze()
		want := analysis.TokenFrequency(ix.analyzer.Analyze([]byte(text)), nil, ix.textOpts)
		if f.AnalyzedLength() != len(toks) || !sameFreqs(f.AnalyzedTokenFrequencies(), want) {
			t.Fatalf("%q: %d tokens, frequencies %v, want %d, %v", text, f.AnalyzedLength(), counts(f.AnalyzedTokenFrequencies()), len(toks), counts(want))
		}
	}
}

func sameFreqs(a, b index.TokenFrequencies) bool { return reflect.DeepEqual(counts(a), counts(b)) }

func counts(tf index.TokenFrequencies) map[string]int {
	m := make(map[string]int, len(tf))
	for k, f := range tf {
		if string(f.Term) != k || len(f.Locations) != 0 {
			m["bad "+k] = -1
		}
		m[k] = f.Frequency()
	}
	return m
}
