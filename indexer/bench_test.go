package indexer

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
)

// Benchmarks report their figures as metrics; run them one at a time on a
// quiet machine, for example:
//
//	go test -run='^$' -bench=Index10k -benchtime=1x ./indexer
//	go test -run='^$' -bench=Query -benchtime=1x ./indexer
//	go test -run='^$' -bench=VectorSearch ./indexer/vecstore
//	go test -run='^$' -bench=Index100k -benchtime=1x -timeout=30m ./indexer

var benchWords = strings.Fields(`the a of to and in is for on with that it as was be by this are from or
at an not have has but we they you which their will can all one were been would more when there
queue worker job database schema migration index search query vector chunk token memory session
summary decision fact pattern preference commit branch merge rebase conflict remote push pull
test benchmark latency throughput cache timeout retry error panic crash log trace metric deploy
release build compile link module package import export function method interface struct field
file directory path read write sync lock mutex channel goroutine thread process signal socket
server client request response header body json yaml markdown config option flag command shell
user assistant tool prompt context budget rank score filter tag layer kind title created updated
postgres redis sqlite bleve fuse git hook daemon watcher transcript parser redact secret key
fast slow small large new old first last next previous early late good bad simple complex
add remove change fix break update upgrade install configure enable disable start stop run`)

// benchText makes n words of Zipf-distributed vocabulary, with a tail of
// rare made-up words as real text has.
func benchText(r *rand.Rand, z *rand.Zipf, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			if i%12 == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		k := int(z.Uint64())
		if k < len(benchWords) {
			b.WriteString(benchWords[k])
		} else {
			fmt.Fprintf(&b, "w%x", k)
		}
	}
	return b.String()
}

// benchDocs makes n short memory-like documents (30 to 120 words).
func benchDocs(n int, seed int64) ([]Document, int) {
	r := rand.New(rand.NewSource(seed))
	z := rand.NewZipf(r, 1.1, 2, 50000)
	kinds := []string{"fact", "decision", "pattern", "preference", "note", "summary", "observation"}
	docs := make([]Document, n)
	size := 0
	for i := range docs {
		body := benchText(r, z, 30+r.Intn(90))
		title := benchText(r, z, 3+r.Intn(5))
		size += len(body) + len(title)
		docs[i] = Document{
			Path:  fmt.Sprintf("core/%s/%06d.md", kinds[i%len(kinds)], i),
			Title: title, Kind: kinds[i%len(kinds)], Layer: "core",
			Session: fmt.Sprintf("s%d", i%200), Tags: []string{kinds[(i/7)%len(kinds)]},
			Created: day(1).Add(time.Duration(i) * time.Minute), Importance: float64(i%10) / 10,
			Body: body, FirstLine: 10,
		}
	}
	return docs, size
}

func BenchmarkIndex10k(b *testing.B)  { benchIndex(b, 10_000) }
func BenchmarkIndex100k(b *testing.B) { benchIndex(b, 100_000) }

func benchIndex(b *testing.B, n int) {
	ctx := context.Background()
	docs, size := benchDocs(n, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := filepath.Join(b.TempDir(), "index")
		ix, err := Open(ctx, dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start, cpu0 := time.Now(), cpuTime()
		for j := 0; j < len(docs); j += 1000 {
			if err := ix.Put(ctx, docs[j:min(j+1000, len(docs))]...); err != nil {
				b.Fatal(err)
			}
		}
		if err := ix.SetVersion(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
		elapsed, cpu := time.Since(start), cpuTime()-cpu0
		b.StopTimer()
		st, err := ix.Stats()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(n)/elapsed.Seconds(), "docs/s")
		b.ReportMetric(float64(st.Chunks)/elapsed.Seconds(), "chunks/s")
		b.ReportMetric(float64(st.BleveBytes)/float64(size), "bleve/text")
		b.ReportMetric(float64(st.VectorBytes)/float64(size), "vectors/text")
		b.ReportMetric(float64(size)/1e6, "text-MB")
		// CPU seconds say more than wall time on a shared machine.
		b.ReportMetric(float64(n)/cpu.Seconds(), "docs/cpu-s")
		ix.Close()
		b.StartTimer()
	}
}

// cpuTime is the user and system time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchIndexOnce is an index of n documents shared by the query
// benchmarks. With CAIRN_BENCH_DIR set, it is kept in that folder and
// reused by later runs (as long as its schema is this one's), so that
// query benchmarks at 100k need not index each time.
func benchIndexOnce(b *testing.B, n int) (*Index, []string) {
	b.Helper()
	ctx := context.Background()
	docs, _ := benchDocs(n, 1)
	dir := filepath.Join(b.TempDir(), "index")
	if d := os.Getenv("CAIRN_BENCH_DIR"); d != "" {
		dir = filepath.Join(d, fmt.Sprintf("index-%d", n))
	}
	ix, err := Open(ctx, dir, Options{})
	if errors.Is(err, ErrNeedsRebuild) {
		ix, err = Rebuild(ctx, dir, Options{})
	}
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	if ix.Version() != "bench" {
		ix.Reset(ctx)
		for j := 0; j < len(docs); j += 1000 {
			if err := ix.Put(ctx, docs[j:min(j+1000, len(docs))]...); err != nil {
				b.Fatal(err)
			}
		}
		if err := ix.SetVersion(ctx, "bench"); err != nil {
			b.Fatal(err)
		}
	}
	r := rand.New(rand.NewSource(2))
	z := rand.NewZipf(r, 1.1, 2, 50000)
	queries := make([]string, 500)
	for i := range queries {
		// Two words from the body of a random document, as a person might
		// type, plus one word of the common vocabulary.
		words := strings.Fields(docs[r.Intn(len(docs))].Body)
		queries[i] = words[r.Intn(len(words))] + " " + words[r.Intn(len(words))] + " " + benchText(r, z, 1)
	}
	return ix, queries
}

func BenchmarkQuery(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		if n > 10_000 && testing.Short() {
			continue
		}
		ix, queries := benchIndexOnce(b, n)
		for _, mode := range []Mode{Keyword, Vector, Hybrid} {
			b.Run(fmt.Sprintf("%s/%dk", mode, n/1000), func(b *testing.B) {
				ctx := context.Background()
				for _, q := range queries[:50] { // warm up
					ix.Search(ctx, Query{Text: q, Mode: mode})
				}
				var times []time.Duration
				b.ResetTimer()
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					for _, q := range queries {
						start := time.Now()
						// As memory asks: 30 hits for its rerank.
						if _, err := ix.Search(ctx, Query{Text: q, Mode: mode, K: 30}); err != nil {
							b.Fatal(err)
						}
						times = append(times, time.Since(start))
					}
				}
				cpu := cpuTime() - cpu0
				b.StopTimer()
				sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
				// CPU time a query, mean: what a loaded machine cannot inflate.
				b.ReportMetric(cpu.Seconds()*1000/float64(len(times)), "cpu-ms/op")
			})
		}
	}
}

