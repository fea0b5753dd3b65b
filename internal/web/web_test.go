package web

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/memorytest"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/watcher"
)

// fixture is a memory with items, two tags, a session and a failed job,
// served by a viewer mounted on the search API, as the daemon mounts it.
type fixture struct {
	m     *memory.Memory
	v     *Viewer
	srv   *httptest.Server
	q     *watcher.Queue
	item  string // an item's id
	job   string // a failed job's id
	clock time.Time
}

const sessionID = "0badcafe-0000-4000-a000-000000000001"

// fill gives m what the pages show: items (one edited between tags v1
// and v2), a session, and a failed job; it returns the edited item's id
// and the job's.
func fill(t testing.TB, m *memory.Memory) (item, job string) {
	t.Helper()
	ctx := context.Background()
	// One second for all of it: an edit in the next second would change
	// the item's updated: line too, and the diff the test reads.
	now := time.Now().UTC().Truncate(time.Second)
	m.SetClock(func() time.Time { return now })
	for i, title := range []string{"Use PostgreSQL for the job queue", "Retry jobs with backoff", "Handlers map errors in one place"} {
		it := model.NewItem(model.Kinds()[i%len(model.Kinds())], title, m.Now())
		it.Tags, it.Importance = []string{"queue", "db"}, 0.5
		it.Body = "We chose PostgreSQL over Redis for the job queue because it is already deployed.\nSecond line.\n"
		if _, err := m.Remember(ctx, it); err != nil {
			t.Fatal(err)
		}
		item = it.ID
	}
	s := model.NewSession(sessionID, "claude-code", m.Now())
	s.Title = "Move the queue to PostgreSQL"
	data, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(m.Dir, "sessions", sessionID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{model.SessionFile: string(data), model.SummaryFile: "## Segment 1\n\nMoved the queue.\n",
		model.PromptsFile: "1. move the queue <script>alert(1)</script>\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Checkpoint(ctx, memory.CheckpointOptions{Message: "session", Tag: "v1"}); err != nil {
		t.Fatal(err)
	}
	e, err := m.Get(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	e.Item.Body = "We chose PostgreSQL.\nSecond line, edited.\n"
	if _, err := m.Update(ctx, e, "edit"); err != nil {
		t.Fatal(err)
	}
	if err := m.History().Tag(ctx, "v2", "HEAD"); err != nil {
		t.Fatal(err)
	}
	q, err := capture.Queue(m, watcher.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := q.Enqueue(ctx, watcher.Job{Kind: capture.JobHook, AgentSession: sessionID, Payload: json.RawMessage(`{"hook_event_name":"Stop"}`)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := q.Claim(ctx)
	if err != nil || c == nil || c.ID != j.ID {
		t.Fatalf("claim: %v, %v", c, err)
	}
	if err := q.GiveUp(c, errors.New("boom: the summarizer is down")); err != nil {
		t.Fatal(err)
	}
	return item, j.ID
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{m: memorytest.New(t), clock: time.Now()}
	f.item, f.job = fill(t, f.m)
	x, err := recall.OpenIndex(context.Background(), f.m, recall.IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	if f.q, err = capture.Queue(f.m, watcher.QueueOptions{}); err != nil {
		t.Fatal(err)
	}
	f.v, err = New(Options{Mem: f.m, Now: func() time.Time { return f.clock }})
	if err != nil {
		t.Fatal(err)
	}
	api := http.NewServeMux()
	(&server.SearchAPI{Index: x}).Register(api)
	ui := f.v.Mount(api, func(g func()) { g() })
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/ui") {
			ui.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r) // the daemon checks the token here
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// code asks for a login code as cairn ui does.
func (f *fixture) code(t *testing.T) string {
	t.Helper()
	c := &client.Client{BaseURL: f.srv.URL}
	l, err := c.UILogin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if l.Path != "/ui/login?code="+l.Code {
		t.Fatalf("login path %q", l.Path)
	}
	return l.Code
}

// noRedirect is a client that shows redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// login returns the session cookie a login code gives.
func (f *fixture) login(t *testing.T) *http.Cookie {
	t.Helper()
	resp, err := noRedirect.Get(f.srv.URL + "/ui/login?code=" + f.code(t))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/ui/" {
		t.Fatalf("login: %s, Location %q", resp.Status, resp.Header.Get("Location"))
	}
	for _, c := range resp.Cookies() {
		if c.Name == cookieName {
			if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/ui" {
				t.Errorf("cookie %s: want HttpOnly, SameSite=Strict, Path=/ui", c.String())
			}
			return c
		}
	}
	t.Fatal("login set no cookie")
	return nil
}

// get fetches path with the cookie (nil: none) and returns the status and
// body.
func (f *fixture) get(t *testing.T, c *http.Cookie, path string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", f.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c != nil {
		req.AddCookie(c)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// post sends a form as a page of the viewer would, changed by edit.
func (f *fixture) post(t *testing.T, c *http.Cookie, path string, form url.Values, edit func(*http.Request)) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", f.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", f.srv.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if c != nil {
		req.AddCookie(c)
	}
	if edit != nil {
		edit(req)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location") + string(body)
}

// csrf returns the session's CSRF token, as a page's form holds it.
func (f *fixture) csrf(t *testing.T, c *http.Cookie) string {
	t.Helper()
	_, body := f.get(t, c, "/ui/memory/"+f.item)
	_, rest, ok := strings.Cut(body, `name="csrf" value="`)
	if !ok {
		t.Fatal("no CSRF token on the item's page")
	}
	return rest[:64]
}

func TestPages(t *testing.T) {
	f := newFixture(t)
	c := f.login(t)
	for _, tc := range []struct {
		path string
		want []string
	}{
		{"/ui/", []string{"<h1>Overview</h1>", "core items", "pending", "Last checkpoints", `href="/ui/static/style.css"`}},
		{"/ui/timeline", []string{`name="from"`, "v1", "v2", `action="/ui/diff"`}},
		{"/ui/diff?from=v1&to=v2", []string{"Second line, edited.", `class="diff unified"`, "+1", "−2"}},
		{"/ui/diff?from=v1&to=v2&view=split", []string{`class="diff split"`, "Second line, edited."}},
		{"/ui/sessions", []string{"/ui/sessions/" + sessionID, "Move the queue to PostgreSQL"}},
		{"/ui/sessions/" + sessionID, []string{"summary.md", "Moved the queue.", "prompts.md", "&lt;script&gt;alert(1)&lt;/script&gt;"}},
		{"/ui/memory", []string{"Use PostgreSQL for the job queue", `href="/ui/memory?kind=decision"`, "queue"}},
		{"/ui/memory?kind=fact&tag=db", []string{"Retry jobs with backoff"}},
		{"/ui/memory/" + f.item, []string{"Second line, edited.", "History", "Pin", "Forget", `name="csrf"`}},
		{"/ui/search?q=postgresql+queue", []string{"<mark>", "relevance", "recency", "importance", "references"}},
		{"/ui/search?q=queue&kind=decision&layer=core&tag=queue&mode=keyword&k=5", []string{"Use PostgreSQL for the job queue"}},
		{"/ui/search?q=queue&since=nonsense", []string{`class="error"`, "since"}},
		{"/ui/search", []string{`type="search"`}},
		{"/ui/context", []string{"<meter", "tokens", "Left out", "Use PostgreSQL for the job queue"}},
		{"/ui/queue", []string{f.job, "boom: the summarizer is down", `action="/ui/queue/retry"`}},
		{"/ui/metrics", []string{"last 30 days"}},
		{"/ui/static/style.css", []string{"prefers-color-scheme: dark"}},
		{"/ui/static/app.js", []string{"use strict"}},
	} {
		code, body := f.get(t, c, tc.path)
		if code != http.StatusOK {
			t.Errorf("GET %s: %d\n%s", tc.path, code, body)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("GET %s: no %q in\n%s", tc.path, w, body)
			}
		}
	}
}

func TestNotFound(t *testing.T) {
	f := newFixture(t)
	c := f.login(t)
	for _, path := range []string{
		"/ui/nope",
		"/ui/memory/01ZZZZZZZZZZZZZZZZZZZZZZZZ",
		"/ui/sessions/no-such-session",
		"/ui/diff?from=nope&to=v2",
		"/ui/diff?from=v1&to=0123456789abcdef0123456789abcdef01234567",
		"/ui/memory?page=99",
		"/ui/timeline?page=9",
	} {
		if code, body := f.get(t, c, path); code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404\n%s", path, code, body)
		}
	}
}

func TestHostileInput(t *testing.T) {
	f := newFixture(t)
	c := f.login(t)
	long := strings.Repeat("a", 20000)
	for _, path := range []string{
		"/ui/memory/..%2F..%2Fcairn.yaml",
		"/ui/memory/..%2F..%2F..%2F..%2Fetc%2Fpasswd",
		"/ui/memory/%00",
		"/ui/memory/" + long[:300],
		"/ui/sessions/..%2F..%2F.state",
		"/ui/sessions/..",
		"/ui/sessions/%00abc",
		"/ui/sessions/" + long[:200],
		"/ui/diff?from=--output%3D%2Ftmp%2Fx&to=v2",
		"/ui/diff?from=v1%00&to=v2",
		"/ui/diff?from=..%2F..%2Fetc%2Fpasswd&to=HEAD",
		"/ui/diff?from=" + long[:300] + "&to=v2",
		"/ui/memory?kind=%00&tag=x",
		"/ui/memory?tag=" + long[:300],
		"/ui/memory?page=-1",
		"/ui/sessions?page=abc",
		"/ui/sessions?status=%0a",
		"/ui/search?q=%00",
		"/ui/search?q=queue&k=99999",
		"/ui/search?q=queue&bogus=1",
		"/ui/search?q=" + long,
		"/ui/context?budget_tokens=-5",
		"/ui/context?session=..%2F..",
		"/ui/timeline?page=0",
	} {
		code, body := f.get(t, c, path)
		switch {
		case code >= 500:
			t.Errorf("GET %.80s: %d\n%s", path, code, body)
		case code == http.StatusOK && !strings.Contains(body, `class="error"`) && !strings.Contains(body, `class="empty"`):
			t.Errorf("GET %.80s: 200 without an error or an empty result\n%s", path, body)
		}
		if strings.Contains(body, "root:") || strings.Contains(body, "schema: 1") {
			t.Errorf("GET %.80s: shows a file it should not\n%s", path, body)
		}
	}
	if code, _ := f.get(t, c, "/ui/search?q="+strings.Repeat("b", maxQuery)); code != http.StatusRequestURITooLong {
		t.Errorf("a query string over %d bytes: %d, want 414", maxQuery, code)
	}
}

func TestAuth(t *testing.T) {
	f := newFixture(t)
	good := f.login(t)
	wrong := &http.Cookie{Name: cookieName, Value: strings.Repeat("0", 64)}
	odd := &http.Cookie{Name: cookieName, Value: "../../x"}
	for _, path := range []string{"/ui/", "/ui/timeline", "/ui/diff?from=v1&to=v2", "/ui/sessions", "/ui/sessions/" + sessionID,
		"/ui/memory", "/ui/memory/" + f.item, "/ui/search?q=queue", "/ui/context", "/ui/queue", "/ui/metrics"} {
		for _, c := range []*http.Cookie{nil, wrong, odd} {
			code, body := f.get(t, c, path)
			if code != http.StatusUnauthorized {
				t.Errorf("GET %s with cookie %v: %d, want 401", path, c, code)
			}
			if strings.Contains(body, "PostgreSQL") {
				t.Errorf("GET %s with cookie %v shows the memory", path, c)
			}
		}
		if code, _ := f.get(t, good, path); code != http.StatusOK {
			t.Errorf("GET %s logged in: %d", path, code)
		}
	}

	code := f.code(t)
	if c, _ := f.get(t, nil, "/ui/login?code="+code); c != http.StatusSeeOther {
		t.Fatalf("first login: %d", c)
	}
	if c, _ := f.get(t, nil, "/ui/login?code="+code); c != http.StatusUnauthorized {
		t.Errorf("a used login code: %d, want 401", c)
	}
	for _, bad := range []string{"", "nope", strings.Repeat("f", 64), "%00"} {
		if c, _ := f.get(t, nil, "/ui/login?code="+bad); c != http.StatusUnauthorized {
			t.Errorf("login code %q: %d, want 401", bad, c)
		}
	}
	late := f.code(t)
	f.clock = f.clock.Add(CodeTTL + time.Second)
	if c, _ := f.get(t, nil, "/ui/login?code="+late); c != http.StatusUnauthorized {
		t.Errorf("an expired login code: %d, want 401", c)
	}
	f.clock = f.clock.Add(SessionTTL)
	if c, _ := f.get(t, good, "/ui/"); c != http.StatusUnauthorized {
		t.Errorf("an expired session: %d, want 401", c)
	}
}

func TestSecurityHeaders(t *testing.T) {
	f := newFixture(t)
	c := f.login(t)
	for _, path := range []string{"/ui/", "/ui/nope", "/ui/login?code=x", "/ui/static/style.css"} {
		req, _ := http.NewRequest("GET", f.srv.URL+path, nil)
		req.AddCookie(c)
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		for k, want := range map[string]string{"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"} {
			if h.Get(k) != want {
				t.Errorf("%s: %s %q, want %q", path, k, h.Get(k), want)
			}
		}
	}
	// No inline script in any page: the CSP would refuse it.
	for _, path := range []string{"/ui/", "/ui/memory/" + f.item, "/ui/queue", "/ui/search?q=queue"} {
		_, body := f.get(t, c, path)
		if strings.Contains(body, "<script>") || strings.Contains(body, " onclick=") {
			t.Errorf("%s has inline script", path)
		}
	}
}

func TestWrites(t *testing.T) {
	f := newFixture(t)
	c := f.login(t)
	token := f.csrf(t, c)
	ctx := context.Background()
	form := func(kv ...string) url.Values {
		v := url.Values{"csrf": {token}}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	pin := "/ui/memory/" + f.item + "/pin"

	// Refused: no cookie, another site, no or a wrong CSRF token.
	for _, tc := range []struct {
		name string
		c    *http.Cookie
		form url.Values
		edit func(*http.Request)
		want int
	}{
		{"no cookie", nil, form("pinned", "true"), nil, http.StatusUnauthorized},
		{"cross-site", c, form("pinned", "true"), func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }, http.StatusForbidden},
		{"same-site", c, form("pinned", "true"), func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "same-site") }, http.StatusForbidden},
		{"evil origin", c, form("pinned", "true"), func(r *http.Request) {
			r.Header.Del("Sec-Fetch-Site")
			r.Header.Set("Origin", "http://evil.example")
		}, http.StatusForbidden},
		{"no origin", c, form("pinned", "true"), func(r *http.Request) { r.Header.Del("Sec-Fetch-Site"); r.Header.Del("Origin") }, http.StatusForbidden},
		{"no csrf", c, url.Values{"pinned": {"true"}}, nil, http.StatusForbidden},
		{"wrong csrf", c, url.Values{"pinned": {"true"}, "csrf": {strings.Repeat("a", 64)}}, nil, http.StatusForbidden},
	} {
		if code, body := f.post(t, tc.c, pin, tc.form, tc.edit); code != tc.want {
			t.Errorf("%s: %d, want %d\n%s", tc.name, code, tc.want, body)
		}
	}
	if e, _ := f.m.Get(ctx, f.item); e.Item.Pinned {
		t.Fatal("a refused POST pinned the item")
	}

	if code, loc := f.post(t, c, pin, form("pinned", "true"), nil); code != http.StatusSeeOther || loc != "/ui/memory/"+f.item {
		t.Fatalf("pin: %d %s", code, loc)
	}
	if e, _ := f.m.Get(ctx, f.item); !e.Item.Pinned {
		t.Error("pin did not pin the item")
	}
	if code, body := f.post(t, c, "/ui/memory/"+f.item+"/edit", form("body", "New text\r\nfrom the page.\r\n"), nil); code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", code, body)
	}
	if e, _ := f.m.Get(ctx, f.item); e.Item.Body != "New text\nfrom the page." {
		t.Errorf("edit: body %q", e.Item.Body)
	}
	if log, _ := f.m.History().Log(ctx, memory.LogOptions{N: 1}); len(log) != 1 || !strings.Contains(log[0].Subject+log[0].Event, "edit") {
		t.Errorf("edit: last checkpoint %+v", log)
	}
	if code, body := f.post(t, c, "/ui/memory/01ZZZZZZZZZZZZZZZZZZZZZZZZ/edit", form("body", "x"), nil); code != http.StatusNotFound {
		t.Errorf("edit of an unknown item: %d %s", code, body)
	}

	if code, body := f.post(t, c, "/ui/queue/retry", form("id", "../../etc/passwd"), nil); code != http.StatusBadRequest {
		t.Errorf("retry of a hostile id: %d %s", code, body)
	}
	if code, body := f.post(t, c, "/ui/queue/retry", form("id", "01ZZZZZZZZZZZZZZZZZZZZZZZZ"), nil); code != http.StatusNotFound {
		t.Errorf("retry of an unknown job: %d %s", code, body)
	}
	if code, loc := f.post(t, c, "/ui/queue/retry", form("id", f.job), nil); code != http.StatusSeeOther || loc != "/ui/queue" {
		t.Fatalf("retry: %d %s", code, loc)
	}
	if pending, _ := f.q.List(ctx, watcher.Pending); len(pending) != 1 || pending[0].ID != f.job || pending[0].Attempts != 0 {
		t.Errorf("after retry, pending: %+v", pending)
	}
	// Fail it again and drop it.
	j, err := f.q.Claim(ctx)
	if err != nil || j == nil {
		t.Fatal(j, err)
	}
	if err := f.q.GiveUp(j, errors.New("boom")); err != nil {
		t.Fatal(err)
	}
	if code, _ := f.post(t, c, "/ui/queue/drop", form("id", f.job), nil); code != http.StatusSeeOther {
		t.Fatalf("drop: %d", code)
	}
	if dropped, _ := f.q.List(ctx, watcher.Dropped); len(dropped) != 1 {
		t.Errorf("after drop, dropped: %+v", dropped)
	}

	if code, loc := f.post(t, c, "/ui/memory/"+f.item+"/forget", form(), nil); code != http.StatusSeeOther || loc != "/ui/memory" {
		t.Fatalf("forget: %d %s", code, loc)
	}
	if _, err := f.m.Get(ctx, f.item); err == nil {
		t.Error("forget left the item")
	}
	if code, _ := f.get(t, c, "/ui/memory/"+f.item); code != http.StatusNotFound {
		t.Errorf("a forgotten item's page: %d, want 404", code)
	}
}

