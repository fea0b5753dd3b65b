package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
)

// newMemory makes a memory in a new project, with HOME and the author
// set for the test.
func newMemory(t *testing.T) *memory.Memory {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CAIRN_AUTHOR_NAME", "test")
	t.Setenv("CAIRN_AUTHOR_EMAIL", "test@example.com")
	proj := filepath.Join(t.TempDir(), "proj")
	os.MkdirAll(proj, 0o755)
	m, _, err := memory.Init(context.Background(), proj, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// startDaemon runs a daemon on a new memory until the test ends and
// returns it with its base URL and token.
func startDaemon(t *testing.T) (*Daemon, string, string) {
	t.Helper()
	d := &Daemon{Mem: newMemory(t)}
	url, token := serveDaemon(t, d)
	return d, url, token
}

// serveDaemon runs d until the test ends, checks that it then stops
// without an error, and returns its base URL and token.
func serveDaemon(t *testing.T, d *Daemon) (string, string) {
	t.Helper()
	m := d.Mem
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("daemon: %v", err)
		}
		m.Close()
	})
	var url, token string
	waitFor(t, "daemon to start", func() bool {
		a, err1 := os.ReadFile(m.StatePath(client.AddrFile))
		k, err2 := os.ReadFile(m.StatePath(client.TokenFile))
		url, token = strings.TrimSpace(string(a)), strings.TrimSpace(string(k))
		return err1 == nil && err2 == nil && url != ""
	})
	return url, token
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if ok() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func TestDaemonCapturesTranscriptsAndHooks(t *testing.T) {
	d, url, token := startDaemon(t)
	m := d.Mem
	// Claude Code writes a transcript into its project folder.
	globs := follow.Globs(m)
	if len(globs) == 0 {
		t.Fatal("no transcript globs")
	}
	dir := filepath.Dir(globs[0])
	os.MkdirAll(dir, 0o755)
	src, err := os.ReadFile("../../testdata/transcripts/claude/basic.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	// Written in two parts, the first ending mid-line, as an agent does.
	cut := bytes.IndexByte(src[len(src)/2:], '\n') + len(src)/2 + 5
	tr := filepath.Join(dir, "7f3c2a10-0000-4000-8000-000000000001.jsonl")
	os.WriteFile(tr, src[:cut], 0o600)
	time.Sleep(300 * time.Millisecond)
	f, _ := os.OpenFile(tr, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(src[cut:])
	f.Close()
	waitFor(t, "the session to be captured and committed", func() bool {
		out, _ := exec.Command("git", "-C", m.Dir, "log", "--format=%s%n%b").CombinedOutput()
		return strings.Contains(string(out), "Cairn-Session:")
	})
	sessions, _ := filepath.Glob(filepath.Join(m.Dir, "sessions", "*", "prompts.md"))
	if len(sessions) == 0 {
		t.Fatal("no session folder with prompts.md")
	}

	// A capture hook drops its payload into the inbox.
	hook, err := os.ReadFile("../../testdata/hooks/user-prompt-submit.json")
	if err != nil {
		t.Fatal(err)
	}
	job, _ := json.Marshal(map[string]any{"kind": "hook", "payload": json.RawMessage(hook)})
	os.WriteFile(filepath.Join(m.Dir, "inbox", "01JDXK3V9M2Q7Y8Z4T6R5W1HBC.json"), job, 0o600)
	// The job leaves the inbox when it is claimed, before it runs: done
	// is when processing/ is empty too.
	waitFor(t, "the hook job to be done", func() bool {
		left, _ := filepath.Glob(filepath.Join(m.Dir, "inbox", "*.json"))
		running, _ := filepath.Glob(filepath.Join(m.Store().StatePath("queue"), "processing", "*.json"))
		return len(left) == 0 && len(running) == 0
	})
	// The daemon may still commit (an idle transcript's last turn), and
	// git fsck lists the objects before it follows the refs: a tree
	// written mid-listing under a commit it did list is reported missing.
	// Every daemon write holds d.ops, so fsck holds it too.
	d.ops.do(func() { gitOut(t, m.Dir, "fsck", "--no-dangling") })

	// A hand edit, checkpointed through the API.
	os.MkdirAll(filepath.Join(m.Dir, "core"), 0o755)
	if err := os.WriteFile(filepath.Join(m.Dir, "core", "hand.md"), []byte("by hand\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(client.CheckpointRequest{Message: "hand edit"})
	req, _ := http.NewRequest("POST", url+"/api/checkpoint", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var cr client.CheckpointResponse
	json.NewDecoder(resp.Body).Decode(&cr)
	resp.Body.Close()
	if resp.StatusCode != 200 || cr.Commit == "" || len(cr.Changes) != 1 || cr.Changes[0].Path != "core/hand.md" {
		t.Errorf("checkpoint through the API: %d %+v", resp.StatusCode, cr)
	}
	if st := gitOut(t, m.Dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status after a daemon checkpoint:\n%s", st)
	}
}

func TestDaemonSecurityAndExclusivity(t *testing.T) {
	d, url, _ := startDaemon(t)
	fi, err := os.Stat(d.Mem.StatePath(client.TokenFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("token file: %v %v", fi.Mode(), err)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("daemon listens on %s, not loopback", url)
	}
	resp, err := http.Post(url+"/api/checkpoint", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(b), "token") {
		t.Errorf("without the token: %d %s", resp.StatusCode, b)
	}
	second := &Daemon{Mem: d.Mem}
	if err := second.Serve(context.Background()); !errors.Is(err, ErrRunning) {
		t.Errorf("second daemon: %v, want ErrRunning", err)
	}
}

// With an index built, the daemon holds it and serves searches; the
// index follows what the daemon commits.
func TestDaemonServesSearch(t *testing.T) {
	m := newMemory(t)
	ctx := context.Background()
	defer m.Close()
	it := model.NewItem(model.Decision, "Use PostgreSQL for the job queue", time.Now())
	it.Body = "Jobs survive restarts and share a transaction with their cause."
	if _, err := m.Remember(ctx, it); err != nil {
		t.Fatal(err)
	}
	x, err := recall.OpenIndex(ctx, m, recall.IndexOptions{}) // builds it
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
	d := &Daemon{Mem: m}
	dctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Serve(dctx) }()
	defer func() { cancel(); <-done }()
	var c *client.Client
	waitFor(t, "the daemon", func() bool {
		c, err = client.Discover(ctx, m.StatePath(""), time.Second)
		return err == nil
	})
	// A memory committed after the daemon opened the index is found.
	it2 := model.NewItem(model.Fact, "Integration tests need PostgreSQL on port 5433", time.Now())
	if _, err := m.Remember(ctx, it2); err != nil {
		t.Fatal(err)
	}
	res, err := (recall.Remote{Client: c}).Search(ctx, "postgres port", recall.SearchOptions{K: 5})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range res.Hits {
		if h.ID == it2.ID {
			found = true
		}
	}
	if !found {
		t.Errorf("search through the daemon did not find the new item: %+v", res.Hits)
	}
}
