package gitsync

import (
	"context"
	"errors"
	"fmt"
	neturl "net/url"
	"os"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/transport/http"
)

// TestAuthToken: a token goes only to https remotes, and a credentials line
// only to the host it names.
func TestAuthToken(t *testing.T) {
	s := newStore(t, nil)
	os.WriteFile(s.StatePath(CredentialsFile), []byte("# tokens\nbare-token\ngit.example.com t-host\nlocalhost:8443 t-port\n"), 0o600)
	env := func(tok string) func(string) string {
		return func(k string) string {
			if k == TokenEnv {
				return tok
			}
			return ""
		}
	}
	for _, tc := range []struct {
		url, env, want string // want "": no credentials sent
	}{
		{"https://git.example.com/me/mem.git", "", "t-host"},
		{"https://GIT.example.com/me/mem.git", "", "t-host"},
		{"https://localhost:8443/mem.git", "", "t-port"},
		{"https://other.example.com/mem.git", "", ""}, // the bare line applies to no host
		{"http://git.example.com/me/mem.git", "", ""}, // never over plain http
		{"http://git.example.com/me/mem.git", "t-env", ""},
		{"https://other.example.com/mem.git", "t-env", "t-env"},
		{"git://git.example.com/mem.git", "t-env", ""},
	} {
		a, err := auth(s, tc.url, env(tc.env))
		if err != nil {
			t.Errorf("auth(%s): %v", tc.url, err)
			continue
		}
		got := ""
		if b, ok := a.(*http.BasicAuth); ok {
			got = b.Password
		} else if a != nil {
			t.Errorf("auth(%s) = %T", tc.url, a)
		}
		if got != tc.want {
			t.Errorf("auth(%s, env %q) sends %q, want %q", tc.url, tc.env, got, tc.want)
		}
	}
}

func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://me:s3cret@host/x.git", "https://me:xxxxx@host/x.git"},
		{"http://me:s3cret@host:8080/x.git", "http://me:xxxxx@host:8080/x.git"},
		{"https://tok3n@host/x.git", "https://tok3n@host/x.git"}, // a user name only: no password to hide
		{"https://host/x.git", "https://host/x.git"},
		{"git@github.com:me/mem.git", "git@github.com:me/mem.git"},
		{"/tmp/mem.git", "/tmp/mem.git"},
		{"https://me:s3cret@ho st/%zz", "https://xxxxx@ho st/%zz"},
	} {
		got := Redact(tc.in)
		if got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.Contains(got, "s3cret") {
			t.Errorf("Redact(%q) shows the password", tc.in)
		}
	}
}

// TestFetchHidesPassword: a failing fetch, push or sync names the remote's
// URL without its password.
func TestFetchHidesPassword(t *testing.T) {
	s := newStore(t, map[string]string{"x.md": "x\n"})
	func() {
		defer lock(t, s)()
		if _, err := AddRemote(s, "origin", "https://me:s3cret@127.0.0.1:1/mem.git", ""); err != nil {
			t.Fatal(err)
		}
	}()
	ctx := context.Background()
	_, ferr := Fetch(ctx, s, "origin", func(string) string { return "" })
	_, perr := Push(ctx, s, "origin", func(string) string { return "" })
	for _, err := range []error{ferr, perr} {
		if err == nil {
			t.Fatal("fetch or push from a closed port worked")
		}
		if strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "me:xxxxx@127.0.0.1:1") {
			t.Errorf("error shows the password, or no URL: %v", err)
		}
	}
	if err := scrub(errors.New(`Get "https://me:s3cret@h/x": refused`), "https://me:s3cret@h/x"); strings.Contains(err.Error(), "s3cret") {
		t.Errorf("scrub: %v", err)
	}
	if err := scrub(fmt.Errorf("x: %w", ErrAuth), "https://me:s3cret@h/x"); !errors.Is(err, ErrAuth) {
		t.Errorf("scrub lost the error's chain: %v", err)
	}
}

// FuzzRedact: Redact never panics, and what it returns for a URL with a
// password parses to a URL whose password is hidden.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{"https://me:s3cret@host/x.git", "ssh://git:pw@host:22/x", "git@github.com:me/x.git",
		"https://me:s3cret@ho st/%zz", "http://[::1]:80/x", "https://:@/", "/tmp/x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		got := Redact(raw)
		u, err := neturl.Parse(raw)
		if err != nil || u.User == nil {
			return
		}
		if pw, ok := u.User.Password(); !ok || pw == "" {
			return
		}
		r, err := neturl.Parse(got)
		if err != nil {
			return
		}
		if pw, ok := r.User.Password(); ok && pw != "xxxxx" {
			t.Errorf("Redact(%q) = %q: password %q", raw, got, pw)
		}
	})
}
