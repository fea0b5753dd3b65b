package indexer

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2/document"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/cairn-mem/cairn/indexer/chunk"
	"github.com/cairn-mem/cairn/indexer/vecstore"
)

// openTest opens a new index in a temporary directory and closes it when
// the test ends.
func openTest(t *testing.T, opts Options) (*Index, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "index")
	ix, err := Open(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix, dir
}

func put(t *testing.T, ix *Index, docs ...Document) {
	t.Helper()
	if err := ix.Put(context.Background(), docs...); err != nil {
		t.Fatal(err)
	}
}

func search(t *testing.T, ix *Index, q Query) []Hit {
	t.Helper()
	res, err := ix.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %+v: %v", q, err)
	}
	if res.VectorErr != nil {
		t.Fatalf("search %+v: vector side failed: %v", q, res.VectorErr)
	}
	return res.Hits
}

func paths(hits []Hit) []string {
	var ps []string
	for _, h := range hits {
		ps = append(ps, h.Path)
	}
	return ps
}

func day(d int) time.Time { return time.Date(2026, 11, d, 12, 0, 0, 0, time.UTC) }

// corpus is a handful of memory-like documents.
func corpus() []Document {
	return []Document{
		{Path: "core/decisions/postgres.md", Title: "Use PostgreSQL for the job queue", Kind: "decision", Layer: "core",
			Tags: []string{"db", "queue"}, Created: day(1), Updated: day(2), Importance: 0.9, FirstLine: 7,
			Body: "We chose PostgreSQL over Redis because enqueueing must share a transaction with the data.\n\nWorkers claim jobs with SKIP LOCKED."},
		{Path: "core/facts/goose.md", Title: "Schema changes", Kind: "fact", Layer: "core",
			Tags: []string{"db"}, Created: day(3), Importance: 0.5, FirstLine: 6,
			Body: "We migrate the database schema with goose; every migration is idempotent."},
		{Path: "core/preferences/tabs.md", Title: "Indentation", Kind: "preference", Layer: "core",
			Tags: []string{"style"}, Created: day(5), Importance: 0.3, FirstLine: 6,
			Body: "The user prefers tabs in Go and two spaces in YAML."},
		{Path: "sessions/s1/summary.md", Title: "Session summary", Kind: "summary", Layer: "active", Session: "s1",
			Created: day(10), Importance: 0.4, FirstLine: 1,
			Body: "## Segment 1\n\nFixed the flaky queue test by creating each package's schema separately.\n\n## Segment 2\n\nAdded a retry to the worker."},
		{Path: "archive/2026/10/s0/summary.md", Title: "Old session", Kind: "summary", Layer: "archival", Session: "s0",
			Created: time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC), Importance: 0.2, FirstLine: 1,
			Body: "Evaluated Redis streams for the queue; too risky on failover."},
	}
}

func TestStemming(t *testing.T) {
	ix, _ := openTest(t, Options{})
	put(t, ix, corpus()...)
	for _, q := range []string{"migrations", "migrating", "MIGRATED", "idempotency"} {
		hits := search(t, ix, Query{Text: q, Mode: Keyword})
		if len(hits) == 0 || hits[0].Path != "core/facts/goose.md" {
			t.Errorf("keyword %q: got %v, want goose.md first", q, paths(hits))
		}
	}
}

func TestTitleBoost(t *testing.T) {
	ix, _ := openTest(t, Options{})
	body := "Notes about the system and how it is run day to day by the team."
	put(t, ix,
		Document{Path: "a.md", Title: "Notes", Body: body + " The worker drains the backlog."},
		Document{Path: "b.md", Title: "Backlog", Body: body + " The worker drains the queue."},
	)
	hits := search(t, ix, Query{Text: "backlog", Mode: Keyword})
	if got := paths(hits); len(got) != 2 || got[0] != "b.md" {
		t.Fatalf("got %v, want the title match b.md first", got)
	}
	if hits[0].KeywordScore <= hits[1].KeywordScore {
		t.Errorf("title score %v not above body score %v", hits[0].KeywordScore, hits[1].KeywordScore)
	}
}

