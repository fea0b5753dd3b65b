package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/indexer"
)

type evalMemory struct {
	ID, Title, Kind, Body string
}

type evalQuery struct {
	Q    string
	Want []string
	Type string
}

func loadJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// evalSet loads the indexer's labelled memories (and this package's
// session files) into a memory as items with importance and dates drawn
// at random, so that the rerank has something to get wrong, and returns
// the queries with their wanted memories as paths.
func evalSet(t *testing.T) (*Memory, []evalQuery) {
	t.Helper()
	var mems []evalMemory
	var queries []evalQuery
	loadJSON(t, "../indexer/testdata/eval/memories.json", &mems)
	loadJSON(t, "../indexer/testdata/eval/queries.json", &queries)
	var more []evalQuery
	loadJSON(t, "testdata/search/queries.json", &more)
	queries = append(queries, more...)

	m, _ := newTestMemory(t)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return now }
	rng := rand.New(rand.NewPCG(1, 2))
	files := map[string]string{}
	where := map[string]string{}
	for _, em := range mems {
		kind, err := ParseKind(em.Kind)
		if err != nil {
			kind = Note
		}
		created := now.Add(-time.Duration(rng.IntN(365*24)) * time.Hour)
		it := NewItem(kind, em.Title, created)
		it.Created, it.Updated = created.Truncate(time.Second), created.Truncate(time.Second)
		it.Importance = float64(3+rng.IntN(7)) / 10
		it.Body = em.Body
		data, err := it.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		files[it.Path()] = string(data)
		where[em.ID] = it.Path()
	}
	// Session files: testdata/search/sessions/<id>/<file> become
	// sessions/<id>/<file>, known to queries as "<id>/<file>".
	root := "testdata/search/sessions"
	filepath.WalkDir(root, func(name string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, name)
		data, _ := os.ReadFile(name)
		files["sessions/"+filepath.ToSlash(rel)] = string(data)
		where[filepath.ToSlash(rel)] = "sessions/" + filepath.ToSlash(rel)
		return nil
	})
	writeFiles(t, m, files)
	for i := range queries {
		for j, w := range queries[i].Want {
			p, ok := where[w]
			if !ok {
				t.Fatalf("query %q wants unknown memory %s", queries[i].Q, w)
			}
			queries[i].Want[j] = p
		}
	}
	return m, queries
}

type quality struct{ hit1, hit5, recall5 float64 }

// measure runs the queries in one mode and returns hit@1, hit@5 and
// recall@5 by query type ("all" for every query).
func measure(t *testing.T, x *Index, queries []evalQuery, mode indexer.Mode) map[string]*quality {
	t.Helper()
	out := map[string]*quality{}
	n := map[string]float64{}
	for _, q := range queries {
		got := paths(t, x, q.Q, SearchOptions{Mode: mode, K: 5})
		// Hits are chunks: a file counts once, at its best rank.
		var files []string
		for _, p := range got {
			if !has(files, p) {
				files = append(files, p)
			}
		}
		for _, typ := range []string{q.Type, "all"} {
			s := out[typ]
			if s == nil {
				s = &quality{}
				out[typ] = s
			}
			n[typ]++
			if len(files) > 0 && has(q.Want, files[0]) {
				s.hit1++
			}
			found := 0
			for _, w := range q.Want {
				if has(files[:min(5, len(files))], w) {
					found++
				}
			}
			if found > 0 {
				s.hit5++
			}
			s.recall5 += float64(found) / float64(len(q.Want))
		}
	}
	for typ, s := range out {
		s.hit1, s.hit5, s.recall5 = s.hit1/n[typ], s.hit5/n[typ], s.recall5/n[typ]
	}
	return out
}

