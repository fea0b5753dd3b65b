package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cairn-mem/cairn/internal/client"
)

// fakeDaemon serves a memory's API on loopback and writes its address
// and token where cairn looks for the daemon. It answers the health
// check; every other request gets answer, which may hijack the
// connection and close it (a daemon that died mid-request: the caller
// reads EOF). It counts those requests.
func fakeDaemon(t *testing.T, proj string, answer http.HandlerFunc) *atomic.Int32 {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/health" {
			w.Write([]byte(`{"status":"ok"}`))
			return
		}
		calls.Add(1)
		answer(w, r)
	}))
	t.Cleanup(srv.Close)
	state := filepath.Join(proj, ".cairn", ".state")
	os.WriteFile(filepath.Join(state, client.AddrFile), []byte(srv.URL+"\n"), 0o600)
	os.WriteFile(filepath.Join(state, client.TokenFile), []byte("t0ken\n"), 0o600)
	return &calls
}

// slow gives the fake daemon the time to answer its health check that a
// loaded machine may need: the default wait (100 ms) is for agents, which
// a daemon that slow would slow down.
var slow = env{"CAIRN_DAEMON_WAIT": "5s"}

// dies closes the connection without an answer.
func dies(w http.ResponseWriter, r *http.Request) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		conn.Close()
	}
}

// fails500 answers with an error, as a daemon that could not do the work.
func fails500(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusInternalServerError)
	w.Write([]byte(`{"error":"the disk is on fire"}`))
}

// Issue 12, item 12: a daemon that dies mid-request (the connection
// closes: EOF) leaves cairn checkpoint to do the work itself, with one
// line saying so; a daemon that answered with an error is not tried
// again in process: that is its answer.
func TestCheckpointDaemonDiesMidRequest(t *testing.T) {
	p := project(t)
	ok(t, p, "init")
	calls := fakeDaemon(t, p, dies)
	os.WriteFile(filepath.Join(p, ".cairn", "hand.md"), []byte("by hand\n"), 0o600)
	r := cairnEnv(t, slow, p, "", "checkpoint", "-m", "after the daemon died")
	if r.code != 0 || len(strings.TrimSpace(r.stdout)) != 40 || calls.Load() != 1 {
		t.Fatalf("checkpoint with a dying daemon (%d calls): exit %d\n%s%s", calls.Load(), r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "daemon went away") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr %q, want one line saying the daemon went away", r.stderr)
	}
	if s := gitc(t, filepath.Join(p, ".cairn"), "log", "-1", "--format=%s"); s != "after the daemon died\n" {
		t.Errorf("last commit: %q", s)
	}

	calls = fakeDaemon(t, p, fails500)
	os.WriteFile(filepath.Join(p, ".cairn", "hand.md"), []byte("by hand, again\n"), 0o600)
	failsEnv(t, slow, p, 1, "the disk is on fire", "checkpoint", "-m", "not here")
	if s := gitc(t, filepath.Join(p, ".cairn"), "log", "-1", "--format=%s"); s != "after the daemon died\n" || calls.Load() != 1 {
		t.Errorf("an error the daemon answered was tried again here (%d calls): last commit %q", calls.Load(), s)
	}
}

// Issue 12, item 12: search and context (recall.Open's Remote) do the
// work in process when the daemon dies mid-request, and not when it
// answered with an error.
func TestSearchContextDaemonDiesMidRequest(t *testing.T) {
	p := searchProject(t)
	calls := fakeDaemon(t, p, dies)
	// (Go's HTTP client sends a GET again once when a reused connection
	// closes before an answer: one or two calls.)
	r := cairnEnv(t, slow, p, "", "search", "--kind", "decision", "job", "queue")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "1. Use PostgreSQL for the job queue") || calls.Load() == 0 {
		t.Errorf("search with a dying daemon (%d calls): exit %d\n%s%s", calls.Load(), r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "daemon went away") {
		t.Errorf("search: stderr %q, want a line saying the daemon went away", r.stderr)
	}
	before := calls.Load()
	r = cairnEnv(t, slow, p, "", "context", "--query", "helm", "--budget-tokens", "500")
	if r.code != 0 || !strings.Contains(r.stdout, "Deploys go through Kubernetes") || calls.Load() == before {
		t.Errorf("context with a dying daemon (%d calls): exit %d\n%s%s", calls.Load(), r.code, r.stdout, r.stderr)
	}

	calls = fakeDaemon(t, p, fails500)
	failsEnv(t, slow, p, 1, "the disk is on fire", "search", "job", "queue")
	failsEnv(t, slow, p, 1, "the disk is on fire", "context", "--query", "helm")
	if calls.Load() != 2 {
		t.Errorf("%d calls to the daemon, want 2", calls.Load())
	}
}

// A wait for the daemon that cannot be read is said on one line and the
// default is used: the command still does its work.
func TestDaemonWaitBadValue(t *testing.T) {
	p := project(t)
	ok(t, p, "init")
	os.WriteFile(filepath.Join(p, ".cairn", "hand.md"), []byte("by hand\n"), 0o600)
	r := cairnEnv(t, env{"CAIRN_DAEMON_WAIT": "a while"}, p, "", "checkpoint", "-m", "waited")
	if r.code != 0 || !strings.Contains(r.stderr, "CAIRN_DAEMON_WAIT") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("checkpoint with CAIRN_DAEMON_WAIT=\"a while\": exit %d, stderr %q; want exit 0 and one line naming it", r.code, r.stderr)
	}
}
