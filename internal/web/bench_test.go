package web

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
)

// BenchmarkPages measures each page served by a real daemon over
// loopback, on a memory bench/scale generates ($CAIRN_WEB_BENCH_FILES
// files, 10,000 by default; 5% of them core items, the rest sessions).
// cold-ms is the first request after the daemon started (its catalogue
// and index already on disk, as after any earlier run); ns/op the
// requests after it. The context page keeps its pack while HEAD stands
// (the daemon packs it ahead while a browser is logged in: at login and
// when HEAD moves), and
// context-unpacked asks for a pack of another budget each time: what the
// page costs when the daemon has not packed yet.
func BenchmarkPages(b *testing.B) {
	n := 10000
	if s := os.Getenv("CAIRN_WEB_BENCH_FILES"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	project := generate(b, n)
	// Build the catalogue and the index before the daemon starts, as
	// earlier commands would have.
	ctx := context.Background()
	m, err := memory.Open(ctx, filepath.Join(project, memory.DirName), memory.Options{Identity: memory.Identity{Name: "b", Email: "b@example.com"}})
	if err != nil {
		b.Fatal(err)
	}
	item, _ := fill(b, m)
	if _, err := m.Catalog(ctx); err != nil {
		b.Fatal(err)
	}
	x, err := recall.OpenIndex(ctx, m, recall.IndexOptions{})
	if err != nil {
		b.Fatal(err)
	}
	x.Close()
	m.Close()

	_, v, c := daemon(b, project)
	login, err := c.UILogin(ctx)
	if err != nil {
		b.Fatal(err)
	}
	resp, err := noRedirect.Get(c.BaseURL + login.Path)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	var cookie *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == cookieName {
			cookie = ck
		}
	}
	if cookie == nil {
		b.Fatal("no cookie")
	}
	// The daemon packs the next context as the browser logs in: let it
	// finish, so that it does not run beside the first pages.
	for v.packs.ready() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	get := func(b *testing.B, path string) {
		req, _ := http.NewRequest("GET", c.BaseURL+path, nil)
		req.AddCookie(cookie)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("GET %s: %s", path, resp.Status)
		}
	}
	for _, p := range []struct{ name, path string }{
		{"overview", "/ui/"},
		{"timeline", "/ui/timeline"},
		{"diff", "/ui/diff?from=v1&to=v2"},
		{"sessions", "/ui/sessions"},
		{"session", "/ui/sessions/" + sessionID},
		{"memory", "/ui/memory"},
		{"item", "/ui/memory/" + item},
		{"search", "/ui/search?q=postgres+queue+migration"},
		{"context", "/ui/context"},
		{"queue", "/ui/queue"},
		// Another budget each time: a pack made for the request, as
		// after a checkpoint the daemon has not packed for yet.
		{"context-unpacked", "/ui/context?budget_tokens="},
	} {
		var cold time.Duration
		budget := 3000
		path := func() string {
			if strings.HasSuffix(p.path, "=") {
				budget++
				return p.path + strconv.Itoa(budget)
			}
			return p.path
		}
		b.Run(p.name, func(b *testing.B) {
			if cold == 0 {
				start := time.Now()
				get(b, path())
				cold = time.Since(start)
			}
			for b.Loop() {
				get(b, path())
			}
			b.ReportMetric(float64(cold.Microseconds())/1000, "cold-ms")
		})
	}
}
