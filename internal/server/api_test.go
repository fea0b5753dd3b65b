package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/transcript"
	"github.com/cairn-mem/cairn/watcher"
)

// call sends one request to the daemon and returns the status, the
// decoded JSON body and the response.
func call(t *testing.T, method, url, token, contentType, body string) (int, map[string]any, *http.Response) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if method != http.MethodHead {
		if err := json.Unmarshal(b, &v); err != nil {
			t.Errorf("%s %s: answer is not JSON: %v\n%s", method, url, err, b)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q", method, url, ct)
		}
	}
	return resp.StatusCode, v, resp
}

func TestAPIErrors(t *testing.T) {
	_, url, token := startDaemon(t)
	const sid = "7f3c2a10-0000-4000-8000-00000000000a"
	big := `{"session_id":"` + sid + `","tool_name":"Bash","tool_response":"` + strings.Repeat("x", MaxBody) + `"}`
	for _, tc := range []struct {
		name, method, path, token, ctype, body string
		code                                   int
		want                                   string
	}{
		{"no token", "POST", "/api/sessions/init", "", "", `{"session_id":"` + sid + `"}`, 401, "token"},
		{"wrong token", "POST", "/api/memories", "nope", "", `{"text":"x"}`, 401, "token"},
		{"no token on status", "GET", "/sessions/" + sid + "/status", "", "", "", 401, "token"},
		{"no token on search", "GET", "/api/search?q=x", "", "", "", 401, "token"},
		{"GET init", "GET", "/api/sessions/init", token, "", "", 405, "use POST"},
		{"PUT observations", "PUT", "/api/sessions/observations", token, "", "{}", 405, "use POST"},
		{"DELETE memories", "DELETE", "/api/memories", token, "", "", 405, "use POST"},
		{"POST status", "POST", "/sessions/" + sid + "/status", token, "", "{}", 405, "use GET"},
		{"POST search", "POST", "/api/search", token, "", "{}", 405, "use GET"},
		{"GET checkpoint", "GET", "/api/checkpoint", token, "", "", 405, "use POST"},
		{"POST health", "POST", "/api/health", token, "", "", 405, "use GET"},
		{"unknown path", "GET", "/api/nothing", token, "", "", 404, "no endpoint"},
		{"bad JSON", "POST", "/api/sessions/init", token, "", `{"session_id":`, 400, "bad request body"},
		{"not an object", "POST", "/api/sessions/summarize", token, "", `[1,2]`, 400, "bad request body"},
		{"empty body", "POST", "/api/sessions/observations", token, "", ``, 400, "empty request body"},
		{"two values", "POST", "/api/memories", token, "", `{"text":"a"} {"text":"b"}`, 400, "more than one"},
		{"unknown field", "POST", "/api/sessions/init", token, "", `{"session_id":"` + sid + `","sesion":"x"}`, 400, "unknown field"},
		{"wrong type", "POST", "/api/memories", token, "", `{"text":42}`, 400, "bad request body"},
		{"form body", "POST", "/api/memories", token, "application/x-www-form-urlencoded", `text=a`, 400, "bad request body"},
		{"oversized", "POST", "/api/sessions/observations", token, "application/json", big, 413, "over"},
		{"no session", "POST", "/api/sessions/init", token, "", `{}`, 400, "session_id"},
		{"escaping session", "POST", "/api/sessions/init", token, "", `{"session_id":"../../etc"}`, 400, "invalid session id"},
		{"slash session", "POST", "/api/sessions/summarize", token, "", `{"session_id":"a/b"}`, 400, "invalid session id"},
		{"NUL session", "POST", "/api/sessions/observations", token, "", `{"session_id":"a\u0000b","tool_name":"Bash"}`, 400, "invalid session id"},
		{"long session", "POST", "/api/sessions/init", token, "", `{"session_id":"` + strings.Repeat("a", 200) + `"}`, 400, "longer than"},
		{"escaping status", "GET", "/sessions/..%2F..%2Fx/status", token, "", "", 400, "invalid session id"},
		{"no tool", "POST", "/api/sessions/observations", token, "", `{"session_id":"` + sid + `"}`, 400, "tool_name"},
		{"unknown session", "GET", "/sessions/" + sid + "/status", token, "", "", 404, "no such session"},
		{"empty memory", "POST", "/api/memories", token, "", `{"text":"  "}`, 400, "nothing to remember"},
		{"bad kind", "POST", "/api/memories", token, "", `{"text":"x","kind":"rumour"}`, 400, "rumour"},
		{"bad importance", "POST", "/api/memories", token, "", `{"text":"x","importance":7}`, 400, "importance"},
		{"bad search", "GET", "/api/search?q=", token, "", "", 400, "q is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, v, resp := call(t, tc.method, url+tc.path, tc.token, tc.ctype, tc.body)
			msg, _ := v["error"].(string)
			if code != tc.code || !strings.Contains(msg, tc.want) {
				t.Errorf("%s %s: %d %q, want %d with %q", tc.method, tc.path, code, msg, tc.code, tc.want)
			}
			if code == 405 && resp.Header.Get("Allow") == "" {
				t.Errorf("405 without an Allow header")
			}
		})
	}
}

