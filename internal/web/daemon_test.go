package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/memory"
)

// Mounted on a real daemon, the viewer is behind its Host check, and the
// login code needs the bearer token.
func TestDaemonMount(t *testing.T) {
	project := t.TempDir()
	m, _, err := memory.Init(context.Background(), project, memory.Options{Identity: memory.Identity{Name: "t", Email: "t@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	_, _, c := daemon(t, project)
	do := func(method, path, host string, auth bool) int {
		t.Helper()
		req, _ := http.NewRequest(method, c.BaseURL+path, strings.NewReader("{}"))
		if host != "" {
			req.Host = host
		}
		if auth {
			req.Header.Set("Authorization", "Bearer "+c.Token)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	port := c.BaseURL[strings.LastIndexByte(c.BaseURL, ':')+1:]
	for _, tc := range []struct {
		method, path, host string
		auth               bool
		want               int
	}{
		{"GET", "/ui/", "evil.example:" + port, false, http.StatusForbidden},
		{"GET", "/ui/login?code=x", "evil.example:" + port, false, http.StatusForbidden},
		{"GET", "/ui/static/style.css", "localhost.evil.example", false, http.StatusForbidden},
		{"POST", LoginPath, "", false, http.StatusUnauthorized},
		{"POST", LoginPath, "evil.example:" + port, true, http.StatusForbidden},
		{"POST", LoginPath, "", true, http.StatusOK},
		{"GET", "/ui/", "", false, http.StatusUnauthorized},
		{"GET", "/ui", "", false, http.StatusFound},
		{"GET", "/ui/static/style.css", "localhost:" + port, false, http.StatusOK},
		{"GET", "/api/nope", "", true, http.StatusNotFound},
	} {
		if got := do(tc.method, tc.path, tc.host, tc.auth); got != tc.want {
			t.Errorf("%s %s (Host %q, token %v): %d, want %d", tc.method, tc.path, tc.host, tc.auth, got, tc.want)
		}
	}
	// The bearer token itself is no cookie.
	req, _ := http.NewRequest("GET", c.BaseURL+"/ui/", nil)
	req.AddCookie(&http.Cookie{Name: cookieName, Value: c.Token})
	if resp, err := noRedirect.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the token as the cookie: %v %v", resp.Status, err)
	}
}