// TestRetrievalQuality runs the labelled queries through Search, rerank
// included, and reports hit@1, hit@5 and recall@5 for each mode, by
// query type; hybrid must beat keywords alone. It also reports the same
// without the rerank (relevance alone), to show what importance and
// recency drawn at random cost.
func TestRetrievalQuality(t *testing.T) {
	m, queries := evalSet(t)
	x := openIndex(t, m)
	modes := []indexer.Mode{indexer.Keyword, indexer.Vector, indexer.Hybrid}
	results := map[indexer.Mode]map[string]*quality{}
	plain := map[indexer.Mode]map[string]*quality{}
	for _, mode := range modes {
		results[mode] = measure(t, x, queries, mode)
	}
	x.cfg.Weights.Recency, x.cfg.Weights.Importance, x.cfg.Weights.References = 0, 0, 0
	for _, mode := range modes {
		plain[mode] = measure(t, x, queries, mode)
	}
	var types []string
	count := map[string]int{"all": len(queries)}
	for _, q := range queries {
		count[q.Type]++
	}
	for typ := range count {
		types = append(types, typ)
	}
	sort.Strings(types)
	var b strings.Builder
	fmt.Fprintf(&b, "%-11s %3s   %-17s   %-17s   %-17s\n", "", "", "keyword", "vector", "hybrid")
	fmt.Fprintf(&b, "%-11s %3s", "queries", "n")
	for range modes {
		fmt.Fprintf(&b, "   %-5s %-5s %-5s", "hit@1", "hit@5", "rec@5")
	}
	b.WriteByte('\n')
	for _, set := range []struct {
		name string
		r    map[indexer.Mode]map[string]*quality
	}{{"reranked", results}, {"relevance alone", plain}} {
		fmt.Fprintf(&b, "%s:\n", set.name)
		for _, typ := range types {
			fmt.Fprintf(&b, "%-11s %3d", typ, count[typ])
			for _, mode := range modes {
				s := set.r[mode][typ]
				fmt.Fprintf(&b, "   %5.2f %5.2f %5.2f", s.hit1, s.hit5, s.recall5)
			}
			b.WriteByte('\n')
		}
	}
	t.Logf("retrieval quality, %d queries:\n%s", len(queries), b.String())
	kw, hy := results[indexer.Keyword]["all"], results[indexer.Hybrid]["all"]
	if hy.hit5 <= kw.hit5 || hy.recall5 <= kw.recall5 {
		t.Errorf("hybrid hit@5 %.2f recall@5 %.2f does not beat keyword %.2f %.2f", hy.hit5, hy.recall5, kw.hit5, kw.recall5)
	}
}

func TestRerank(t *testing.T) {
	m, _ := newTestMemory(t)
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	x := &Index{m: m, cfg: m.searchConfig()}
	hit := func(p string, kw float64, imp float64, age time.Duration) indexer.Hit {
		return indexer.Hit{Path: p, KeywordRank: 1, KeywordScore: kw, Importance: imp, Created: now.Add(-age)}
	}
	tests := []struct {
		name string
		hits []indexer.Hit
		refs map[string]int
		want []string
	}{
		{"importance breaks a tie", []indexer.Hit{hit("a.md", 5, 0.5, 0), hit("b.md", 5, 0.9, 0)}, nil, []string{"b.md", "a.md"}},
		{"recency breaks a tie", []indexer.Hit{hit("a.md", 5, 0.5, 90*24*time.Hour), hit("b.md", 5, 0.5, time.Hour)}, nil, []string{"b.md", "a.md"}},
		{"references break a tie", []indexer.Hit{hit("a.md", 5, 0.5, 0), hit("b.md", 5, 0.5, 0)}, map[string]int{"b.md": 2}, []string{"b.md", "a.md"}},
		{"a much better match wins", []indexer.Hit{hit("a.md", 2, 0.9, 0), hit("b.md", 10, 0.3, 0)}, nil, []string{"b.md", "a.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refs := tt.refs
			if refs == nil {
				refs = map[string]int{}
			}
			got := x.rerank(tt.hits, refs, now)
			var order []string
			for _, h := range got {
				order = append(order, h.Path)
				s := h.Scores
				want := 0.4*s.Relevance + 0.2*s.Recency + 0.3*s.Importance + 0.1*s.References
				if d := h.Score - want; d > 1e-9 || d < -1e-9 {
					t.Errorf("%s: score %v, parts give %v", h.Path, h.Score, want)
				}
			}
			if strings.Join(order, " ") != strings.Join(tt.want, " ") {
				t.Errorf("order %v, want %v", order, tt.want)
			}
		})
	}
	// Recency halves every half-life.
	got := x.rerank([]indexer.Hit{hit("a.md", 1, 0.5, 30*24*time.Hour)}, map[string]int{}, now)
	if r := got[0].Scores.Recency; r < 0.499 || r > 0.501 {
		t.Errorf("recency after one half-life = %v", r)
	}
}