func TestFilters(t *testing.T) {
	ix, _ := openTest(t, Options{})
	put(t, ix, corpus()...)
	tests := []struct {
		name string
		q    Query
		want []string // sorted paths
	}{
		{"kind", Query{Kinds: []string{"decision"}}, []string{"core/decisions/postgres.md"}},
		{"kinds", Query{Kinds: []string{"decision", "summary"}}, []string{"archive/2026/10/s0/summary.md", "core/decisions/postgres.md", "sessions/s1/summary.md"}},
		{"layer", Query{Layers: []string{"archival"}}, []string{"archive/2026/10/s0/summary.md"}},
		{"session", Query{Session: "s1"}, []string{"sessions/s1/summary.md"}},
		{"tag", Query{Tags: []string{"db"}}, []string{"core/decisions/postgres.md", "core/facts/goose.md"}},
		{"tags all", Query{Tags: []string{"db", "queue"}}, []string{"core/decisions/postgres.md"}},
		{"since", Query{Since: day(3)}, []string{"core/facts/goose.md", "core/preferences/tabs.md", "sessions/s1/summary.md"}},
		{"until", Query{Until: day(1)}, []string{"archive/2026/10/s0/summary.md"}},
		{"since until", Query{Since: day(1), Until: day(3)}, []string{"core/decisions/postgres.md"}},
		// Bleve filters by day; the times within a day are the vectors file's.
		{"since within a day", Query{Since: day(3).Add(time.Hour)}, []string{"core/preferences/tabs.md", "sessions/s1/summary.md"}},
		{"until within a day", Query{Until: day(3).Add(time.Hour)}, []string{"archive/2026/10/s0/summary.md", "core/decisions/postgres.md", "core/facts/goose.md"}},
		{"until at the time", Query{Until: day(3)}, []string{"archive/2026/10/s0/summary.md", "core/decisions/postgres.md"}},
		{"none", Query{Kinds: []string{"nope"}}, nil},
	}
	// Words found in every document of interest, for both rankings.
	text := "queue schema database migrate redis session tabs worker postgres"
	for _, tt := range tests {
		for _, mode := range []Mode{Keyword, Vector, Hybrid} {
			t.Run(tt.name+"/"+string(mode), func(t *testing.T) {
				q := tt.q
				q.Text, q.Mode, q.K = text, mode, 50
				got := uniq(paths(search(t, ix, q)))
				if fmt.Sprint(got) != fmt.Sprint(tt.want) {
					t.Errorf("got %v, want %v", got, tt.want)
				}
			})
		}
	}
}

// uniq sorts and dedupes.
func uniq(ps []string) []string {
	m := map[string]bool{}
	var out []string
	for _, p := range ps {
		if !m[p] {
			m[p] = true
			out = append(out, p)
		}
	}
	sortStrings(out)
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestDeleteAndReplace(t *testing.T) {
	ix, _ := openTest(t, Options{Chunk: ChunkOptions{MaxTokens: 20, Overlap: 1}})
	long := strings.Repeat("The worker drains the queue every second.\n\n", 10)
	put(t, ix, Document{Path: "a.md", Title: "A", Body: long}, Document{Path: "b.md", Title: "B", Body: "queue"})
	want := len(chunk.Split(long, 1, ix.opts.Chunk)) + 1
	if n := ix.Count(); n != want || n < 4 {
		t.Fatalf("count = %d, want %d", n, want)
	}
	// Replacing a.md with a shorter body drops its extra chunks.
	put(t, ix, Document{Path: "a.md", Title: "A", Body: "The worker drains the queue."})
	if n := ix.Count(); n != 2 {
		t.Fatalf("count after replace = %d, want 2", n)
	}
	st, err := ix.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.BleveDocs != 2 {
		t.Errorf("bleve has %d docs after replace, want 2", st.BleveDocs)
	}
	if err := ix.Delete(context.Background(), "a.md", "not-there.md"); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []Mode{Keyword, Vector} {
		if got := paths(search(t, ix, Query{Text: "worker queue", Mode: mode})); fmt.Sprint(got) != "[b.md]" {
			t.Errorf("%s after delete: %v, want [b.md]", mode, got)
		}
	}
	if got := ix.Paths(); fmt.Sprint(got) != "[b.md]" {
		t.Errorf("paths = %v", got)
	}
	// And it all holds after reopening.
	dir := ix.dir
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	ix2, err := Open(context.Background(), dir, Options{Chunk: ChunkOptions{MaxTokens: 20, Overlap: 1}})
	if err != nil {
		t.Fatal(err)
	}
	defer ix2.Close()
	if n := ix2.Count(); n != 1 {
		t.Errorf("count after reopen = %d, want 1", n)
	}
	if got := paths(search(t, ix2, Query{Text: "worker queue"})); fmt.Sprint(got) != "[b.md]" {
		t.Errorf("after reopen: %v, want [b.md]", got)
	}
}

// tableEmbedder gives each text the vector of the first key it contains,
// so a test can set the vector ranking by hand.
type tableEmbedder struct {
	keys []string
	vecs map[string][]float32
}

func (e *tableEmbedder) Name() string { return "test-table" }
func (e *tableEmbedder) Dim() int     { return 2 }
func (e *tableEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = []float32{0, 0}
		for _, k := range e.keys {
			if strings.Contains(t, k) {
				out[i] = e.vecs[k]
				break
			}
		}
	}
	return out, nil
}

