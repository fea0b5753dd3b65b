package server

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
)

// searchServer serves the search API of a real memory and index on
// loopback, with a health check as the daemon has, and returns a client
// found the way the command line finds it.
func searchServer(t *testing.T) (*client.Client, *memory.Memory) {
	t.Helper()
	ctx := context.Background()
	m, _, err := memory.Init(ctx, t.TempDir(), memory.Options{Identity: memory.Identity{Name: "T", Email: "t@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	for _, it := range []struct {
		kind        model.Kind
		title, body string
	}{
		{model.Decision, "Use PostgreSQL for the job queue", "Workers claim jobs with SKIP LOCKED."},
		{model.Fact, "Deploys go through Kubernetes", "Helm charts live in deploy/."},
	} {
		item := model.NewItem(it.kind, it.title, time.Now())
		item.Body = it.body
		if _, err := m.Remember(ctx, item); err != nil {
			t.Fatal(err)
		}
	}
	x, err := recall.OpenIndex(ctx, m, recall.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/health", func(w http.ResponseWriter, r *http.Request) { reply(w, 200, map[string]string{"status": "ok"}) })
	(&SearchAPI{Index: x, Token: "s3cret"}).Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	state := m.StatePath("")
	os.WriteFile(filepath.Join(state, client.AddrFile), []byte(srv.URL+"\n"), 0o600)
	os.WriteFile(filepath.Join(state, client.TokenFile), []byte("s3cret\n"), 0o600)
	c, err := client.Discover(ctx, state, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

func TestSearchAPI(t *testing.T) {
	c, _ := searchServer(t)
	ctx := context.Background()
	res, err := (recall.Remote{Client: c}).Search(ctx, "postgresql queue", recall.SearchOptions{K: 1, Kinds: []string{"decision"}, Since: time.Now().Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Query != "postgresql queue" || len(res.Hits) != 1 || res.Hits[0].Title != "Use PostgreSQL for the job queue" || res.Hits[0].Text == "" {
		t.Errorf("search = %+v", res)
	}
	res, err = (recall.Remote{Client: c}).Search(ctx, "postgresql", recall.SearchOptions{Kinds: []string{"fact"}, Mode: "keyword"})
	if err != nil || len(res.Hits) != 0 {
		t.Errorf("filtered search = %+v, %v", res, err)
	}
	p, err := (recall.Remote{Client: c}).Context(ctx, recall.ContextOptions{Query: "helm", Budget: 300})
	if err != nil {
		t.Fatal(err)
	}
	if p.BudgetTokens != 300 || p.UsedTokens == 0 || p.UsedTokens > 300 || !strings.Contains(p.Text, "Kubernetes") || len(p.Items) != 2 {
		t.Errorf("context = %+v", p)
	}
}

func TestSearchAPIErrors(t *testing.T) {
	c, _ := searchServer(t)
	ctx := context.Background()
	get := func(path, token string) (int, string) {
		t.Helper()
		req, _ := http.NewRequestWithContext(ctx, "GET", c.BaseURL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b := make([]byte, 4096)
		n, _ := resp.Body.Read(b)
		return resp.StatusCode, string(b[:n])
	}
	tests := []struct {
		path, token string
		code        int
		want        string
	}{
		{"/api/search?q=x", "", 401, "bearer token"},
		{"/api/search?q=x", "wrong", 401, "bearer token"},
		{"/api/search?q=", "s3cret", 400, "q is empty"},
		{"/api/search?q=x&k=0", "s3cret", 400, "k \\\"0\\\""},
		{"/api/search?q=x&k=abc", "s3cret", 400, "want a number"},
		{"/api/search?q=x&mode=fuzzy", "s3cret", 400, "unknown search mode"},
		{"/api/search?q=x&kind=decisoin", "s3cret", 400, "unknown kind"},
		{"/api/search?q=x&layer=attic", "s3cret", 400, "unknown layer"},
		{"/api/search?q=x&since=yesterday", "s3cret", 400, "since"},
		{"/api/search?q=x&colour=red", "s3cret", 400, "unknown parameter"},
		{"/api/search?q=x&q=y", "s3cret", 400, "given 2 times"},
		{"/api/search?q=" + strings.Repeat("a", MaxQueryBytes+1), "s3cret", 400, "longer than"},
		{"/api/search?q=%zz", "s3cret", 400, "bad query string"},
		{"/api/context?budget_tokens=0", "s3cret", 400, "budget_tokens"},
		{"/api/context?budget_tokens=-3", "s3cret", 400, "budget_tokens"},
		{"/api/context?query=x", "s3cret", 400, "unknown parameter"},
		{"/api/search?q=%22title%3Ax%22+%2Bpostgresql*", "s3cret", 200, "PostgreSQL"},
		{"/api/context", "s3cret", 200, "budget_tokens"},
	}
	for _, tt := range tests {
		code, body := get(tt.path, tt.token)
		if code != tt.code || !strings.Contains(body, tt.want) {
			t.Errorf("GET %.60s: %d %s, want %d with %q", tt.path, code, body, tt.code, tt.want)
		}
		if code != 200 && !strings.HasPrefix(body, `{"error":`) {
			t.Errorf("GET %.60s: error body %q is not JSON", tt.path, body)
		}
	}
	req, _ := http.NewRequest("POST", c.BaseURL+"/api/search?q=x", nil)
	req.Header.Set("Authorization", "Bearer s3cret")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %v %v", resp.StatusCode, err)
	}
	_, err := (recall.Remote{Client: c}).Search(ctx, "x", recall.SearchOptions{Kinds: []string{"bogus"}})
	var ae *client.APIError
	if !errors.As(err, &ae) || ae.Status != 400 {
		t.Errorf("client error = %v", err)
	}
}

// blocking is a Searcher whose searches wait until released.
type blocking struct{ release chan struct{} }

func (b blocking) Search(ctx context.Context, q string, o recall.SearchOptions) (*recall.SearchResults, error) {
	select {
	case <-b.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &recall.SearchResults{Query: q, Hits: []recall.SearchHit{}}, nil
}

func (b blocking) Context(ctx context.Context, o recall.ContextOptions) (*recall.Pack, error) {
	return nil, errors.New("not here")
}

func TestSearchAPILimits(t *testing.T) {
	b := blocking{make(chan struct{})}
	srv := httptest.NewServer(&SearchAPI{Index: b, MaxConcurrent: 1, Timeout: 300 * time.Millisecond})
	defer srv.Close()
	c := &client.Client{BaseURL: srv.URL}
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = (recall.Remote{Client: c}).Search(ctx, "x", recall.SearchOptions{})
		}()
	}
	wg.Wait()
	codes := map[int]bool{}
	for _, err := range errs {
		var ae *client.APIError
		if errors.As(err, &ae) {
			codes[ae.Status] = true
		}
	}
	if !codes[http.StatusServiceUnavailable] || !codes[http.StatusGatewayTimeout] {
		t.Errorf("errors %v, want one 503 and one 504", errs)
	}
	close(b.release)
	if _, err := (recall.Remote{Client: c}).Search(ctx, "x", recall.SearchOptions{}); err != nil {
		t.Errorf("after release: %v", err)
	}
	if _, err := (recall.Remote{Client: c}).Context(ctx, recall.ContextOptions{}); err == nil || !strings.Contains(err.Error(), "not here") {
		t.Errorf("context error = %v", err)
	}
}

func TestDiscover(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	if _, err := client.Discover(ctx, state, 100*time.Millisecond); !errors.Is(err, client.ErrNoDaemon) {
		t.Errorf("no files: %v", err)
	}
	// A daemon that died: its address answers nothing.
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	os.WriteFile(filepath.Join(state, client.AddrFile), []byte(url+"\n"), 0o600)
	os.WriteFile(filepath.Join(state, client.TokenFile), []byte("t\n"), 0o600)
	start := time.Now()
	if _, err := client.Discover(ctx, state, 100*time.Millisecond); !errors.Is(err, client.ErrNoDaemon) {
		t.Errorf("dead daemon: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
	os.WriteFile(filepath.Join(state, client.AddrFile), []byte("garbage"), 0o600)
	if _, err := client.Discover(ctx, state, 100*time.Millisecond); !errors.Is(err, client.ErrNoDaemon) {
		t.Errorf("garbage address: %v", err)
	}
}

// FuzzSearchParams checks that any query string is refused with a 400
// or read into options the index accepts, never a panic.
func FuzzSearchParams(f *testing.F) {
	for _, s := range []string{
		"q=x", "q=x&k=5&mode=keyword&kind=decision&kind=fact&layer=core&tag=a&session=s&since=7d&until=2026-11-30",
		"q=&k=-1", "q=x&since=2026-13-45", "q=%00&mode=HYBRID", "q=x&k=99999999999999999999", "kind=decisions&q=y",
	} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		query, opts, err := SearchParams(q, now)
		if err != nil {
			var ae *apiError
			if !errors.As(err, &ae) || ae.code != http.StatusBadRequest {
				t.Errorf("%q: error %v is not a bad request", raw, err)
			}
			return
		}
		if strings.TrimSpace(query) == "" || opts.K < 0 || opts.K > MaxK {
			t.Errorf("%q: query %q k %d", raw, query, opts.K)
		}
		if err := recall.CheckSearchOptions(opts); err != nil {
			t.Errorf("%q: accepted options fail the check: %v", raw, err)
		}
	})
}
