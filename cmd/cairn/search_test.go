package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
)

// searchProject makes a project with a few memories.
func searchProject(t *testing.T) string {
	t.Helper()
	p := project(t)
	ok(t, p, "init")
	ok(t, p, "remember", "--kind", "decision", "--importance", "0.9", "--tag", "db",
		"Use PostgreSQL for the job queue\n\nWorkers claim jobs with SELECT ... FOR UPDATE SKIP LOCKED.")
	ok(t, p, "remember", "--kind", "fact", "--pin", "Deploys go through Kubernetes\n\nHelm charts live in deploy/; roll back with helm rollback.")
	ok(t, p, "remember", "--kind", "preference", "Tabs in Go, two spaces in YAML")
	return p
}

func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}

func TestSearchCommand(t *testing.T) {
	t.Parallel()
	p := searchProject(t)
	r := cairn(t, p, "", "search", "postgres", "job", "queue")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "1. Use PostgreSQL for the job queue  (") ||
		!strings.Contains(r.stdout, "core/decisions/use-postgresql-for-the-job-queue--") || !strings.Contains(r.stdout, "«jobs»") {
		t.Errorf("search: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "building the search index from 3 files") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("first search said %q, want one line about building the index", r.stderr)
	}
	r = cairn(t, p, "", "search", "postgres", "job", "queue")
	if r.stderr != "" {
		t.Errorf("second search said %q", r.stderr)
	}

	var res map[string]any
	if err := json.Unmarshal([]byte(ok(t, p, "search", "--json", "-k", "1", "helm rollback")), &res); err != nil {
		t.Fatal(err)
	}
	if keys(res) != "hits query" || res["query"] != "helm rollback" {
		t.Errorf("search --json keys %q", keys(res))
	}
	hits := res["hits"].([]any)
	if len(hits) != 1 {
		t.Fatalf("hits %v", hits)
	}
	h := hits[0].(map[string]any)
	if got := keys(h); got != "created end_line id kind layer path score scores session snippet start_line text title" {
		t.Errorf("hit keys %q", got)
	}
	if got := keys(h["scores"].(map[string]any)); got != "importance match recency references relevance" {
		t.Errorf("scores keys %q", got)
	}
	if h["title"] != "Deploys go through Kubernetes" || h["kind"] != "fact" || h["layer"] != "core" ||
		!strings.Contains(h["text"].(string), "helm rollback") || !strings.Contains(h["snippet"].(string), "«helm»") {
		t.Errorf("hit %v", h)
	}

	// Filters.
	for _, tt := range []struct {
		args []string
		want int
	}{
		{[]string{"--kind", "decision"}, 1},
		{[]string{"--kind", "fact,preference"}, 0},
		{[]string{"--layer", "archival"}, 0},
		{[]string{"--tag", "db"}, 1},
		{[]string{"--since", "1d"}, 1},
		{[]string{"--until", "2020-01-01"}, 0},
		{[]string{"--mode", "keyword"}, 1},
	} {
		var res recall.SearchResults
		out := ok(t, p, append([]string{"search", "--json", "--mode", "keyword", "postgresql"}, tt.args...)...)
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != tt.want {
			t.Errorf("search postgresql %v: %d hits, want %d", tt.args, len(res.Hits), tt.want)
		}
	}
	if out := ok(t, p, "search", "--mode", "keyword", "zzzqqq"); out != "no matches for \"zzzqqq\"\n" {
		t.Errorf("no matches: %q", out)
	}

	// Usage errors exit 2 with one line.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"search"}, "search needs a QUERY"},
		{[]string{"search", "  "}, "search needs a QUERY"},
		{[]string{"search", "--kind", "decisoin", "x"}, "unknown kind"},
		{[]string{"search", "--layer", "attic", "x"}, "unknown layer"},
		{[]string{"search", "--mode", "fuzzy", "x"}, "unknown search mode"},
		{[]string{"search", "-k", "0", "x"}, "-k 0"},
		{[]string{"search", "--since", "last tuesday", "x"}, "--since"},
		{[]string{"search", "--since", "2026-01-02", "--until", "2026-01-01", "x"}, "is not after"},
		{[]string{"search", "--colour", "x"}, "unknown flag"},
	} {
		fails(t, p, 2, tt.want, tt.args...)
	}
	// Odd queries give results or nothing, never an error.
	for _, q := range []string{"the of and", `title:postgresql`, `+postgresql -redis "job`, strings.Repeat("queue ", 3000), "\x00\xff\xfe junk"} {
		if r := cairn(t, p, "", "search", q); r.code != 0 {
			t.Errorf("search %.20q: exit %d %s", q, r.code, r.stderr)
		}
	}
	checkGit(t, p)
}

