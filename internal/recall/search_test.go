package recall

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/gitstore/gitstoretest"
	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/refs"
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
func evalSet(t *testing.T) (*memory.Memory, []evalQuery) {
	t.Helper()
	var mems []evalMemory
	var queries []evalQuery
	loadJSON(t, "../../indexer/testdata/eval/memories.json", &mems)
	loadJSON(t, "../../indexer/testdata/eval/queries.json", &queries)
	var more []evalQuery
	loadJSON(t, "testdata/search/queries.json", &more)
	queries = append(queries, more...)

	m, _ := newTestMemory(t)
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	m.SetClock(func() time.Time { return now })
	rng := rand.New(rand.NewPCG(1, 2))
	files := map[string]string{}
	where := map[string]string{}
	for _, em := range mems {
		kind, err := model.ParseKind(em.Kind)
		if err != nil {
			kind = model.Note
		}
		created := now.Add(-time.Duration(rng.IntN(365*24)) * time.Hour)
		it := model.NewItem(kind, em.Title, created)
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
	x := mustOpenIndex(t, m)
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
	x := &Index{m: m, cfg: searchConfig(m)}
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
			got := x.rerank(tt.hits, 1, refs, now)
			var order []string
			for _, h := range got {
				order = append(order, h.Path)
				s := h.Scores
				want := 0.4*s.Relevance + math.Sqrt(s.Relevance)*(0.2*s.Recency+0.3*s.Importance+0.1*s.References)
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
	got := x.rerank([]indexer.Hit{hit("a.md", 1, 0.5, 30*24*time.Hour)}, 1, map[string]int{}, now)
	if r := got[0].Scores.Recency; r < 0.499 || r > 0.501 {
		t.Errorf("recency after one half-life = %v", r)
	}
}

func TestSearchBadInput(t *testing.T) {
	m, _ := newTestMemory(t)
	it := remember(t, m, model.Decision, "Use PostgreSQL for the job queue", "Workers claim jobs with SKIP LOCKED.")
	x := mustOpenIndex(t, m)
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
			m2, err := memory.Open(ctx, m.Dir, memory.Options{})
			if err != nil {
				t.Error(err)
				return
			}
			defer m2.Close()
			for range 5 {
				if err := refs.Count(ctx, m2, []string{"A", fmt.Sprint("B", i%2)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	got := refs.Load(m)
	if got["A"] != 40 || got["B0"] != 20 || got["B1"] != 20 {
		t.Errorf("counts %v", got)
	}
	os.WriteFile(m.StatePath(refs.File), []byte("{garbage"), 0o644)
	if got := refs.Load(m); len(got) != 0 {
		t.Errorf("damaged file counts %v", got)
	}
	if err := refs.Count(ctx, m, []string{"A"}); err != nil || refs.Load(m)["A"] != 1 {
		t.Errorf("after damage: %v %v", err, refs.Load(m))
	}
}

// The benchmarks below run on a generated memory of CAIRN_BENCH_FILES
// files (default 10,000): 5% core items with front matter, the rest the
// files of session folders, 200 of them active and the others archived,
// about 1 KB each of Zipf-distributed words. Run them one at a time:
//
//	go test -run='^$' -bench=SearchCorpus -benchtime=1x -timeout=30m ./memory
//	CAIRN_BENCH_FILES=100000 go test -run='^$' -bench=SearchCorpus -benchtime=1x -timeout=60m ./memory

var benchVocabulary = strings.Fields(`the a of to and in is for on with that it as was be by this are from or
at an not have has but we they you which their will can all one were been would more when there
queue worker job database schema migration index search query vector chunk token memory session
summary decision fact pattern preference commit branch merge rebase conflict remote push pull
test benchmark latency throughput cache timeout retry error panic crash log trace metric deploy
release build compile link module package import export function method interface struct field
file directory path read write sync lock mutex channel goroutine thread process signal socket
server client request response header body json yaml markdown config option flag command shell
postgres redis sqlite bleve fuse git hook daemon watcher transcript parser redact secret key
fast slow small large new old first last next previous early late good bad simple complex
add remove change fix break update upgrade install configure enable disable start stop run`)

type benchText struct {
	r *rand.Rand
	z *zipf
}

// zipf draws word ranks with P(k) proportional to 1/(k+2)^1.1, from a
// table, like math/rand's Zipf.
type zipf struct{ cdf []float64 }

func newZipf(n int) *zipf {
	z := &zipf{cdf: make([]float64, n)}
	sum := 0.0
	for k := range n {
		sum += 1 / math.Pow(float64(k+2), 1.1)
		z.cdf[k] = sum
	}
	for k := range z.cdf {
		z.cdf[k] /= sum
	}
	return z
}

func (t *benchText) words(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if i%12 == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		k := sort.SearchFloat64s(t.z.cdf, t.r.Float64())
		if k < len(benchVocabulary) {
			b.WriteString(benchVocabulary[k])
		} else {
			fmt.Fprintf(&b, "w%x", k)
		}
	}
	return b.String()
}

// benchCorpus writes a memory of about n files into dir/.cairn, commits
// it with git, and returns its text size.
func benchCorpus(tb testing.TB, dir string, n int) int64 {
	tb.Helper()
	mem := filepath.Join(dir, ".cairn")
	t := &benchText{r: rand.New(rand.NewPCG(1, 2)), z: newZipf(50000)}
	var size int64
	write := func(p, data string) {
		name := filepath.Join(mem, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			tb.Fatal(err)
		}
		size += int64(len(data))
	}
	write(".gitignore", ".state/\ninbox/\n")
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	items := n / 20
	for i := range items {
		created := now.Add(-time.Duration(t.r.IntN(3*365*24)) * time.Hour)
		it := model.NewItem(model.Kinds()[i%5], t.words(3+t.r.IntN(5)), created)
		it.Importance, it.Body = float64(t.r.IntN(11))/10, t.words(100+t.r.IntN(120))
		it.Created, it.Updated = created.Truncate(time.Second), created.Truncate(time.Second)
		data, err := it.Marshal()
		if err != nil {
			tb.Fatal(err)
		}
		write(it.Path(), string(data))
	}
	for i := range (n - items) / 5 {
		id := fmt.Sprintf("%08x-0000-4000-a000-%012x", t.r.Uint32(), i)
		base := "sessions/" + id
		if i >= 200 {
			month := i % 36
			base = fmt.Sprintf("archive/%d/%02d/%s", 2024+month/12, month%12+1, id)
		}
		write(base+"/session.yaml", fmt.Sprintf("schema: 1\nid: %s\nstatus: suspended\nstarted: 2026-01-02T10:00:00Z\nupdated: 2026-01-02T12:00:00Z\n", id))
		write(base+"/summary.md", "## Segment 1\n\n"+t.words(150+t.r.IntN(100)))
		write(base+"/transcript.md", "**User**: "+t.words(60)+"\n\n**Assistant**: "+t.words(100+t.r.IntN(80)))
		write(base+"/observations.md", "- "+t.words(120+t.r.IntN(80)))
		write(base+"/prompts.md", "1. "+t.words(130+t.r.IntN(100)))
	}
	if err := gitstoretest.CommitAll(context.Background(), mem); err != nil {
		tb.Fatal(err)
	}
	return size
}

func benchFiles() int {
	if n, err := strconv.Atoi(os.Getenv("CAIRN_BENCH_FILES")); err == nil && n > 0 {
		return n
	}
	return 10_000
}

// BenchmarkSearchCorpus reports, on a generated memory: indexing speed
// (Reindex, from the files), the index's size against the text's, warm
// search latency in each mode (rerank, hit text and snippets included)
// and warm context packing.
func BenchmarkSearchCorpus(b *testing.B) {
	n := benchFiles()
	dir := b.TempDir()
	size := benchCorpus(b, dir, n)
	ctx := context.Background()
	m, err := memory.Open(ctx, filepath.Join(dir, ".cairn"), memory.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	start, cpu0 := time.Now(), cpuTime()
	x, err := Reindex(ctx, m, IndexOptions{})
	if err != nil {
		b.Fatal(err)
	}
	took, cpu := time.Since(start), cpuTime()-cpu0
	defer x.Close()
	st, _ := x.Stats()
	b.ReportMetric(float64(st.Documents), "files")
	b.ReportMetric(float64(st.Chunks), "chunks")
	b.ReportMetric(float64(st.Chunks)/took.Seconds(), "chunks/s")
	b.ReportMetric(float64(st.Chunks)/cpu.Seconds(), "chunks/cpu-s")
	b.ReportMetric(float64(st.BleveBytes+st.VectorBytes)/float64(size), "index/text")
	b.ReportMetric(float64(size)/1e6, "text-MB")

	t := &benchText{r: rand.New(rand.NewPCG(3, 4)), z: newZipf(50000)}
	queries := make([]string, 200)
	for i := range queries {
		queries[i] = t.words(2) + " " + benchVocabulary[t.r.IntN(len(benchVocabulary))]
	}
	p50 := func(f func(q string)) float64 {
		for _, q := range queries[:20] {
			f(q)
		}
		var times []time.Duration
		for _, q := range queries {
			s := time.Now()
			f(q)
			times = append(times, time.Since(s))
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		return float64(times[len(times)/2].Microseconds()) / 1000
	}
	for _, mode := range []indexer.Mode{indexer.Keyword, indexer.Vector, indexer.Hybrid} {
		b.ReportMetric(p50(func(q string) {
			if _, err := x.Search(ctx, q, SearchOptions{Mode: mode}); err != nil {
				b.Fatal(err)
			}
		}), string(mode)+"-p50-ms")
	}
	b.ReportMetric(p50(func(q string) {
		if _, err := x.Context(ctx, ContextOptions{Query: q}); err != nil {
			b.Fatal(err)
		}
	}), "context-p50-ms")
}

// cpuTime is the user and system time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestWriteBenchCorpus writes the benchmarks' generated memory into the
// folder CAIRN_BENCH_CORPUS names, for bench/search.sh; without it, it
// does nothing.
func TestWriteBenchCorpus(t *testing.T) {
	dir := os.Getenv("CAIRN_BENCH_CORPUS")
	if dir == "" {
		t.Skip("CAIRN_BENCH_CORPUS not set")
	}
	size := benchCorpus(t, dir, benchFiles())
	fmt.Printf("%s/.cairn: %d files, %d bytes of text\n", dir, benchFiles(), size)
}