// BenchmarkStoredBody measures what storing chunk bodies in Bleve (for
// Bleve's own highlighter) would cost against the static mapping's
// indexed-only bodies.
func BenchmarkStoredBody(b *testing.B) {
	docs, size := benchDocs(10_000, 1)
	for _, store := range []bool{false, true} {
		b.Run(fmt.Sprintf("store=%v", store), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				m := newMapping().(*mapping.IndexMappingImpl)
				f := m.DefaultMapping.Properties[fieldBody].Fields[0]
				f.Store, f.IncludeTermVectors = store, store
				dir := filepath.Join(b.TempDir(), "bleve")
				bi, err := bleve.NewUsing(dir, m, scorch.Name, scorch.Name, nil)
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				batch := bi.NewBatch()
				for j, d := range docs {
					batch.Index(d.Path, map[string]any{fieldBody: d.Body, fieldTitle: d.Title, fieldKind: d.Kind})
					if batch.Size() == 1000 || j == len(docs)-1 {
						if err := bi.Batch(batch); err != nil {
							b.Fatal(err)
						}
						batch = bi.NewBatch()
					}
				}
				elapsed := time.Since(start)
				bi.Close()
				b.ReportMetric(float64(len(docs))/elapsed.Seconds(), "docs/s")
				b.ReportMetric(float64(dirSize(dir))/float64(size), "bleve/text")
			}
		})
	}
}

// BenchmarkOpenSearch10k is what a short-lived command pays on top of
// process start: open an index of 10k documents, run one hybrid query,
// close it.
func BenchmarkOpenSearch10k(b *testing.B) {
	ctx := context.Background()
	ix, queries := benchIndexOnce(b, 10_000)
	dir := ix.dir
	if err := ix.Close(); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	runtime.GC() // not the index build's garbage
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		ix, err := Open(ctx, dir, Options{MustExist: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Search(ctx, Query{Text: queries[i%len(queries)]}); err != nil {
			b.Fatal(err)
		}
		if err := ix.Close(); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkOpenSearchPhases10k splits BenchmarkOpenSearch10k into its
// phases, for a keyword and a hybrid query.
func BenchmarkOpenSearchPhases10k(b *testing.B) {
	ctx := context.Background()
	ix, queries := benchIndexOnce(b, 10_000)
	dir := ix.dir
	if err := ix.Close(); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []Mode{Keyword, Hybrid} {
		b.Run(string(mode), func(b *testing.B) {
			runtime.GC() // not the index build's garbage
			var open, search, close, total []time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				ix, err := Open(ctx, dir, Options{MustExist: true})
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := ix.Search(ctx, Query{Text: queries[i%len(queries)], Mode: mode}); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				if err := ix.Close(); err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				open, search, close, total = append(open, t1.Sub(t0)), append(search, t2.Sub(t1)), append(close, t3.Sub(t2)), append(total, t3.Sub(t0))
			}
			for _, m := range []struct {
				name string
				d    []time.Duration
			}{{"open", open}, {"search", search}, {"close", close}, {"total", total}} {
				sort.Slice(m.d, func(i, j int) bool { return m.d[i] < m.d[j] })
				b.ReportMetric(float64(m.d[len(m.d)/2].Microseconds())/1000, m.name+"-p50-ms")
			}
		})
	}
}