func TestContextCommand(t *testing.T) {
	t.Parallel()
	p := searchProject(t)
	out := ok(t, p, "context", "--query", "job queue")
	for _, want := range []string{"# Project memory (cairn)", "## Pinned", "Deploys go through Kubernetes", "## Core memory", "Use PostgreSQL"} {
		if !strings.Contains(out, want) {
			t.Errorf("context lacks %q:\n%s", want, out)
		}
	}
	var pack map[string]any
	if err := json.Unmarshal([]byte(ok(t, p, "context", "--format", "json", "--budget-tokens", "60")), &pack); err != nil {
		t.Fatal(err)
	}
	if got := keys(pack); got != "budget_tokens items left_out text used_tokens" {
		t.Errorf("context json keys %q", got)
	}
	if pack["budget_tokens"].(float64) != 60 || pack["used_tokens"].(float64) > 60 || len(pack["left_out"].([]any)) == 0 {
		t.Errorf("pack %v", pack)
	}
	if it := pack["items"].([]any); len(it) == 0 || keys(it[0].(map[string]any)) != "id path tokens" {
		t.Errorf("items %v", it)
	}
	if lo := pack["left_out"].([]any); keys(lo[0].(map[string]any)) != "id title" {
		t.Errorf("left_out %v", lo)
	}
	fails(t, p, 2, "--budget-tokens 0", "context", "--budget-tokens", "0")
	fails(t, p, 2, "--budget-tokens -1", "context", "--budget-tokens", "-1")
	fails(t, p, 2, "--format \"xml\"", "context", "--format", "xml")
	r := cairn(t, p, "", "context", "--budget-tokens", "3")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "nothing fits in 3 tokens") {
		t.Errorf("tiny budget: %d %q %q", r.code, r.stdout, r.stderr)
	}
	checkGit(t, p)
}