// A session played through the API: queued, captured by the daemon's
// worker, reported by the status endpoint, and committed.
func TestAPISessionFlow(t *testing.T) {
	d, url, token := startDaemon(t)
	ctx := context.Background()
	c := &client.Client{BaseURL: url, Token: token}
	const sid = "7f3c2a10-0000-4000-8000-0000000000f1"
	q, err := c.InitSession(ctx, client.SessionInit{SessionID: sid, CWD: d.Mem.Project, Source: "startup", Prompt: "Move the job queue to PostgreSQL"})
	if err != nil {
		t.Fatal(err)
	}
	if q.Status != "queued" || len(q.Jobs) != 2 || q.SessionID != sid {
		t.Errorf("init = %+v", q)
	}
	for _, o := range []client.Observation{
		{SessionID: sid, ToolName: "Bash", ToolUseID: "toolu_1", ToolInput: json.RawMessage(`{"command":"go test ./..."}`), ToolResponse: json.RawMessage(`{"stdout":"ok","stderr":""}`)},
		{SessionID: sid, ToolName: "Bash", ToolUseID: "toolu_2", ToolInput: json.RawMessage(`{"command":"make lint"}`), Error: "Exit code 2\nlint failed"},
	} {
		if q, err := c.Observe(ctx, o); err != nil || len(q.Jobs) != 1 {
			t.Fatalf("observe: %+v %v", q, err)
		}
	}
	if _, err := c.Summarize(ctx, client.SummarizeRequest{SessionID: sid, LastAssistantMessage: "The queue now runs on PostgreSQL; lint still fails."}); err != nil {
		t.Fatal(err)
	}
	var st *client.SessionStatus
	waitFor(t, "the session's jobs to be done", func() bool {
		st, err = c.SessionStatus(ctx, sid)
		return err == nil && st.Known && st.SessionJobs == (client.JobCounts{})
	})
	if st.Status != "active" || st.Prompts != 1 || st.Agent != model.AgentClaudeCode || st.Queue.Failed != 0 || st.LastActivity == nil {
		t.Errorf("status = %+v", st)
	}
	obs, err := os.ReadFile(filepath.Join(d.Mem.Dir, "sessions", sid, model.ObservationsFile))
	if err != nil || !strings.Contains(string(obs), "make lint") {
		t.Errorf("observations.md: %v\n%s", err, obs)
	}
	if log := gitOut(t, d.Mem.Dir, "log", "--format=%B"); !strings.Contains(log, "Cairn-Session: "+sid) {
		t.Errorf("no checkpoint of the session:\n%s", log)
	}
	// The same path under /api, and a prefix of the id.
	code, v, _ := call(t, "GET", url+"/api/sessions/"+sid[:12]+"/status", token, "", "")
	if code != 200 || v["session_id"] != sid {
		t.Errorf("status by prefix: %d %v", code, v)
	}
}

