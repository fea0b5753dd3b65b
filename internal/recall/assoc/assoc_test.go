package assoc

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cairn-mem/cairn/indexer"
)

// books are chunks where "book" goes with "novel" and "dune", and
// "garden" with "rose", among filler that shares no word with them.
var books = []string{
	"I finished the book last night, a novel called Dune.",
	"That book was a long novel: Dune again, by Herbert.",
	"Another book, the novel Dune, for the train.",
	"She loved the book and the novel.",
	"The garden has roses and tulips.",
	"Roses in the garden again.",
	"The garden roses need water.",
	"A garden of roses.",
}

// openIndex makes a real index of books and n chunks of filler.
func openIndex(t *testing.T, n int) *indexer.Index {
	t.Helper()
	ctx := context.Background()
	ix, err := indexer.Open(ctx, filepath.Join(t.TempDir(), "index"), indexer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	var docs []indexer.Document
	for i, b := range books {
		docs = append(docs, indexer.Document{Path: fmt.Sprintf("b%d.md", i), Body: b})
	}
	for i := range n {
		docs = append(docs, indexer.Document{Path: fmt.Sprintf("f%d.md", i), Body: "filler " + letters(i) + " " + letters(i+1000)})
	}
	if err := ix.Put(ctx, docs...); err != nil {
		t.Fatal(err)
	}
	if err := ix.SetVersion(ctx, "v1"); err != nil {
		t.Fatal(err)
	}
	return ix
}

// letters names i in letters only: words with digits are not kept.
func letters(i int) string {
	s := "zq"
	for ; i > 0; i /= 26 {
		s += string(rune('a' + i%26))
	}
	return s
}

func words(ts []indexer.Term) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Text)
	}
	return out
}

func TestRelatedFromCooccurrence(t *testing.T) {
	ix := openIndex(t, 100)
	tab, err := Build(context.Background(), ix)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		query []string
		want  []string // in this order
	}{
		{[]string{"book"}, []string{"novel", "dune"}},
		{[]string{"garden"}, []string{"rose"}},
		{[]string{"book", "garden"}, []string{"novel", "rose", "dune"}},
		{[]string{"herbert"}, nil}, // in one chunk: too rare to say
		{[]string{"filler"}, nil},  // in every chunk: says nothing
		{[]string{"unknown"}, nil}, // not in the memory
		{[]string{"novel"}, []string{"book", "dune"}},
	}
	for _, tt := range tests {
		got := tab.Related(tt.query, 5, 0.2)
		if !slices.Equal(words(got), tt.want) {
			t.Errorf("Related(%q) = %v, want %q", tt.query, got, tt.want)
			continue
		}
		for i, r := range got {
			if r.Weight <= 0 || r.Weight > 0.2+1e-9 || i == 0 && r.Weight < 0.2-1e-9 {
				t.Errorf("Related(%q): %q weighs %v, want the best 0.2 and none more", tt.query, r.Text, r.Weight)
			}
		}
	}
	if got := tab.Related([]string{"book"}, 1, 0.2); !slices.Equal(words(got), []string{"novel"}) {
		t.Errorf("one word: %v", got)
	}
	if got := tab.Related([]string{"book"}, 5, 0); got != nil {
		t.Errorf("weight 0: %v", got)
	}
}

// TestSearchTakesRelated: through a real keyword search, a chunk that
// names a novel beside the query's word goes above one that has the
// word alone, which BM25 put a little higher.
func TestSearchTakesRelated(t *testing.T) {
	ctx := context.Background()
	ix := openIndex(t, 100)
	if err := ix.Put(ctx,
		indexer.Document{Path: "plain.md", Body: "Books on the shelf."},
		indexer.Document{Path: "dune.md", Body: "Books: Dune, a novel."},
	); err != nil {
		t.Fatal(err)
	}
	tab, err := Build(ctx, ix)
	if err != nil {
		t.Fatal(err)
	}
	order := func(rel []indexer.Term) []string {
		t.Helper()
		res, err := ix.Search(ctx, indexer.Query{Text: "Which books?", Mode: indexer.Keyword, Related: rel})
		if err != nil {
			t.Fatal(err)
		}
		var ps []string
		for _, h := range res.Hits {
			if h.Path == "plain.md" || h.Path == "dune.md" {
				ps = append(ps, h.Path)
			}
		}
		return ps
	}
	if got := order(nil); !slices.Equal(got, []string{"plain.md", "dune.md"}) {
		t.Fatalf("without related words: %v", got)
	}
	rel := tab.Related(ix.Terms("Which books?"), 5, 0.2)
	if got := order(rel); !slices.Equal(got, []string{"dune.md", "plain.md"}) {
		t.Errorf("with related words %v: %v, want dune.md first", rel, got)
	}
}