func TestHybridFusion(t *testing.T) {
	// Keyword ranking for "apple": A > B > C (D has no apple).
	// Vector ranking: C > B > D (A points away from the query).
	emb := &tableEmbedder{
		keys: []string{"QUERY", "markA", "markB", "markC", "markD"},
		vecs: map[string][]float32{
			"QUERY": {1, 0},
			"markA": {-0.1, 0.995},
			"markB": {0.5, 0.866},
			"markC": {0.9, 0.436},
			"markD": {0.2, 0.98},
		},
	}
	docs := []Document{
		{Path: "A", Body: "apple apple apple markA"},
		{Path: "B", Body: "apple pie with cream and sugar markB"},
		{Path: "C", Body: "an apple fell on the long road past the old mill and the river markC"},
		{Path: "D", Body: "pears markD"},
	}
	tests := []struct {
		mode Mode
		k    int
		vw   float64 // Query.VectorWeight
		want string
	}{
		{Keyword, 60, 0, "[A B C]"},
		{Vector, 60, 0, "[C B D]"},
		// B: 1/62+1/62 = .032258; C: 1/63+1/61 = .032266; A: 1/61; D: 1/63.
		{Hybrid, 60, 0, "[C B A D]"},
		// With k=1, B: 1/3+1/3; C: 1/4+1/2; A: 1/2; D: 1/4.
		{Hybrid, 1, 0, "[C B A D]"},
		// The vector side at a quarter: A 1/2; B 1/3+1/12; C 1/4+1/8;
		// D 1/16.
		{Hybrid, 1, 0.25, "[A B C D]"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s-k%d-w%v", tt.mode, tt.k, tt.vw), func(t *testing.T) {
			ix, _ := openTest(t, Options{Embedder: emb, RRFK: tt.k})
			put(t, ix, docs...)
			hits := search(t, ix, Query{Text: "apple QUERY", Mode: tt.mode, VectorWeight: tt.vw})
			if got := fmt.Sprint(paths(hits)); got != tt.want {
				for _, h := range hits {
					t.Logf("%s kw %d %.3f vec %d %.3f fused %.5f", h.Path, h.KeywordRank, h.KeywordScore, h.VectorRank, h.VectorScore, h.Score)
				}
				t.Fatalf("got %s, want %s", got, tt.want)
			}
			if tt.mode == Hybrid && tt.vw == 0 {
				h := hits[0] // C
				want := 1/float64(tt.k+3) + 1/float64(tt.k+1)
				if h.KeywordRank != 3 || h.VectorRank != 1 || abs(h.Score-want) > 1e-12 {
					t.Errorf("C: ranks %d/%d score %v, want 3/1 %v", h.KeywordRank, h.VectorRank, h.Score, want)
				}
				if abs(h.Relevance-want/(2/float64(tt.k+1))) > 1e-12 {
					t.Errorf("C: relevance %v", h.Relevance)
				}
			}
		})
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestHitFieldsAndSnippet(t *testing.T) {
	root := t.TempDir()
	file := "---\nkind: decision\ntitle: Use PostgreSQL\n---\n\nWe chose PostgreSQL over Redis because enqueueing must share a transaction with the data.\n"
	if err := os.MkdirAll(filepath.Join(root, "core"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "core/pg.md"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, _ := openTest(t, Options{Source: os.DirFS(root)})
	doc := Document{Path: "core/pg.md", Title: "Use PostgreSQL", Kind: "decision", Layer: "core", Session: "s9",
		Tags: []string{"db"}, Created: day(1), Updated: day(2), Importance: 0.9, FirstLine: 5,
		Body: "\nWe chose PostgreSQL over Redis because enqueueing must share a transaction with the data.\n"}
	put(t, ix, doc)
	hits := search(t, ix, Query{Text: "transactions redis"})
	if len(hits) != 1 {
		t.Fatalf("got %d hits", len(hits))
	}
	h := hits[0]
	want := Hit{ID: "core/pg.md#0", Path: "core/pg.md", StartLine: 6, EndLine: 6, EndCol: 89,
		Title: "Use PostgreSQL", Kind: "decision", Layer: "core", Session: "s9", Created: day(1), Updated: day(2), Importance: 0.9}
	if h.ID != want.ID || h.Path != want.Path || h.StartLine != want.StartLine || h.EndLine != want.EndLine ||
		h.EndCol != want.EndCol || h.Title != want.Title || h.Kind != want.Kind || h.Layer != want.Layer ||
		h.Session != want.Session || !h.Created.Equal(want.Created) || !h.Updated.Equal(want.Updated) ||
		h.Importance != want.Importance || fmt.Sprint(h.Tags) != "[db]" {
		t.Errorf("hit fields:\n got %+v\nwant %+v", h, want)
	}
	if h.KeywordRank != 1 || h.VectorRank != 1 || h.KeywordScore <= 0 || h.VectorScore <= 0 {
		t.Errorf("scores: %+v", h)
	}
	if h.Text != strings.TrimSpace(doc.Body) || h.Stale {
		t.Errorf("text %q stale %v", h.Text, h.Stale)
	}
	if wantSnip := "We chose PostgreSQL over «Redis» because enqueueing must share a «transaction» with the data."; h.Snippet != wantSnip {
		t.Errorf("snippet %q\n   want %q", h.Snippet, wantSnip)
	}
	// A changed file: text is what is there now, marked stale.
	if err := os.WriteFile(filepath.Join(root, "core/pg.md"), []byte(strings.Replace(file, "Redis", "Kafka", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	h = search(t, ix, Query{Text: "transactions redis"})[0]
	if !h.Stale || !strings.Contains(h.Text, "Kafka") {
		t.Errorf("after edit: stale %v text %q", h.Stale, h.Text)
	}

	// NoHitText leaves text to FillText, which fills it as Search would,
	// and without a query leaves the snippet out.
	hits = search(t, ix, Query{Text: "transactions redis", NoHitText: true})
	if len(hits) != 1 || hits[0].Text != "" || hits[0].Snippet != "" {
		t.Fatalf("NoHitText: %+v", hits)
	}
	ix.FillText(hits, "transactions redis")
	if hits[0].Text != h.Text || hits[0].Snippet != h.Snippet || !hits[0].Stale {
		t.Errorf("FillText: text %q snippet %q stale %v, want as Search's: %q %q", hits[0].Text, hits[0].Snippet, hits[0].Stale, h.Text, h.Snippet)
	}
	bare := search(t, ix, Query{Text: "transactions redis", NoHitText: true})
	ix.FillText(bare, "")
	if bare[0].Text != h.Text || bare[0].Snippet != "" {
		t.Errorf("FillText without a query: text %q snippet %q", bare[0].Text, bare[0].Snippet)
	}
	// Snippets makes from filled text the snippet FillText would.
	ix.Snippets(bare, "transactions redis")
	if bare[0].Snippet != h.Snippet {
		t.Errorf("Snippets: %q, want %q", bare[0].Snippet, h.Snippet)
	}
}

func TestBadQueries(t *testing.T) {
	ix, _ := openTest(t, Options{})
	put(t, ix, corpus()...)
	for _, q := range []string{
		"", "   ", "the and of", `title:queue +redis -"job" *`, `queue^2 ~ ( ) [ ] { } \ / : ! ?`,
		strings.Repeat("queue redis ", 1000), "\x00\xff\xfe binary \x01\x02 queue", "日本語 queue",
	} {
		for _, mode := range []Mode{Keyword, Vector, Hybrid} {
			if _, err := ix.Search(context.Background(), Query{Text: q, Mode: mode}); err != nil {
				t.Errorf("%s %.30q: %v", mode, q, err)
			}
		}
	}
	for _, q := range []string{"", "the and of"} {
		if hits := search(t, ix, Query{Text: q}); len(hits) != 0 {
			t.Errorf("%q found %d hits, want none", q, len(hits))
		}
	}
	if hits := search(t, ix, Query{Text: `title:queue +redis -"job" *`, Mode: Keyword}); len(hits) == 0 {
		t.Errorf("query syntax characters: no hits for the words in them")
	}
	if _, err := ix.Search(context.Background(), Query{Text: "x", Mode: "fuzzy"}); err == nil {
		t.Errorf("unknown mode: no error")
	}
}

func TestVersion(t *testing.T) {
	ctx := context.Background()
	ix, dir := openTest(t, Options{})
	if v := ix.Version(); v != "" {
		t.Fatalf("new index version %q", v)
	}
	put(t, ix, corpus()...)
	if err := ix.SetVersion(ctx, "4b825dc642cb6eb9a060e54bf8d69288fbee4904"); err != nil {
		t.Fatal(err)
	}
	// Another process reads it while this one holds the index.
	if v, err := RecordedVersion(dir); err != nil || v != "4b825dc642cb6eb9a060e54bf8d69288fbee4904" {
		t.Errorf("RecordedVersion while open: %q, %v", v, err)
	}
	ix.Close()
	if _, err := RecordedVersion(filepath.Join(t.TempDir(), "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("RecordedVersion of no index: %v, want fs.ErrNotExist", err)
	}
	ix, err := Open(ctx, dir, Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	if v := ix.Version(); v != "4b825dc642cb6eb9a060e54bf8d69288fbee4904" {
		t.Errorf("version after reopen %q", v)
	}
	if ix.Count() != 5 {
		t.Errorf("count after reopen %d", ix.Count())
	}
	if err := ix.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if ix.Version() != "" || ix.Count() != 0 {
		t.Errorf("after reset: version %q count %d", ix.Version(), ix.Count())
	}
	ix.Close()
}

func TestLocked(t *testing.T) {
	ctx := context.Background()
	_, dir := openTest(t, Options{})
	start := time.Now()
	_, err := Open(ctx, dir, Options{})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second open: %v, want ErrLocked", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("second open took %v", d)
	}
	if !strings.Contains(err.Error(), fmt.Sprint(os.Getpid())) {
		t.Errorf("error %q does not name the holder", err)
	}
	start = time.Now()
	_, err = Open(ctx, dir, Options{LockTimeout: 200 * time.Millisecond})
	if !errors.Is(err, ErrLocked) || time.Since(start) < 200*time.Millisecond {
		t.Errorf("open with timeout: %v after %v", err, time.Since(start))
	}
}

func TestMissing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	_, err := Open(context.Background(), dir, Options{MustExist: true})
	var re *RebuildError
	if !errors.Is(err, ErrNeedsRebuild) || !errors.As(err, &re) || re.Reason != "missing" {
		t.Fatalf("got %v, want a missing index", err)
	}
}

// FuzzQuery searches a small real index with arbitrary text in every mode:
// never an error, never a panic, hits always valid.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"", "queue", `title:"x" +y -z *`, "\x00\xff", "日本語", "the of and", strings.Repeat("ab ", 3000)} {
		f.Add(s, uint8(0))
	}
	dir := filepath.Join(f.TempDir(), "index")
	ix, err := Open(context.Background(), dir, Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Put(context.Background(), corpus()...); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, mode uint8) {
		m := []Mode{Keyword, Vector, Hybrid}[int(mode)%3]
		res, err := ix.Search(context.Background(), Query{Text: text, Mode: m, K: int(mode)})
		if err != nil {
			t.Fatalf("%s %q: %v", m, text, err)
		}
		for _, h := range res.Hits {
			if h.Path == "" || h.StartLine < 1 || h.EndLine < h.StartLine || h.Score <= 0 || h.Relevance > 1.0000001 {
				t.Fatalf("bad hit %+v", h)
			}
		}
	})
}

// TestConcurrentUse searches while another goroutine writes (run with
// -race): searches see whole batches, never an error.
func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	ix, _ := openTest(t, Options{})
	put(t, ix, corpus()...)
	done := make(chan struct{})
	errs := make(chan error, 4)
	go func() {
		defer close(done)
		for i := range 30 {
			d := Document{Path: fmt.Sprintf("n/%d.md", i%5), Title: "note", Body: fmt.Sprintf("queue note number %d", i)}
			if err := ix.Put(ctx, d); err != nil {
				errs <- err
				return
			}
			if i%7 == 0 {
				if err := ix.Delete(ctx, d.Path); err != nil {
					errs <- err
					return
				}
			}
		}
	}()
	for r := range 2 {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				if _, err := ix.Search(ctx, Query{Text: "queue note", Mode: []Mode{Hybrid, Vector}[r]}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// TestReadOnlySession checks that opening, searching and closing an index
// leaves its files as they were: Close rewrites meta.json only after a
// change, and a keyword search never reads the vectors.
func TestReadOnlySession(t *testing.T) {
	ctx := context.Background()
	ix, dir := openTest(t, Options{})
	put(t, ix, corpus()...)
	if err := ix.SetVersion(ctx, "v1"); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	stat := func(name string) os.FileInfo {
		t.Helper()
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	before := stat(metaFile)
	old, err := os.ReadFile(filepath.Join(dir, metaFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []Mode{Keyword, Hybrid, Vector} {
		ix, err := Open(ctx, dir, Options{MustExist: true})
		if err != nil {
			t.Fatal(err)
		}
		if hits := search(t, ix, Query{Text: "queue", Mode: mode}); len(hits) == 0 {
			t.Errorf("%s search found nothing", mode)
		}
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		if after := stat(metaFile); !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
			t.Errorf("%s session rewrote %s", mode, metaFile)
		}
	}
	// A write is recorded on Close.
	ix, err = Open(ctx, dir, Options{MustExist: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Delete(ctx, "core/facts/goose.md"); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, metaFile)); err != nil || string(b) == string(old) {
		t.Errorf("close after a delete left %s as it was (%v)", metaFile, err)
	}
}

// TestCrashLeftBleveChunks checks that chunks a crash left in Bleve but
// not in the vectors file (Bleve is written first) are found by their
// ids' prefix and removed by the next Put of their path, and never
// mistaken for another path's (a.md's prefix is not a.md.bak's).
func TestCrashLeftBleveChunks(t *testing.T) {
	ctx := context.Background()
	ix, _ := openTest(t, Options{})
	put(t, ix, Document{Path: "a.md", Body: "queue worker"}, Document{Path: "a.md.bak", Body: "queue worker"})
	// What a crash between the two writes leaves: a chunk only in Bleve.
	ix.mu.Lock()
	if err := ix.bleve.Index(vecstore.ChunkID("a.md", 7), bleveDoc(pendingChunk{entry: &vecstore.Entry{Path: "a.md", Seq: 7}, body: "queue"})); err != nil {
		t.Fatal(err)
	}
	ix.consistent = false
	ix.mu.Unlock()
	if err := ix.Put(ctx, Document{Path: "a.md", Body: "other words"}); err != nil {
		t.Fatal(err)
	}
	n, err := ix.bleve.DocCount()
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || ix.Count() != 2 {
		t.Errorf("Bleve holds %d chunks, the vectors file %d; want 2 and 2", n, ix.Count())
	}
	if got := paths(search(t, ix, Query{Text: "queue", Mode: Keyword})); fmt.Sprint(got) != "[a.md.bak]" {
		t.Errorf("search after the repair: %v, want [a.md.bak]", got)
	}
}

// otherEmbedder hides that it is the built-in embedder, so that Put takes
// the path of every other embedder: the mapping analyses for Bleve.
type otherEmbedder struct{ *HashEmbedder }

// TestSharedAnalysis checks that the built-in embedder's path, where Put
// analyses each chunk once for Bleve and the embedder, indexes as the
// mapping does: the same keyword hits with the same scores, and vectors
// alike but for the title/body boundary.
func TestSharedAnalysis(t *testing.T) {
	h, err := NewHashEmbedder()
	if err != nil {
		t.Fatal(err)
	}
	shared, _ := openTest(t, Options{})
	mapped, _ := openTest(t, Options{Embedder: otherEmbedder{h}})
	docs := corpus()
	more, _ := benchDocs(300, 7) // enough for the parallel paths
	docs = append(docs, more...)
	put(t, shared, docs...)
	put(t, mapped, docs...)
	for _, q := range []string{"postgres queue", "schema migrations", "tabs indentation", "worker session summary", "the"} {
		for _, mode := range []Mode{Keyword, Vector} {
			// Every match (ties may come in another order): by id.
			a := search(t, shared, Query{Text: q, Mode: mode, K: 1000, Candidates: 1000})
			b := search(t, mapped, Query{Text: q, Mode: mode, K: 1000, Candidates: 1000})
			// Vector hits end at a similarity of 0, which the boundary
			// may move a near-orthogonal chunk across.
			if d := len(a) - len(b); d != 0 && (mode == Keyword || d > 2 || d < -2) {
				t.Fatalf("%q %s: %d hits shared, %d mapped", q, mode, len(a), len(b))
			}
			want := map[string]Hit{}
			for _, h := range b {
				want[h.ID] = h
			}
			for _, h := range a {
				w, ok := want[h.ID]
				switch {
				case !ok && mode == Keyword:
					t.Errorf("%q %s: %s only shared", q, mode, h.ID)
				case !ok:
				case mode == Keyword && h.KeywordScore != w.KeywordScore:
					t.Errorf("%q: %s keyword score shared %v, mapped %v", q, h.ID, h.KeywordScore, w.KeywordScore)
				case mode == Vector && math.Abs(h.VectorScore-w.VectorScore) > 0.05:
					t.Errorf("%q: %s vector score shared %v, mapped %v", q, h.ID, h.VectorScore, w.VectorScore)
				}
			}
		}
	}
}

// A process killed after a SetVersion and some Puts (Bleve's batches
// then maybe only in memory, the vectors appended but not synced) leaves
// an index that opens at that version, dirty; putting the same
// documents again, as catching up from the version does, makes it whole.
func TestKilledAfterPuts(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "index")
	ix, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	docs := parallelCorpus(300)
	put(t, ix, docs[:100]...)
	if err := ix.SetVersion(ctx, "v1"); err != nil {
		t.Fatal(err)
	}
	docs[150].Body += "\n\nocelot"
	put(t, ix, docs[100:]...)
	// The kill: Bleve and the vectors file closed as they are, nothing
	// awaited or synced, meta.json left as the writes made it.
	ix.mu.Lock()
	ix.bleve.Close()
	ix.vecs.Close()
	ix.closed = true
	ix.release()
	ix.mu.Unlock()

	ix, err = Open(ctx, dir, Options{})
	if err != nil {
		t.Fatalf("open after the kill: %v", err)
	}
	defer ix.Close()
	if ix.Version() != "v1" {
		t.Errorf("version %q after the kill, want v1", ix.Version())
	}
	put(t, ix, docs[100:]...)
	if err := ix.SetVersion(ctx, "v2"); err != nil {
		t.Fatal(err)
	}
	st, err := ix.Stats()
	if err != nil || st.Documents != 300 || st.BleveDocs != uint64(st.Chunks) {
		t.Errorf("after catching up: %+v %v", st, err)
	}
	if got := paths(search(t, ix, Query{Text: "ocelot", Mode: Keyword})); fmt.Sprint(got) != "["+docs[150].Path+"]" {
		t.Errorf("keyword search after catching up: %v", got)
	}
}

// Reset right after a Put, its batches maybe still on their way to disk,
// leaves nothing for SetVersion to wait for.
func TestResetAfterPut(t *testing.T) {
	ctx := context.Background()
	ix, _ := openTest(t, Options{})
	put(t, ix, parallelCorpus(100)...)
	if err := ix.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	put(t, ix, Document{Path: "a.md", Body: "ocelot"})
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := ix.SetVersion(ctx, "v"); err != nil {
		t.Fatal(err)
	}
	if st, err := ix.Stats(); err != nil || st.Chunks != 1 || st.BleveDocs != 1 {
		t.Errorf("after reset and put: %+v %v", st, err)
	}
}

// TestCountedDoc checks that the document Put makes of a chunk it has
// analysed (countedDoc) is, field for field once Bleve analyses it, the
// one the mapping makes with Bleve's analyzers: the same names, list
// positions, options, lengths and term frequencies (and values, but the
// text fields' are lowered: Bleve reads only their length).
func TestCountedDoc(t *testing.T) {
	ix, _ := openTest(t, Options{})
	docs := parallelCorpus(300)
	docs = append(docs, corpus()...)
	docs[1].Tags = []string{"", "b", "b", "Ünïcode Tag"}
	docs[2].Kind, docs[2].Layer, docs[2].Session, docs[2].Created = "", "", "", time.Time{}
	docs[3].Title = "Café's RUNNING tests: l’homme"
	docs[4].Body = "\xff\xfe not UTF-8 é"
	var chunks []pendingChunk
	for i := range docs {
		chunks = append(chunks, ix.chunkDoc(&docs[i])...)
	}
	hash, _ := ix.embedder.(*HashEmbedder)
	if _, err := ix.analyzeEmbed(context.Background(), hash, chunks); err != nil {
		t.Fatal(err)
	}
	type field struct {
		key    string // name and list positions
		opts   index.FieldIndexingOptions
		value  string
		length int
		freqs  map[string]int
	}
	fields := func(d *document.Document) []field {
		var out []field
		d.VisitFields(func(f index.Field) {
			f.Analyze()
			v := string(f.Value())
			if f.Name() == fieldBody || f.Name() == fieldTitle {
				v = fmt.Sprint(len(v))
			}
			fr := map[string]int{}
			for k, tf := range f.AnalyzedTokenFrequencies() {
				if string(tf.Term) != k || len(tf.Locations) != 0 {
					t.Errorf("%s: term %q keyed %q, %d locations", f.Name(), tf.Term, k, len(tf.Locations))
				}
				fr[k] = tf.Frequency()
			}
			out = append(out, field{fmt.Sprint(f.Name(), f.ArrayPositions()), f.Options(), v, f.AnalyzedLength(), fr})
		})
		sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
		if len(d.CompositeFields) != 0 || len(d.NestedDocuments) != 0 {
			t.Errorf("%s: composite or nested fields", d.ID())
		}
		return out
	}
	for i := range chunks {
		c := &chunks[i]
		mapped := document.NewDocument(c.entry.ID())
		if err := ix.bleve.Mapping().MapDocument(mapped, bleveDoc(*c)); err != nil {
			t.Fatal(err)
		}
		want := fields(mapped)
		got := fields(ix.countedDoc(c))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", c.entry.ID(), got, want)
		}
	}
}

// textHash is hash/fnv's FNV-1a, 64 bits.
func TestTextHash(t *testing.T) {
	for _, s := range []string{"", "a", "chunk text\nwith lines", "Größe ändern", strings.Repeat("xyz ", 1000)} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got, want := textHash(s), h.Sum64(); got != want {
			t.Errorf("textHash(%.20q) = %x, want %x", s, got, want)
		}
	}
}