func TestLineDiff(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want string // ops and texts, one line each
	}{
		{"", "", ""},
		{"a\n", "a\n", " a"},
		{"", "a\nb\n", "+a +b"},
		{"a\nb\n", "", "-a -b"},
		{"a\nb\nc\n", "a\nx\nc\n", " a -b +x  c"},
		{"a\nb\nc\nd\n", "a\nc\nd\ne\n", " a -b  c  d +e"},
	} {
		var got []string
		for _, l := range lineDiff(tc.a, tc.b) {
			got = append(got, string(l.Op)+l.Text)
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("lineDiff(%q, %q) = %q, want %q", tc.a, tc.b, g, tc.want)
		}
	}
	d := lineDiff("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n3\n4\n5\nsix\n7\n8\n9\n10\n")
	h := hunks(d, 1)
	if len(h) != 5 || h[0].Op != '@' || h[0].Old != 5 {
		t.Errorf("hunks: %+v", h)
	}
	side := sideBySide(h)
	if len(side) != 4 || side[2].Left.Text != "6" || side[2].Right.Text != "six" {
		t.Errorf("sideBySide: %+v", side)
	}
}

// TestMetricsPage: the Metrics page plots what the metrics log holds,
// and says so when it holds nothing for the window.
func TestMetricsPage(t *testing.T) {
	f := newFixture(t)
	c := f.login(t)
	if code, body := f.get(t, c, "/ui/metrics"); code != http.StatusOK || !strings.Contains(body, "nothing recorded") {
		t.Fatalf("empty log: %d\n%s", code, body)
	}
	log := metrics.Open(filepath.Join(f.m.Dir, memory.StateDir))
	for i, ev := range []metrics.Event{
		{Kind: metrics.KindSearch, Mode: "hybrid", MS: 12, Hits: 4},
		{Kind: metrics.KindPack, Name: "session-start", Tokens: 1400, Budget: 2000, Items: 9},
		{Kind: metrics.KindSummary, Provider: "anthropic", Model: "claude-haiku", TokensIn: 2095, TokensOut: 503, MS: 900},
	} {
		ev.Time = f.clock.Add(time.Duration(i-3) * time.Hour)
		log.Record(t.Context(), ev)
	}
	code, body := f.get(t, c, "/ui/metrics?days=7")
	if code != http.StatusOK {
		t.Fatalf("GET /ui/metrics: %d", code)
	}
	for _, want := range []string{"last 7 days", "<svg", `id="search-latency"`, `id="pack-tokens"`, `id="summary-tokens"`, "2095 tokens in"} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics page lacks %q", want)
		}
	}
	if code, _ := f.get(t, c, "/ui/metrics?days=-1%00"); code != http.StatusOK {
		t.Errorf("a hostile days= gave %d, want the default window", code)
	}
}

// TestServePacksWhileLive: Serve packs the next context only while a
// browser uses the viewer, from its login on.
func TestServePacksWhileLive(t *testing.T) {
	f := newFixture(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.v.Serve(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	// Three wakes: the third goes in only once Serve took the second, so
	// it has done with the first.
	for range 3 {
		f.v.wake <- struct{}{}
	}
	if f.v.packs.ready() != nil {
		t.Fatal("Serve packed with no browser on the viewer")
	}
	f.login(t)
	for deadline := time.Now().Add(10 * time.Second); f.v.packs.ready() == nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no pack after a login")
		}
	}
}

// TestLive: a browser counts as using the viewer for liveFor after its
// last page.
func TestLive(t *testing.T) {
	f := newFixture(t)
	if f.v.live() {
		t.Fatal("live before any page")
	}
	f.v.seen()
	if !f.v.live() {
		t.Fatal("not live after a page")
	}
	f.clock = f.clock.Add(liveFor)
	if f.v.live() {
		t.Fatal("still live liveFor after the last page")
	}
}
