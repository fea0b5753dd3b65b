package english

import (
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
	index "github.com/blevesearch/bleve_index_api"
)

// scratch is the one Scratch of the tests, reused from text to text as
// an index build does.
var scratch Scratch

// same fails unless a gives text the tokens of Bleve's "en" analyzer,
// by Analyze and by AnalyzeCounted, and AnalyzeCounted the frequencies
// Bleve counts of them.
func same(t testing.TB, a *Analyzer, bleve analysis.Analyzer, name, text string) bool {
	t.Helper()
	want := bleve.Analyze([]byte(text))
	if !sameTokens(t, a.Analyze([]byte(text)), want, name, text) {
		return false
	}
	for _, opts := range []index.FieldIndexingOptions{index.IndexField, index.IndexField | index.SkipFreqNorm} {
		got, freqs := a.AnalyzeCounted(&scratch, []byte(text), opts.SkipFreqNorm())
		if !sameTokens(t, got, want, name+" (counted)", text) {
			return false
		}
		wantFreqs := analysis.TokenFrequency(want, nil, opts)
		if len(freqs) != len(wantFreqs) {
			t.Errorf("%s: %d terms counted, Bleve %d\ntext %q", name, len(freqs), len(wantFreqs), text)
			return false
		}
		for k, w := range wantFreqs {
			g := freqs[k]
			if g == nil || string(g.Term) != string(w.Term) || g.Frequency() != w.Frequency() || len(g.Locations) != 0 {
				t.Errorf("%s: term %q counted %+v, Bleve %+v\ntext %q", name, k, g, w, text)
				return false
			}
		}
	}
	return true
}

func sameTokens(t testing.TB, got, want analysis.TokenStream, name, text string) bool {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d tokens, Bleve %d\ntext %q\ngot  %s\nwant %s", name, len(got), len(want), text, show(got), show(want))
		return false
	}
	for i := range got {
		g, w := got[i], want[i]
		if string(g.Term) != string(w.Term) || g.Start != w.Start || g.End != w.End ||
			g.Position != w.Position || g.Type != w.Type || g.KeyWord != w.KeyWord {
			t.Errorf("%s: token %d is %+v, Bleve %+v (%q, %q)\ntext %q", name, i, *g, *w, g.Term, w.Term, text)
			return false
		}
	}
	return true
}

func show(ts analysis.TokenStream) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(string(t.Term) + " ")
	}
	return b.String()
}

func analyzers(t testing.TB) (*Analyzer, analysis.Analyzer) {
	t.Helper()
	b, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		t.Fatal(err)
	}
	// Its own instance, so that the two share nothing.
	e, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(e)
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}

func TestSameAsBleve(t *testing.T) {
	a, b := analyzers(t)
	for _, text := range []string{
		"", " ", "a", "A's", "can't won't it's", "e.g. i.e. a.b.c a..b", "1,000.50 3.14 1;2 1:2 1'2",
		"a:b a:1 1:a a1.5 1.5a 1a.b ab. .ab", "foo_bar __init__ _ __ a_.b a._b 1_000 _1 1_",
		"x := f(a, b); // Retry-After: 5s", "Running RUNS ran runner's relational",
		"café naïve résumé", "l’homme’s ’quoted’ it’s", "full＇width＇s", "中文 日本語 カタカナ ひらがな 한국어",
		"a\u0301b e\u0301.x", " \u0301abc", "soft\u00adhyphen", "zero\u200dwidth", "emoji 🙂 here🙂there",
		"tab\tnew\nline\r\ncr\rend", "mixed é\nnext", "é", "aé b", "\u0301", "x\u0301 y",
		"THE and Of to", "Σσς ΣΑΣ", "Ⱥ Ⱦ", "\xff\xfe bad utf8 é", "trailing é ",
	} {
		same(t, a, b, "table", text)
	}
}

// TestSameAsBleveCorpus runs both analyzers over the repository's own
// Markdown and Go files and the test data.
func TestSameAsBleveCorpus(t *testing.T) {
	a, b := analyzers(t)
	root := filepath.Join("..", "..")
	files, bytes := 0, 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".md" && ext != ".go" && ext != ".txt" && ext != ".jsonl" && ext != ".yaml" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		bytes += len(data)
		// Whole files and their paragraphs (chunks are pieces of files).
		if !same(t, a, b, p, string(data)) {
			return nil
		}
		for i, para := range strings.Split(string(data), "\n\n") {
			if !same(t, a, b, p+"#"+string(rune('0'+i%10)), para) {
				return nil
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d files in the corpus", files)
	}
	t.Logf("%d files, %d bytes: the same tokens", files, bytes)
}

// TestSameAsBleveRandom compares random texts of the characters the
// word-break rules treat apart, ASCII and beyond.
func TestSameAsBleveRandom(t *testing.T) {
	a, b := analyzers(t)
	alphabet := []string{
		"a", "B", "s", "S", "z", "0", "7", "_", ".", ",", ";", ":", "'", "\"", " ", "\t", "\n", "\r", "-", "/", "#", "(",
		"é", "’", "＇", "\u0301", "\u00ad", "\u200d", "中", "カ", "ひ", "한", "🙂", "Σ", "\u00a0", "\u2028", "\xff",
		"the", "running", "it's", "1.5", "a.b",
	}
	r := rand.New(rand.NewSource(1))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for i := 0; i < n; i++ {
		var sb strings.Builder
		for k := r.Intn(24); k >= 0; k-- {
			sb.WriteString(alphabet[r.Intn(len(alphabet))])
		}
		if !same(t, a, b, "random", sb.String()) {
			return
		}
	}
}

// FuzzSameAsBleve looks for a text the two analyzers disagree on:
// go test -fuzz=FuzzSameAsBleve ./indexer/english
func FuzzSameAsBleve(f *testing.F) {
	for _, s := range []string{"a.b 1,5 it's", "café l’homme’s", "x\u0301 y", "\xff a", "foo_bar 1a.b"} {
		f.Add(s)
	}
	a, b := analyzers(f)
	f.Fuzz(func(t *testing.T, text string) {
		same(t, a, b, "fuzz", text)
	})
}

// TestCountedCollisions counts a text of more distinct terms than the
// table of stems holds, each several times and far apart, so that terms
// take each other's slots between their tokens, and stems shared by
// several words ("runs", "running").
func TestCountedCollisions(t *testing.T) {
	a, b := analyzers(t)
	r := rand.New(rand.NewSource(2))
	var sb strings.Builder
	for i := 0; i < 3*cacheSize; i++ {
		k := r.Intn(2 * cacheSize)
		fmt.Fprintf(&sb, "w%x runs%x running%x The ", k, k%7, k%7)
	}
	same(t, a, b, "collisions", sb.String())
}