func TestCache(t *testing.T) {
	ctx := context.Background()
	ix := openIndex(t, 100)
	name := filepath.Join(t.TempDir(), "assoc")
	var c Cache
	tab, err := c.Table(ctx, name, ix)
	if err != nil {
		t.Fatal(err)
	}
	want := words(tab.Related([]string{"book"}, 5, 0.2))
	if len(want) == 0 {
		t.Fatal("no related words")
	}
	if again, _ := c.Table(ctx, name, ix); again != tab {
		t.Error("read again though the index did not change")
	}
	// Another process reads the file.
	loaded, err := Load(name)
	if err != nil {
		t.Fatal(err)
	}
	if got := words(loaded.Related([]string{"book"}, 5, 0.2)); !slices.Equal(got, want) {
		t.Errorf("loaded: %q, built: %q", got, want)
	}

	// Damaged or cut short, the file is rebuilt, never an error.
	data, _ := os.ReadFile(name)
	for _, bad := range [][]byte{
		append(append([]byte(nil), data[:len(data)/2]...), 0xff),
		append([]byte("x"), data[1:]...),
		nil,
	} {
		if err := os.WriteFile(name, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(name); err == nil {
			t.Fatalf("damaged file %q loaded", bad)
		}
		var fresh Cache
		tab, err := fresh.Table(ctx, name, ix)
		if err != nil {
			t.Fatalf("damaged file: %v", err)
		}
		if got := words(tab.Related([]string{"book"}, 5, 0.2)); !slices.Equal(got, want) {
			t.Errorf("rebuilt: %q, want %q", got, want)
		}
		if _, err := Load(name); err != nil {
			t.Errorf("not saved again: %v", err)
		}
	}

	// A few more chunks: the statistics hold. A tenth more: read again,
	// by this process and by the next.
	put := func(n int) {
		t.Helper()
		for i := range n {
			if err := ix.Put(ctx, indexer.Document{Path: fmt.Sprintf("more%d.md", i), Body: "A book, a novel, a garden."}); err != nil {
				t.Fatal(err)
			}
		}
	}
	put(2)
	if again, _ := c.Table(ctx, name, ix); again != tab {
		t.Error("read again after 2 chunks more in 108")
	}
	put(12)
	tab2, err := c.Table(ctx, name, ix)
	if err != nil {
		t.Fatal(err)
	}
	if tab2.chunks != 120 {
		t.Errorf("after 12 chunks more: the table has %d, want 120", tab2.chunks)
	}
	if again, err := Load(name); err != nil || again.chunks != 120 {
		t.Errorf("not saved again")
	}
}

// BenchmarkRelated: related words of a two-word query in a table of
// 100,000 chunks of 30 words each out of 20,000, the query's words each
// in 5% of the chunks.
func BenchmarkRelated(b *testing.B) {
	const chunks, vocab, per = 100_000, 20_000, 30
	r := rand.New(rand.NewPCG(1, 2))
	post := make([][]uint32, vocab)
	for c := range uint32(chunks) {
		for range per {
			w := int(float64(vocab) * math.Pow(r.Float64(), 2)) // more small ids
			if p := post[w]; len(p) == 0 || p[len(p)-1] != c {
				post[w] = append(p, c)
			}
		}
	}
	var terms []string
	var kept [][]uint32
	for w, p := range post {
		if len(p) >= MinShared && len(p) <= chunks/10 {
			terms = append(terms, fmt.Sprintf("w%05d", w))
			kept = append(kept, p)
		}
	}
	tab := newTable(chunks, terms, kept)
	var query []string
	for i, p := range kept {
		if len(p) > chunks/25 && len(query) < 2 {
			query = append(query, terms[i])
		}
	}
	b.ResetTimer()
	for range b.N {
		tab.Related(query, 5, 0.2)
	}
}