func TestSearchBadInput(t *testing.T) {
	m, _ := newTestMemory(t)
	it := remember(t, m, Decision, "Use PostgreSQL for the job queue", "Workers claim jobs with SKIP LOCKED.")
	x := openIndex(t, m)
	ctx := context.Background()
	junk := make([]byte, 4096)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range junk {
		junk[i] = byte(rng.UintN(256))
	}
	queries := []string{
		"", "   ", "the of and a", `title:postgresql`, `+postgresql -redis`, `"job queue"`, `post*`, `~/|\{}[]()^`,
		strings.Repeat("postgresql queue ", 620), string(junk), "\x00\x01\x02", "日本語のクエリ", "🙂",
	}
	for _, q := range queries {
		for _, mode := range []indexer.Mode{indexer.Keyword, indexer.Vector, indexer.Hybrid} {
			res, err := x.Search(ctx, q, SearchOptions{Mode: mode})
			if err != nil {
				t.Errorf("%s search %.30q: %v", mode, q, err)
				continue
			}
			if strings.TrimSpace(q) == "" && len(res.Hits) != 0 {
				t.Errorf("empty query found %d hits", len(res.Hits))
			}
		}
	}
	for _, q := range []string{`title:postgresql`, `+postgresql -redis`, strings.Repeat("postgresql queue ", 620)} {
		if got := paths(t, x, q, SearchOptions{Mode: indexer.Keyword}); len(got) == 0 || got[0] != it.Path() {
			t.Errorf("%.30q: %v", q, got)
		}
	}
	for _, opts := range []SearchOptions{
		{Mode: "fuzzy"}, {Kinds: []string{"decisoin"}}, {Layers: []string{"attic"}},
	} {
		if _, err := x.Search(ctx, "postgresql", opts); err == nil {
			t.Errorf("%+v: no error", opts)
		}
		if err := CheckSearchOptions(opts); err == nil {
			t.Errorf("CheckSearchOptions(%+v): no error", opts)
		}
	}
	if got := paths(t, x, "postgresql", SearchOptions{}); len(got) != 1 {
		t.Errorf("index broken after bad input: %v", got)
	}
}

func TestReferencesCounted(t *testing.T) {
	m, _ := newTestMemory(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m2, err := Open(ctx, m.Dir, Options{})
			if err != nil {
				t.Error(err)
				return
			}
			defer m2.Close()
			for range 5 {
				if err := m2.countReferences(ctx, []string{"A", fmt.Sprint("B", i%2)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	got := m.loadReferences()
	if got["A"] != 40 || got["B0"] != 20 || got["B1"] != 20 {
		t.Errorf("counts %v", got)
	}
	os.WriteFile(m.store.StatePath(referencesFile), []byte("{garbage"), 0o644)
	if got := m.loadReferences(); len(got) != 0 {
		t.Errorf("damaged file counts %v", got)
	}
	if err := m.countReferences(ctx, []string{"A"}); err != nil || m.loadReferences()["A"] != 1 {
		t.Errorf("after damage: %v %v", err, m.loadReferences())
	}
}