// POST /api/memories commits a redacted item, and the first search (the
// daemon started before any index existed) builds the index and finds it.
func TestAPIRemember(t *testing.T) {
	d, url, token := startDaemon(t)
	ctx := context.Background()
	c := &client.Client{BaseURL: url, Token: token}
	imp := 0.8
	r, err := c.Remember(ctx, client.RememberRequest{
		Text:       "Staging deploys need the VPN\nUse token AKIAIOSFODNN7EXAMPLE only from CI.",
		Kind:       "fact",
		Importance: &imp,
		Tags:       []string{"deploy"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Title != "Staging deploys need the VPN" || r.Kind != "fact" || r.Commit == "" || !strings.HasPrefix(r.Path, "core/facts/") {
		t.Errorf("remember = %+v", r)
	}
	e, err := d.Mem.Get(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(e.Item.Body, "AKIAIOSFODNN7EXAMPLE") || e.Item.Importance != 0.8 || len(e.Item.Tags) != 1 {
		t.Errorf("item = %+v", e.Item)
	}
	res, err := (recall.Remote{Client: c}).Search(ctx, "staging VPN", recall.SearchOptions{K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].ID != r.ID {
		t.Errorf("search = %+v", res.Hits)
	}
	p, err := (recall.Remote{Client: c}).Context(ctx, recall.ContextOptions{Query: "vpn"})
	if err != nil || !strings.Contains(p.Text, "Staging deploys need the VPN") {
		t.Errorf("context: %v\n%+v", err, p)
	}
	var ae *client.APIError
	if _, err := c.SessionStatus(ctx, "nobody-here"); !errors.As(err, &ae) || ae.Status != 404 {
		t.Errorf("status of an unknown session: %v", err)
	}
}

// FuzzSessionEndpoints posts arbitrary bodies to the session endpoints:
// every answer is JSON with a status below 500, and whatever is queued is
// a hook payload the worker can parse.
func FuzzSessionEndpoints(f *testing.F) {
	for _, s := range []string{
		`{"session_id":"7f3c2a10","cwd":"/p","source":"startup","prompt":"hi"}`,
		`{"session_id":"7f3c2a10","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"ok"}`,
		`{"session_id":"7f3c2a10","tool_name":"Edit","error":"Exit code 1","is_interrupt":true}`,
		`{"session_id":"7f3c2a10","last_assistant_message":"done"}`,
		`{"session_id":"../x"}`, `{"session_id":"a\u0000"}`, `{}`, `[]`, `null`, ``, `{"session_id":1}`,
		`{"session_id":"s","tool_name":"T","tool_input":[1,{"a":null}],"duration_ms":-1}`,
	} {
		f.Add(uint8(0), s)
		f.Add(uint8(1), s)
		f.Add(uint8(2), s)
	}
	f.Setenv("HOME", f.TempDir())
	m, _, err := memory.Init(context.Background(), f.TempDir(), memory.Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer m.Close()
	q, err := capture.Queue(m, watcher.QueueOptions{})
	if err != nil {
		f.Fatal(err)
	}
	mux := http.NewServeMux()
	(&Daemon{Mem: m}).registerAPI(mux)
	paths := []string{"/api/sessions/init", "/api/sessions/observations", "/api/sessions/summarize"}
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, httptest.NewRequest("POST", paths[int(which)%len(paths)], strings.NewReader(body)))
		var v map[string]any
		if w.Code >= 500 || json.Unmarshal(w.Body.Bytes(), &v) != nil {
			t.Fatalf("%s: %d %s", body, w.Code, w.Body)
		}
		if w.Code != http.StatusAccepted {
			return
		}
		jobs, err := q.List(context.Background(), watcher.Pending)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range jobs {
			if _, err := transcript.ParseHook(j.Payload); err != nil {
				t.Fatalf("%s: queued a payload the worker refuses: %v\n%s", body, err, j.Payload)
			}
			if err := os.Remove(filepath.Join(q.Dir(watcher.Pending), j.ID+".json")); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// Issue 12, item 5: the API answers only requests addressed to the
// daemon under a loopback name (a DNS-rebinding page sends its own name
// as the Host), the health check tells no one without the token whose
// memory it serves or which process it is, and the bearer scheme is
// case-insensitive (RFC 7235).
func TestAPIHostHealthAndBearerCase(t *testing.T) {
	d, url, token := startDaemon(t)
	port := url[strings.LastIndex(url, ":")+1:]
	send := func(host, auth, path string) (int, map[string]any) {
		t.Helper()
		req, err := http.NewRequest("GET", url+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if host != "" {
			req.Host = host
		}
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var v map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
			t.Errorf("Host %q %s: answer is not JSON: %v", host, path, err)
		}
		return resp.StatusCode, v
	}
	for _, host := range []string{"evil.example:" + port, "evil.example", "127.0.0.1", "127.0.0.1:1", "localhost.evil.example:" + port, "127.0.0.2:" + port, "0.0.0.0:" + port} {
		for _, path := range []string{"/api/health", "/api/search?q=x"} {
			code, v := send(host, "Bearer "+token, path)
			if msg, _ := v["error"].(string); code != http.StatusForbidden || !strings.Contains(msg, "Host") {
				t.Errorf("Host %q %s: %d %v, want 403 naming the Host", host, path, code, v)
			}
		}
	}
	for _, host := range []string{"", "127.0.0.1:" + port, "localhost:" + port, "LocalHost:" + port, "[::1]:" + port} {
		if code, v := send(host, "Bearer "+token, "/api/health"); code != 200 || v["pid"] == nil {
			t.Errorf("Host %q: %d %v, want 200 with the pid", host, code, v)
		}
	}
	// Health without the token: alive, and nothing more.
	for _, auth := range []string{"", "Bearer wrong", "Basic " + token} {
		code, v := send("", auth, "/api/health")
		if code != 200 || v["status"] != "ok" || len(v) != 1 {
			t.Errorf("health with %q: %d %v, want only {\"status\":\"ok\"}", auth, code, v)
		}
	}
	if c, err := client.Discover(context.Background(), d.Mem.StatePath(""), 5*time.Second); err != nil || c.Token != token {
		t.Errorf("Discover: %v", err)
	}
	// The scheme in any case.
	for _, auth := range []string{"bearer " + token, "BEARER " + token, "Bearer  " + token} {
		if code, v := send("", auth, "/api/search?q=x"); code != 200 {
			t.Errorf("%q: %d %v", strings.Replace(auth, token, "TOKEN", 1), code, v)
		}
		if code, v := send("", auth, "/sessions/7f3c2a10-0000-4000-8000-00000000000a/status"); code != 404 {
			t.Errorf("%q on status: %d %v, want 404 (past the token)", strings.Replace(auth, token, "TOKEN", 1), code, v)
		}
	}
	if code, _ := send("", "bearer"+token, "/api/search?q=x"); code != 401 {
		t.Errorf("no space after the scheme: %d, want 401", code)
	}
}
