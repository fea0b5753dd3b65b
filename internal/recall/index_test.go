package recall

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/docs"
)

// warnings collects what a Memory says through Options.Warn.
type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) add(s string) { w.mu.Lock(); w.lines = append(w.lines, s); w.mu.Unlock() }

func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := w.lines
	w.lines = nil
	return l
}

// newTestMemory makes an empty memory in a temporary project.
func newTestMemory(t testing.TB) (*memory.Memory, *warnings) {
	t.Helper()
	w := &warnings{}
	m, _, err := memory.Init(context.Background(), t.TempDir(), memory.Options{Warn: w.add, Identity: memory.Identity{Name: "Test", Email: "test@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	Follow(m)
	return m, w
}

// reopen opens the memory again, as another command would.
func reopen(t *testing.T, m *memory.Memory) (*memory.Memory, *warnings) {
	t.Helper()
	w := &warnings{}
	m2, err := memory.Open(context.Background(), m.Dir, memory.Options{Warn: w.add, Identity: memory.Identity{Name: "Test", Email: "test@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m2.Close() })
	Follow(m2)
	return m2, w
}

// writeFiles writes files into the memory's work tree and checkpoints
// them.
func writeFiles(t testing.TB, m *memory.Memory, files map[string]string) {
	t.Helper()
	for p, data := range files {
		name := filepath.Join(m.Dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Checkpoint(context.Background(), memory.CheckpointOptions{Message: "test files"}); err != nil {
		t.Fatal(err)
	}
}

func remember(t *testing.T, m *memory.Memory, kind model.Kind, title, body string) *model.Item {
	t.Helper()
	it := model.NewItem(kind, title, time.Now())
	it.Body = body
	if _, err := m.Remember(context.Background(), it); err != nil {
		t.Fatal(err)
	}
	return it
}

func mustOpenIndex(t testing.TB, m *memory.Memory) *Index {
	t.Helper()
	x, err := OpenIndex(context.Background(), m, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// paths searches and returns the paths of the hits.
func paths(t *testing.T, x *Index, q string, opts SearchOptions) []string {
	t.Helper()
	res, err := x.Search(context.Background(), q, opts)
	if err != nil {
		t.Fatalf("search %q: %v", q, err)
	}
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.Path)
	}
	return out
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func indexMeta(t *testing.T, m *memory.Memory) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(m.StatePath(indexDir), "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]any
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	return meta
}

func head(t *testing.T, m *memory.Memory) string {
	t.Helper()
	h, err := m.History().Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestIndexFollowsCheckpoints(t *testing.T) {
	ctx := context.Background()
	m, w := newTestMemory(t)
	a := remember(t, m, model.Decision, "Use PostgreSQL for the job queue", "Workers claim jobs with SKIP LOCKED.")
	if got := w.take(); len(got) != 0 {
		t.Errorf("remember before any index warned %q", got)
	}
	x := mustOpenIndex(t, m)
	if got := w.take(); len(got) != 1 || !strings.Contains(got[0], "building the search index from 1 files") {
		t.Errorf("first open warned %q, want one line about building", got)
	}
	if got := paths(t, x, "postgres queue", SearchOptions{}); len(got) == 0 || got[0] != a.Path() {
		t.Fatalf("search = %v, want %s first", got, a.Path())
	}
	x.Close()

	// A checkpoint while no one has the index open updates it at once.
	b := remember(t, m, model.Fact, "Deploys go through Kubernetes", "Helm charts live in deploy/.")
	if v := indexMeta(t, m)["version"]; v != head(t, m) {
		t.Errorf("index version %v after remember, want HEAD %s", v, head(t, m))
	}
	if _, _, err := m.Forget(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	x = mustOpenIndex(t, m)
	if got := w.take(); len(got) != 0 {
		t.Errorf("open of an up-to-date index warned %q", got)
	}
	if got := paths(t, x, "postgres queue", SearchOptions{}); has(got, a.Path()) {
		t.Errorf("forgotten item still found: %v", got)
	}
	if got := paths(t, x, "helm kubernetes", SearchOptions{}); len(got) == 0 || got[0] != b.Path() {
		t.Errorf("search = %v, want %s", got, b.Path())
	}

	// While this process has the index open, a checkpoint leaves it alone
	// and the next search catches up.
	c := remember(t, m, model.Pattern, "Errors map to status codes in one place", "The handler maps errors.")
	if got := w.take(); len(got) != 0 {
		t.Errorf("checkpoint while the index is open warned %q", got)
	}
	if got := paths(t, x, "status codes handler", SearchOptions{}); len(got) == 0 || got[0] != c.Path() {
		t.Errorf("search after a checkpoint elsewhere = %v, want %s", got, c.Path())
	}
}

func TestIndexCatchesUpWithGit(t *testing.T) {
	m, w := newTestMemory(t)
	writeFiles(t, m, map[string]string{
		"core/facts/old.md":         "---\nkind: fact\ntitle: The wombat service is retired\n---\nIt was replaced.\n",
		"core/facts/stays.md":       "---\nkind: fact\ntitle: Builds use Bazel\n---\nEverything builds with Bazel.\n",
		"sessions/abc123/notes.txt": "not markdown, not indexed: zeppelin\n",
	})
	x := mustOpenIndex(t, m)
	x.Close()
	w.take()

	// Another git client changes the memory: a pull, a hand commit.
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = m.Dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(m.Dir, "core/facts/new.md"), []byte("---\nkind: fact\ntitle: Caches use Valkey\n---\nValkey replaced memcached.\n"), 0o644)
	git("rm", "-q", "core/facts/old.md")
	git("add", "core/facts/new.md")
	git("commit", "-qm", "by hand")

	m2, w2 := reopen(t, m)
	x2 := mustOpenIndex(t, m2)
	if got := w2.take(); len(got) != 0 {
		t.Errorf("catching up warned %q", got)
	}
	if got := paths(t, x2, "valkey", SearchOptions{}); len(got) != 1 || got[0] != "core/facts/new.md" {
		t.Errorf("valkey = %v", got)
	}
	if got := paths(t, x2, "wombat", SearchOptions{}); len(got) != 0 {
		t.Errorf("deleted file still found: %v", got)
	}
	if got := paths(t, x2, "zeppelin", SearchOptions{}); len(got) != 0 {
		t.Errorf("a .txt file was indexed: %v", got)
	}
	if v := x2.ix.Version(); v != head(t, m2) {
		t.Errorf("version %s, want %s", v, head(t, m2))
	}
}

func TestIndexRebuildsWhenDamaged(t *testing.T) {
	m, _ := newTestMemory(t)
	it := remember(t, m, model.Decision, "Use PostgreSQL for the job queue", "Because of transactions.")
	x := mustOpenIndex(t, m)
	x.Close()
	dir := m.StatePath(indexDir)
	tests := []struct {
		name   string
		damage func()
		want   string
	}{
		{"meta garbage", func() { os.WriteFile(filepath.Join(dir, "meta.json"), []byte("{not json"), 0o644) }, "was damaged"},
		{"bleve gone", func() { os.RemoveAll(filepath.Join(dir, "bleve")) }, "was incomplete"},
		{"vectors truncated", func() { os.Truncate(filepath.Join(dir, "vectors"), 10) }, "was damaged"},
		{"other schema", func() {
			b, _ := os.ReadFile(filepath.Join(dir, "meta.json"))
			os.WriteFile(filepath.Join(dir, "meta.json"), []byte(strings.Replace(string(b), `"schema": `, `"schema": 9`, 1)), 0o644)
		}, "another version of cairn"},
		{"unknown commit", func() {
			b, _ := os.ReadFile(filepath.Join(dir, "meta.json"))
			var meta map[string]any
			json.Unmarshal(b, &meta)
			meta["version"] = strings.Repeat("ab", 20)
			b, _ = json.Marshal(meta)
			os.WriteFile(filepath.Join(dir, "meta.json"), b, 0o644)
		}, "not in this repository"},
		{"all gone", func() { os.RemoveAll(dir) }, "building the search index"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.damage()
			m2, w := reopen(t, m)
			x, err := OpenIndex(context.Background(), m2, IndexOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer x.Close()
			got := w.take()
			if len(got) != 1 || !strings.Contains(got[0], tt.want) {
				t.Errorf("warnings %q, want one line containing %q", got, tt.want)
			}
			if got := paths(t, x, "postgresql", SearchOptions{}); len(got) != 1 || got[0] != it.Path() {
				t.Errorf("after rebuild: %v", got)
			}
		})
	}
}

func TestIndexBrokenAndSessionFiles(t *testing.T) {
	m, _ := newTestMemory(t)
	sid := "7f3c2a10-1111-4222-a333-444455556666"
	writeFiles(t, m, map[string]string{
		"core/facts/broken--01JDXK3V9M2Q7Y8Z4T6R5W1HBC.md": "---\nimportance: high\ntitle: [unclosed\n---\nThe zebra protocol needs TLS.\n",
		"core/notes/plain.md":                              "Quokka notes without any front matter.\n",
		"sessions/" + sid + "/session.yaml":                "id: " + sid + "\nstatus: active\nstarted: 2026-11-01T10:00:00Z\nupdated: 2026-11-02T10:00:00Z\n",
		"sessions/" + sid + "/summary.md":                  "## Segment 1\n\nThe agent fixed the flaky narwhal test.\n",
		"sessions/" + sid + "/transcript.md":               "**User**: why does narwhal fail?\n\n**Assistant**: a race in setup.\n",
		"archive/2025/03/old-session/observations.md":      "- ran the ocelot migration\n",
	})
	x := mustOpenIndex(t, m)
	ctx := context.Background()
	res, err := x.Search(ctx, "zebra", SearchOptions{Mode: indexer.Keyword})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("broken file: %v %v", res, err)
	}
	if h := res.Hits[0]; h.Kind != "fact" || h.ID != "01JDXK3V9M2Q7Y8Z4T6R5W1HBC" || h.Title != "broken" || h.StartLine != 1 {
		t.Errorf("broken file hit = %+v", h)
	}
	res, _ = x.Search(ctx, "quokka", SearchOptions{Mode: indexer.Keyword})
	if len(res.Hits) != 1 || res.Hits[0].Kind != "note" || res.Hits[0].Title != "Quokka notes without any front matter." {
		t.Errorf("plain note = %+v", res.Hits)
	}
	res, _ = x.Search(ctx, "narwhal", SearchOptions{Kinds: []string{"summary"}})
	if len(res.Hits) != 1 {
		t.Fatalf("summary: %+v", res.Hits)
	}
	h := res.Hits[0]
	if h.Session != sid || h.Layer != "active" || h.Title != "Summary of session 7f3c2a10" || h.Created == nil || !h.Created.Equal(time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)) {
		t.Errorf("summary hit = %+v", h)
	}
	if h.StartLine != 1 || h.EndLine != 3 || !strings.Contains(h.Text, "narwhal") || !strings.Contains(h.Snippet, "«narwhal»") {
		t.Errorf("summary lines %d-%d text %q snippet %q", h.StartLine, h.EndLine, h.Text, h.Snippet)
	}
	if got := paths(t, x, "narwhal", SearchOptions{Session: "7f3c"}); len(got) != 2 {
		t.Errorf("session prefix filter = %v", got)
	}
	if got := paths(t, x, "narwhal", SearchOptions{Kinds: []string{"transcripts"}}); len(got) != 1 || !strings.HasSuffix(got[0], "transcript.md") {
		t.Errorf("transcript filter = %v", got)
	}
	res, _ = x.Search(ctx, "ocelot", SearchOptions{Layers: []string{"archival"}})
	if len(res.Hits) != 1 || res.Hits[0].Session != "old-session" || res.Hits[0].Kind != "observation" || res.Hits[0].Created.Format("2006-01") != "2025-03" {
		t.Errorf("archived = %+v", res.Hits)
	}
}

// TestIndexBadFileName: a file no memory file may be named (a newline in
// its name) is passed over with a line, as a checkpoint does, and the
// rest is searchable.
func TestIndexBadFileName(t *testing.T) {
	m, w := newTestMemory(t)
	writeFiles(t, m, map[string]string{
		"core/notes/plain.md":          "Quokka notes without any front matter.\n",
		"core/notes/we\"ird'\nname.md": "Quokka again, under a name git and cairn read apart.\n",
	})
	x := mustOpenIndex(t, m)
	res, err := x.Search(context.Background(), "quokka", SearchOptions{Mode: indexer.Keyword})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("search: %+v %v", res, err)
	}
	if got := strings.Join(w.take(), "\n"); !strings.Contains(got, "not indexing") || !strings.Contains(got, "bad file name") {
		t.Errorf("warnings:\n%s", got)
	}
}

func TestReindexProgress(t *testing.T) {
	m, w := newTestMemory(t)
	files := map[string]string{}
	n := 2*fillBatch + 50 // three batches
	for i := range n {
		files["core/notes/n"+strconv.Itoa(i)+".md"] = "Note number " + strconv.Itoa(i) + " about lemurs.\n"
	}
	writeFiles(t, m, files)
	var calls [][2]int
	x, err := Reindex(context.Background(), m, IndexOptions{Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if len(calls) < 3 || calls[0] != [2]int{0, n} || calls[len(calls)-1] != [2]int{n, n} {
		t.Errorf("progress calls %v", calls)
	}
	if got := w.take(); len(got) != 0 {
		t.Errorf("reindex warned %q", got)
	}
	st, err := x.Stats()
	if err != nil || st.Documents != n || st.Version != head(t, m) {
		t.Errorf("stats %+v %v", st, err)
	}
}

// embeddingServer serves the OpenAI embeddings API with the built-in
// embedder's vectors, cut or padded to dim.
func embeddingServer(t *testing.T, dim int) *httptest.Server {
	t.Helper()
	h, err := indexer.NewHashEmbedder()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		vecs, _ := h.Embed(r.Context(), req.Input)
		type datum struct {
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		}
		var resp struct {
			Data []datum `json:"data"`
		}
		for i, v := range vecs {
			v = append(v, make([]float32, max(0, dim-len(v)))...)[:dim]
			resp.Data = append(resp.Data, datum{v, i})
		}
		json.NewEncoder(w).Encode(resp)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func useEmbedder(m *memory.Memory, url string, dim int) {
	m.Config.Search.Embedder = config.Embedder{Provider: "openai-compatible", BaseURL: url, Model: "fake", Dimensions: dim, Timeout: config.Duration(2 * time.Second)}
}

func TestEmbeddingServiceDown(t *testing.T) {
	m, w := newTestMemory(t)
	it := remember(t, m, model.Decision, "Use PostgreSQL for the job queue", "Workers claim jobs with SKIP LOCKED.")
	srv := embeddingServer(t, indexer.HashDim)
	useEmbedder(m, srv.URL, indexer.HashDim)
	x := mustOpenIndex(t, m)
	if got := paths(t, x, "postgres queue", SearchOptions{Mode: indexer.Vector}); len(got) == 0 || got[0] != it.Path() {
		t.Fatalf("vector search through the service = %v", got)
	}
	x.Close()
	w.take()

	srv.Close() // the service goes down
	x = mustOpenIndex(t, m)
	for _, mode := range []indexer.Mode{indexer.Hybrid, indexer.Vector} {
		res, err := x.Search(context.Background(), "postgres queue", SearchOptions{Mode: mode})
		if err != nil {
			t.Fatalf("%s search with the service down: %v", mode, err)
		}
		if len(res.Hits) == 0 || res.Hits[0].Path != it.Path() {
			t.Errorf("%s: hits %+v", mode, res.Hits)
		}
		if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "keywords only") {
			t.Errorf("%s: warnings %q, want one about keywords", mode, res.Warnings)
		}
	}
	// A checkpoint cannot index meanwhile: it says so, and the
	// checkpoint stands; the index is not broken.
	x.Close()
	b := remember(t, m, model.Fact, "Caches use Valkey", "Valkey replaced memcached.")
	if got := w.take(); len(got) != 1 || !strings.Contains(got[0], "search index not updated") {
		t.Errorf("checkpoint with the service down warned %q", got)
	}
	if _, err := m.Get(context.Background(), b.ID); err != nil {
		t.Errorf("checkpoint undone: %v", err)
	}
	x, err := OpenIndex(context.Background(), m, IndexOptions{})
	if err != nil {
		t.Fatalf("open with the service down: %v", err)
	}
	defer x.Close()
	if got := w.take(); len(got) != 0 {
		t.Errorf("open with the service down warned %q", got)
	}
	res, err := x.Search(context.Background(), "postgresql", SearchOptions{})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("stale index search = %+v, %v", res, err)
	}
	want := "embedding service " + srv.URL + " is unavailable (connection refused); searched by keywords only, in an index that misses the latest checkpoints"
	if len(res.Warnings) != 1 || res.Warnings[0] != want {
		t.Errorf("warnings %q, want %q", res.Warnings, want)
	}
}

func TestEmbeddingServiceWrongSize(t *testing.T) {
	m, w := newTestMemory(t)
	remember(t, m, model.Decision, "Use PostgreSQL for the job queue", "Workers claim jobs with SKIP LOCKED.")
	srv := embeddingServer(t, 100) // configured 384
	useEmbedder(m, srv.URL, indexer.HashDim)
	_, err := OpenIndex(context.Background(), m, IndexOptions{})
	if err == nil || !strings.Contains(err.Error(), "cannot build the search index: embedding service "+srv.URL+": embed via") ||
		!strings.Contains(err.Error(), "returned 100-dimensional vectors, configured 384") {
		t.Fatalf("open with a wrong-size service: %v", err)
	}
	w.take()
	// An index built while the service answered well is searched by
	// keywords when it answers badly, with one line.
	good := embeddingServer(t, indexer.HashDim)
	useEmbedder(m, good.URL, indexer.HashDim)
	x, err := OpenIndex(context.Background(), m, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	remember(t, m, model.Fact, "Caches use Valkey", "Valkey replaced memcached.")
	useEmbedder(m, srv.URL, indexer.HashDim)
	w.take()
	x, err = OpenIndex(context.Background(), m, IndexOptions{})
	if err != nil {
		t.Fatalf("open with a service gone bad: %v", err)
	}
	res, err := x.Search(context.Background(), "postgresql", SearchOptions{})
	if err != nil || len(res.Hits) != 1 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "100-dimensional") {
		t.Errorf("search with a service gone bad: %+v %v", res, err)
	}
	x.Close()
	// The builtin embedder still works on the same memory afterwards.
	m.Config.Search.Embedder = config.Embedder{}
	x, err = OpenIndex(context.Background(), m, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if got := paths(t, x, "postgres", SearchOptions{}); len(got) != 1 {
		t.Errorf("search = %v", got)
	}
}

func TestIndexLocked(t *testing.T) {
	m, _ := newTestMemory(t)
	remember(t, m, model.Fact, "A", "alpha")
	x := mustOpenIndex(t, m)
	_ = x
	m2, _ := reopen(t, m)
	start := time.Now()
	_, err := OpenIndex(context.Background(), m2, IndexOptions{LockTimeout: 100 * time.Millisecond})
	if !errors.Is(err, indexer.ErrLocked) {
		t.Fatalf("second open: %v, want ErrLocked", err)
	}
	if d := time.Since(start); d < 90*time.Millisecond || d > 2*time.Second {
		t.Errorf("waited %v", d)
	}
}

func TestSearchConfigDefaults(t *testing.T) {
	m, w := newTestMemory(t)
	os.WriteFile(filepath.Join(m.Dir, "cairn.yaml"), []byte("search:\n  weights: {recency: 0}\n  chunk_tokens: 5\n  embedder: {provider: builtin}\n"), 0o644)
	m2, w2 := reopen(t, m)
	_ = w
	c := searchConfig(m2)
	if c.Weights.Recency != 0 || c.Weights.Relevance != 0.4 || c.Weights.Importance != 0.3 || c.Weights.References != 0.1 {
		t.Errorf("weights %+v", c.Weights)
	}
	if c.ChunkTokens != 512 || c.OverlapTokens != 50 || c.ContextBudget != DefaultContextBudget || c.RecencyHalfLifeDays != 30 {
		t.Errorf("config %+v", c)
	}
	if got := w2.take(); len(got) != 1 || !strings.Contains(got[0], "chunk_tokens") {
		t.Errorf("warnings %q", got)
	}
	m2.Config.Search.Embedder.Provider = "word2vec"
	if _, err := OpenIndex(context.Background(), m2, IndexOptions{}); err == nil || !strings.Contains(err.Error(), "word2vec") {
		t.Errorf("unknown provider: %v", err)
	}
}

// FuzzDocument checks that any file becomes a document (never an error
// or a panic) whose lines lie in the file, and that the quick reader of
// core items' ranking keys agrees with Parse where Parse succeeds.
func FuzzDocument(f *testing.F) {
	for _, s := range []string{
		"---\nkind: decision\ntitle: T\nimportance: 0.9\npinned: yes\n---\nbody\n",
		"---\nimportance: high\n---\nbody",
		"---\ntitle: 'quoted: title'\nupdated: 2026-11-30\n---\n",
		"---\n---\n",
		"---",
		"no front matter\n\n## heading\ntext",
		"\uFEFF---\r\nkind: fact\r\n---\r\nbody\r\n",
		"---\nimportance: 0.5 # comment\npinned: [x]\n---\n",
		"---\nimportance: 2\n---\n",
	} {
		f.Add("core/facts/x--01JDXK3V9M2Q7Y8Z4T6R5W1HBC.md", s)
		f.Add("sessions/abc/summary.md", s)
	}
	f.Fuzz(func(t *testing.T, p, data string) {
		if !docs.Indexable(p) {
			p = "core/notes/x.md"
		}
		doc, ok := docs.Document(p, []byte(data), docs.NewSessions(t.TempDir()))
		if !ok {
			return // a session log with nothing to add
		}
		lines := strings.Count(strings.ReplaceAll(data, "\r\n", "\n"), "\n") + 1
		if doc.Path != p || doc.FirstLine < 1 || doc.FirstLine > lines+1 || doc.Kind == "" || doc.Title == "" {
			t.Errorf("docs.Document(%q) = path %q first line %d of %d, kind %q, title %q", data, doc.Path, doc.FirstLine, lines, doc.Kind, doc.Title)
		}
		if doc.Importance < 0 || doc.Importance > 1 {
			t.Errorf("importance %v", doc.Importance)
		}
		// Outside core/ only a file that opens with front matter is an item.
		c := catalog.Describe(p, []byte(data))
		if it, err := model.Parse(p, []byte(data)); err == nil && (strings.HasPrefix(p, "core/") || strings.HasPrefix(data, "---")) {
			if c.Type != catalog.Item || c.Pinned != it.Pinned || c.Importance != it.Importance || c.Title != it.Title {
				t.Errorf("catalog.Describe(%q) = %+v, Parse says %+v", data, c, it)
			}
		}
	})
}

// The vectors are read at the first vector search, so damage to them
// shows then, in an index that opened fine: the search rebuilds the
// index, says so once, and answers.
func TestSearchRebuildsDamagedVectors(t *testing.T) {
	m, _ := newTestMemory(t)
	it := remember(t, m, model.Decision, "Use PostgreSQL for the job queue", "Because of transactions.")
	remember(t, m, model.Fact, "The CI runs on two cores", "Benchmarks are noisy there.")
	x := mustOpenIndex(t, m)
	x.Close()
	dir := m.StatePath(indexDir)
	data, err := filepath.Glob(filepath.Join(dir, "vectors.*"))
	if err != nil || len(data) != 1 {
		t.Fatalf("vector data files %v, %v: want one", data, err)
	}
	b, err := os.ReadFile(data[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := len(b) / 4; i < len(b); i += 7 {
		b[i] ^= 0x5a
	}
	if err := os.WriteFile(data[0], b, 0o644); err != nil {
		t.Fatal(err)
	}

	m2, w := reopen(t, m)
	x, err = OpenIndex(context.Background(), m2, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if got := w.take(); len(got) != 0 {
		t.Fatalf("opening warned %q; the damage should show at the first vector search", got)
	}
	for i := 0; i < 2; i++ {
		res, err := x.Search(context.Background(), "postgres queue", SearchOptions{Mode: "hybrid"})
		if err != nil {
			t.Fatalf("search %d: %v", i, err)
		}
		if len(res.Hits) == 0 || res.Hits[0].Path != it.Path() {
			t.Fatalf("search %d: hits %+v, want %s first", i, res.Hits, it.Path())
		}
	}
	if got := w.take(); len(got) != 1 || !strings.Contains(got[0], "was damaged") {
		t.Errorf("warnings %q, want one line saying the index was damaged", got)
	}
}

// Whoever remembers, secrets are redacted before the item is written: the
// command line calls Remember as MCP and the HTTP API do.
func TestRememberRedacts(t *testing.T) {
	m, _ := newTestMemory(t)
	it := remember(t, m, model.Fact, "Staging deploys need the VPN", "Use token AKIAIOSFODNN7EXAMPLE only from CI.")
	data, err := os.ReadFile(filepath.Join(m.Dir, filepath.FromSlash(it.Path())))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "AKIAIOSFODNN7EXAMPLE") || !strings.Contains(string(data), "only from CI") {
		t.Errorf("remembered item:\n%s", data)
	}
}

// A first build cancelled part way leaves an index that the next open
// fills: it then holds every file, once, and finds what a whole build
// finds.
func TestReindexCancelled(t *testing.T) {
	m, _ := newTestMemory(t)
	files := map[string]string{}
	n := 3*fillBatch + 10
	for i := range n {
		files["core/notes/n"+strconv.Itoa(i)+".md"] = "Note number " + strconv.Itoa(i) + " about lemurs and the " + []string{"queue", "retry", "schema"}[i%3] + ".\n"
		if i%50 == 0 {
			files["core/notes/n"+strconv.Itoa(i)+".md"] += "An ocelot.\n"
		}
	}
	writeFiles(t, m, files)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := Reindex(ctx, m, IndexOptions{Progress: func(done, total int) {
		if done > 0 {
			cancel() // after the first window
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled reindex: %v", err)
	}
	x, err := OpenIndex(context.Background(), m, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := x.Stats()
	if err != nil || st.Documents != n || st.Chunks != n || st.BleveDocs != uint64(n) || st.Version != head(t, m) {
		t.Errorf("after the cancelled build: %+v %v", st, err)
	}
	found := func(x *Index, q string) map[string]bool {
		t.Helper()
		res, err := x.Search(context.Background(), q, SearchOptions{Mode: indexer.Keyword, K: 5000, All: true})
		if err != nil {
			t.Fatal(err)
		}
		paths := map[string]bool{}
		for _, h := range res.Hits {
			paths[h.Path] = true
		}
		return paths
	}
	got := found(x, "ocelot")
	x.Close()
	whole, err := Reindex(context.Background(), m, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	if want := found(whole, "ocelot"); len(got) != (n+49)/50 || !maps.Equal(got, want) {
		t.Errorf("after the cancelled build %d files found, after a whole one %d", len(got), len(want))
	}
}
