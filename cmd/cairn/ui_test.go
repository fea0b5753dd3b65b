package main

import (
	"net/http"
	"strings"
	"testing"
)

// cairn ui starts the daemon and prints a login link good once: it sets
// the viewer's cookie and sends the browser on to /ui/.
func TestUIPrint(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	defer cairnProc(p, "", "daemon", "stop").Run()
	out, err := cairnProc(p, "", "ui", "--print").Output()
	if err != nil {
		t.Fatalf("cairn ui --print: %v\n%s", err, out)
	}
	link, _, _ := strings.Cut(string(out), "\n")
	if !strings.HasPrefix(link, "http://127.0.0.1:") || !strings.Contains(link, "/ui/login?code=") {
		t.Fatalf("cairn ui --print said %q", out)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || len(resp.Cookies()) != 1 {
		t.Fatalf("login: %s, cookies %v", resp.Status, resp.Cookies())
	}
	base, _, _ := strings.Cut(link, "/ui/")
	req, _ := http.NewRequest("GET", base+"/ui/", nil)
	req.AddCookie(resp.Cookies()[0])
	page, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page.Body.Close()
	if page.StatusCode != http.StatusOK {
		t.Errorf("overview: %s", page.Status)
	}
	again, err := noRedirect.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	again.Body.Close()
	if again.StatusCode != http.StatusUnauthorized {
		t.Errorf("the link used twice: %s, want 401", again.Status)
	}
}
