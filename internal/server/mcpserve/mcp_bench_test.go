package mcpserve

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchWords make the generated memories' text: a project's vocabulary.
var benchWords = strings.Fields(`queue job worker retry backoff postgres redis cache index search
token budget deploy helm chart kubernetes staging production release branch merge rebase
commit checkpoint session transcript summary decision fact pattern preference note
migration schema table column lock transaction timeout deadline context cancel goroutine
channel mutex race test fixture golden fuzz benchmark latency throughput memory leak
profile flame graph allocation pool buffer stream parser lexer grammar syntax error
warning panic recover signal shutdown graceful drain inbox watcher fsnotify debounce
cursor offset inode rename fsync atomic durable idempotent dedupe hash ulid slug title
front matter yaml markdown json http api endpoint bearer loopback daemon sidecar hook
agent claude prompt tool bash edit read write grep glob compaction resume archive
remote sync fetch push conflict copy union driver vector embedding bm25 fusion rerank
recency importance reference chunk overlap paragraph snippet highlight analyzer stem`)

// benchMCPMemory makes a memory of n items written at once and
// committed in one checkpoint, with its index built.
func benchMCPMemory(b *testing.B, n int) *memory.Memory {
	b.Helper()
	b.Setenv("HOME", b.TempDir())
	ctx := context.Background()
	m, _, err := memory.Init(ctx, filepath.Join(b.TempDir(), "proj"), memory.Options{})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	words := func(k int) string {
		w := make([]string, k)
		for i := range w {
			w[i] = benchWords[r.IntN(len(benchWords))]
		}
		return strings.Join(w, " ")
	}
	kinds := []model.Kind{model.Decision, model.Fact, model.Pattern, model.Preference, model.Note}
	now := time.Now()
	for i := range n {
		it := model.NewItem(kinds[i%len(kinds)], words(4+r.IntN(5)), now.Add(-time.Duration(i)*time.Hour))
		it.ID = model.NewID(it.Created)
		it.Body = words(40+r.IntN(80)) + ".\n\n" + words(20+r.IntN(40)) + "."
		it.Importance = float64(r.IntN(10)) / 10
		data, err := it.Marshal()
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Store().WriteFile(it.Path(), data); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := m.Checkpoint(ctx, memory.CheckpointOptions{Message: "bench items"}); err != nil {
		b.Fatal(err)
	}
	x, err := recall.OpenIndex(ctx, m, recall.IndexOptions{})
	if err != nil {
		b.Fatal(err)
	}
	x.Close()
	return m
}

// benchItems is how many items the MCP benchmark's memory holds;
// CAIRN_BENCH_ITEMS overrides it.
func benchItems() int {
	if n, err := strconv.Atoi(os.Getenv("CAIRN_BENCH_ITEMS")); err == nil && n > 0 {
		return n
	}
	return 3000
}

// BenchmarkMCPSearch reports the p50 and p90 of a search round trip
// through an MCP client (the SDK's, in memory), with a daemon serving
// the search and without one (the MCP process holds the index), against
// the same search run in-process on the index, and through the daemon's
// HTTP API without MCP. Run with -benchtime=200x or so.
func BenchmarkMCPSearch(b *testing.B) {
	n := benchItems()
	start := time.Now()
	m := benchMCPMemory(b, n)
	defer m.Close()
	b.Logf("memory of %d items, indexed, in %v", n, time.Since(start).Round(time.Millisecond))
	ctx := context.Background()
	qr := rand.New(rand.NewPCG(3, 4))
	queries := make([]string, 64)
	for i := range queries {
		queries[i] = benchWords[qr.IntN(len(benchWords))] + " " + benchWords[qr.IntN(len(benchWords))]
	}
	measure := func(b *testing.B, f func(q string)) {
		b.Helper()
		for _, q := range queries[:8] { // warm up
			f(q)
		}
		var times []time.Duration
		for i := 0; b.Loop(); i++ {
			s := time.Now()
			f(queries[i%len(queries)])
			times = append(times, time.Since(s))
		}
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "p90-ms")
	}
	mcpSearch := func(b *testing.B, cs *mcp.ClientSession) func(q string) {
		return func(q string) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": q}})
			if err != nil || res.IsError {
				b.Fatalf("search %q: %v %+v", q, err, res)
			}
		}
	}
	connect := func(b *testing.B, s *MCP) *mcp.ClientSession {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.Server().Connect(ctx, st, nil)
		if err != nil {
			b.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cs.Close(); ss.Wait(); s.Close() })
		return cs
	}

	b.Run("in-process", func(b *testing.B) {
		x, err := recall.OpenIndex(ctx, m, recall.IndexOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer x.Close()
		measure(b, func(q string) {
			if _, err := x.Search(ctx, q, recall.SearchOptions{K: 10}); err != nil {
				b.Fatal(err)
			}
		})
	})
	// What the first call after an idle spell pays without a daemon.
	b.Run("in-process-open", func(b *testing.B) {
		measure(b, func(q string) {
			x, err := recall.OpenIndex(ctx, m, recall.IndexOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer x.Close()
			if _, err := x.Search(ctx, q, recall.SearchOptions{K: 10}); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("mcp-local-index", func(b *testing.B) {
		s := &MCP{Mem: m, StateDir: b.TempDir(), IndexIdle: time.Minute}
		measure(b, mcpSearch(b, connect(b, s)))
		s.Close()
	})

	d := &server.Daemon{Mem: m}
	dctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Serve(dctx) }()
	defer func() { cancel(); <-done }()
	var c *client.Client
	for i := 0; ; i++ {
		var err error
		if c, err = client.Discover(ctx, m.StatePath(""), time.Second); err == nil {
			break
		}
		if i > 200 {
			b.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.Run("http-daemon", func(b *testing.B) {
		measure(b, func(q string) {
			if _, err := (recall.Remote{Client: c}).Search(ctx, q, recall.SearchOptions{K: 10}); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("mcp-daemon", func(b *testing.B) {
		s := &MCP{Mem: m}
		measure(b, mcpSearch(b, connect(b, s)))
		if s.x != nil {
			b.Error("the MCP server opened the index although a daemon runs")
		}
	})
}