// TestContextFitsHook packs a memory far larger than the budget and
// checks the default pack against Claude Code's 10,000-character limit.
// TestContextEmptyMemory: a new memory's pack is empty, and says so
// rather than that the budget is too small for it.
func TestContextEmptyMemory(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	r := cairn(t, p, "", "context")
	if r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "nothing to pack yet") || strings.Contains(r.stderr, "fits") {
		t.Errorf("empty memory: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

func TestContextFitsHook(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	mem := filepath.Join(p, ".cairn")
	words := strings.Fields("the migration failed because postgres rejected the column type so we kept the queue in the database and retried jobs with backoff while the handler maps errors to status codes")
	for i := range 150 {
		var b strings.Builder
		fmt.Fprintf(&b, "---\nkind: fact\ntitle: Fact %d about %s\nimportance: 0.%d\n---\n", i, words[i%len(words)], i%10)
		for j := range 120 {
			b.WriteString(words[(i*7+j*3)%len(words)] + " ")
		}
		os.MkdirAll(filepath.Join(mem, "core", "facts"), 0o755)
		os.WriteFile(filepath.Join(mem, "core", "facts", fmt.Sprintf("fact-%d.md", i)), []byte(b.String()), 0o644)
	}
	os.MkdirAll(filepath.Join(mem, "sessions", "s1"), 0o755)
	os.WriteFile(filepath.Join(mem, "sessions", "s1", "summary.md"), []byte(strings.Repeat("The agent retried the failed migration. ", 300)), 0o644)
	ok(t, p, "checkpoint")
	for _, q := range []string{"", "postgres migration"} {
		out := ok(t, p, "context", "--query", q)
		t.Logf("default pack, query %q: %d characters, %d tokens", q, len(out), indexer.EstimateTokens(out))
		if len(out) > 9000 || indexer.EstimateTokens(out) > recall.DefaultContextBudget {
			t.Errorf("default pack is %d characters, %d tokens", len(out), indexer.EstimateTokens(out))
		}
	}
}

func TestReindexCommand(t *testing.T) {
	t.Parallel()
	p := searchProject(t)
	out := ok(t, p, "reindex")
	if !strings.HasPrefix(out, "indexed 3 files (3 chunks) in ") {
		t.Errorf("reindex said %q", out)
	}
	var st map[string]any
	json.Unmarshal([]byte(ok(t, p, "reindex", "--json")), &st)
	if st["files"].(float64) != 3 || st["embedder"] != "cairn-hash-v1" {
		t.Errorf("reindex --json %v", st)
	}
	// A damaged index is rebuilt by the next search, which says so.
	os.WriteFile(filepath.Join(p, ".cairn", ".state", "index", "meta.json"), []byte("garbage"), 0o644)
	r := cairn(t, p, "", "search", "postgresql")
	if r.code != 0 || !strings.Contains(r.stdout, "Use PostgreSQL") || !strings.Contains(r.stderr, "search index was damaged") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("search of a damaged index: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	checkGit(t, p)
}

// holdIndex opens the project's memory and index in this process, as a
// daemon would, holding the index's lock.
func holdIndex(t *testing.T, p string) (*memory.Memory, *recall.Index) {
	t.Helper()
	ctx := context.Background()
	m, err := memory.Open(ctx, filepath.Join(p, ".cairn"), memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	x, err := recall.OpenIndex(ctx, m, recall.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return m, x
}

// TestSearchThroughDaemon serves the search API of an index this process
// holds, as the daemon does, and runs the commands: they must get their
// answers through the API, since they cannot open the index.
func TestSearchThroughDaemon(t *testing.T) {
	t.Parallel()
	p := searchProject(t)
	m, x := holdIndex(t, p)
	var calls atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/health", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"status":"ok"}`)) })
	(&server.SearchAPI{Index: x, Token: "t0ken"}).Register(mux)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/health" {
			calls.Add(1)
		}
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()
	os.WriteFile(m.StatePath(client.AddrFile), []byte(srv.URL+"\n"), 0o600)
	os.WriteFile(m.StatePath(client.TokenFile), []byte("t0ken\n"), 0o600)

	start := time.Now()
	out := ok(t, p, "search", "--kind", "decision", "job", "queue")
	if !strings.HasPrefix(out, "1. Use PostgreSQL for the job queue") || calls.Load() != 1 {
		t.Errorf("search through the daemon (%d calls):\n%s", calls.Load(), out)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("search through the daemon took %v", d)
	}
	var res recall.SearchResults
	json.Unmarshal([]byte(ok(t, p, "search", "--json", "helm")), &res)
	if len(res.Hits) == 0 || res.Hits[0].Title != "Deploys go through Kubernetes" || res.Hits[0].Text == "" {
		t.Errorf("search --json through the daemon: %+v", res)
	}
	out = ok(t, p, "context", "--query", "helm", "--budget-tokens", "500")
	if !strings.Contains(out, "Deploys go through Kubernetes") || calls.Load() != 3 {
		t.Errorf("context through the daemon (%d calls):\n%s", calls.Load(), out)
	}
	// A new memory, remembered by another command while the daemon holds
	// the index, is found: the daemon's index catches up.
	ok(t, p, "remember", "--kind", "fact", "Caches use Valkey")
	if out := ok(t, p, "search", "valkey"); !strings.Contains(out, "Caches use Valkey") {
		t.Errorf("new memory not found through the daemon:\n%s", out)
	}
	// Bad filters are refused before the daemon is asked.
	fails(t, p, 2, "unknown kind", "search", "--kind", "bogus", "x")
}

// TestSearchIndexBusy holds the index without serving it: search waits
// briefly, then says what is wrong; context still packs what it can.
func TestSearchIndexBusy(t *testing.T) {
	t.Parallel()
	p := searchProject(t)
	holdIndex(t, p)
	short := env{"CAIRN_LOCK_TIMEOUT": "300ms"}
	start := time.Now()
	failsEnv(t, short, p, 1, "the search index is in use by another process (pid ", "search", "postgresql")
	// It waited; how much longer depends on the machine's load.
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("waited %v", d)
	}
	r := cairnEnv(t, short, p, "", "context", "--query", "helm")
	if r.code != 0 || !strings.Contains(r.stdout, "Deploys go through Kubernetes") || !strings.Contains(r.stderr, "in use by another process") {
		t.Errorf("context with the index busy: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A daemon that died left its address behind: it is not asked again
	// and again, and the answer is the same.
	os.WriteFile(filepath.Join(p, ".cairn", ".state", client.AddrFile), []byte("http://127.0.0.1:1\n"), 0o600)
	os.WriteFile(filepath.Join(p, ".cairn", ".state", client.TokenFile), []byte("x\n"), 0o600)
	fails(t, p, 1, "no cairn daemon answers", "search", "postgresql")
	// The memory itself can still be written meanwhile.
	ok(t, p, "remember", "still writable")
}

// embeddings serves the OpenAI embeddings API with the built-in
// embedder's vectors.
func embeddings(t *testing.T) *httptest.Server {
	t.Helper()
	h, err := indexer.NewHashEmbedder()
	if err != nil {
		t.Fatal(err)
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		json.NewDecoder(r.Body).Decode(&req)
		vecs, _ := h.Embed(r.Context(), req.Input)
		var resp struct {
			Data []map[string]any `json:"data"`
		}
		for i, v := range vecs {
			resp.Data = append(resp.Data, map[string]any{"embedding": v, "index": i})
		}
		json.NewEncoder(w).Encode(resp)
	}))
}

func TestSearchEmbedderDown(t *testing.T) {
	t.Parallel()
	p := searchProject(t)
	srv := embeddings(t)
	yaml := fmt.Sprintf("search:\n  embedder:\n    provider: openai-compatible\n    base_url: %s\n    model: fake\n    dimensions: %d\n", srv.URL, indexer.HashDim)
	os.WriteFile(filepath.Join(p, ".cairn", "cairn.yaml"), []byte(yaml), 0o644)
	r := cairn(t, p, "", "search", "postgres", "queue")
	if r.code != 0 || !strings.Contains(r.stdout, "Use PostgreSQL") {
		t.Fatalf("search through the embedding service: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	srv.Close()
	r = cairn(t, p, "", "search", "postgresql")
	want := "cairn: embedding service " + srv.URL + " is unavailable (connection refused); searched by keywords only\n"
	if r.code != 0 || !strings.Contains(r.stdout, "Use PostgreSQL") || r.stderr != want {
		t.Errorf("search with the service down: %d\n%s%q, want %q", r.code, r.stdout, r.stderr, want)
	}
	// Without an index to fall back on, search says what is wrong; the
	// context still packs core memory.
	os.RemoveAll(filepath.Join(p, ".cairn", ".state", "index"))
	fails(t, p, 1, "cannot build the search index: embedding service "+srv.URL+" is unavailable (connection refused); start the service", "search", "postgresql")
	r = cairn(t, p, "", "context", "--query", "postgres")
	if r.code != 0 || !strings.Contains(r.stdout, "Use PostgreSQL") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("context with the service down: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
