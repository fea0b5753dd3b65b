package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectMCP serves s over an in-memory transport and returns a client
// session of the SDK's own client.
func connectMCP(t *testing.T, s *MCP) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		s.Close()
	})
	return cs
}

// tool calls a tool and returns its text and whether it is an error.
func tool(t *testing.T, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// toolOK calls a tool that must succeed and checks its text has want.
func toolOK(t *testing.T, cs *mcp.ClientSession, name string, args any, want ...string) string {
	t.Helper()
	out, isErr := tool(t, cs, name, args)
	if isErr {
		t.Fatalf("%s %v: error %s", name, args, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s %v: no %q in\n%s", name, args, w, out)
		}
	}
	return out
}

// The tool list is paid for in every session: it must stay small.
func TestMCPToolListTokens(t *testing.T) {
	m := newMemory(t)
	defer m.Close()
	cs := connectMCP(t, &MCP{Mem: m, StateDir: t.TempDir()})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, " "); got != "checkpoint context get outdated remember search session_status timeline" {
		t.Errorf("tools = %s", got)
	}
	b, _ := json.Marshal(res)
	n := indexer.EstimateTokens(string(b))
	t.Logf("tools/list: %d bytes, %d tokens (limit %d)", len(b), n, MaxToolTokens)
	if n > MaxToolTokens {
		t.Errorf("tools/list costs %d tokens, more than %d:\n%s", n, MaxToolTokens, b)
	}
}

func TestMCPTools(t *testing.T) {
	m := newMemory(t)
	defer m.Close()
	ctx := context.Background()
	cs := connectMCP(t, &MCP{Mem: m, StateDir: t.TempDir(), IndexIdle: 50 * time.Millisecond})

	out := toolOK(t, cs, "remember", map[string]any{
		"text": "The job queue uses PostgreSQL\nWorkers claim jobs with SKIP LOCKED.", "kind": "decision", "tags": []string{"db"}, "importance": 0.9,
	}, "Remembered decision", "id=")
	id := strings.Fields(out[strings.Index(out, "id=")+3:])[0]
	toolOK(t, cs, "remember", map[string]any{"text": "Deploys go through Helm charts in deploy/", "kind": "fact"})

	toolOK(t, cs, "search", map[string]any{"query": "where does the job queue live"}, "id="+id, "The job queue uses PostgreSQL", "decision", "match ")
	// A query about something never stored finds nothing rather than
	// the least unlike memory.
	toolOK(t, cs, "search", map[string]any{"query": "kafka consumer group rebalancing"}, "No memory matches")
	if out := toolOK(t, cs, "search", map[string]any{"query": "postgresql", "kind": "fact"}); strings.Contains(out, id) {
		t.Errorf("a search for facts found the decision:\n%s", out)
	}
	toolOK(t, cs, "search", map[string]any{"query": "zyxxyz"}, "No memory matches")
	toolOK(t, cs, "get", map[string]any{"ids": []string{id}}, "# The job queue uses PostgreSQL", "SKIP LOCKED", "tags db")
	// One unknown id makes the answer an error; the others are in it.
	if out, isErr := tool(t, cs, "get", map[string]any{"ids": []string{id, "01ZZZZZZZZZZZZZZZZZZZZZZZZ"}}); !isErr ||
		!strings.Contains(out, "SKIP LOCKED") || !strings.Contains(out, "01ZZZZZZZZZZZZZZZZZZZZZZZZ: ") || !strings.Contains(out, "no such memory item") {
		t.Errorf("get of a known and an unknown id: error=%v\n%s", isErr, out)
	}
	out = toolOK(t, cs, "timeline", map[string]any{"id": id}, "→ ", "item "+id, "commit ", "remember: decision")
	if j, k := strings.Index(out, "→ "), strings.Index(out, "remember: decision"); j > k {
		t.Errorf("timeline shows the item after its commit:\n%s", out)
	}
	toolOK(t, cs, "timeline", map[string]any{}, "Latest", "Deploys go through Helm")
	toolOK(t, cs, "context", map[string]any{"query": "helm"}, "The job queue uses PostgreSQL", "Deploys go through Helm")
	toolOK(t, cs, "checkpoint", map[string]any{}, "Nothing to checkpoint")
	os.WriteFile(filepath.Join(m.Dir, "core", "hand.md"), []byte("# Edited by hand\n"), 0o644)
	toolOK(t, cs, "checkpoint", map[string]any{"message": "hand edit", "tag": "v1"}, "Checkpoint ", "hand edit")
	if got := gitOut(t, m.Dir, "tag"); got != "v1\n" {
		t.Errorf("tags: %q", got)
	}

	// A session captured from a hook shows in session_status and timeline.
	const sid = "7f3c2a10-0000-4000-8000-0000000000c1"
	if _, isErr := tool(t, cs, "session_status", map[string]any{"session": sid}); !isErr {
		t.Error("status of an unknown session is no error")
	}
	hook := `{"hook_event_name":"UserPromptSubmit","session_id":"` + sid + `","cwd":"/tmp","prompt":"Move the queue to PostgreSQL"}`
	if _, err := capture.CaptureHook(ctx, m, []byte(hook)); err != nil {
		t.Fatal(err)
	}
	toolOK(t, cs, "session_status", map[string]any{}, "Session "+sid+": active, 1 prompts", "Queue: 0 pending")
	toolOK(t, cs, "timeline", map[string]any{"session": sid[:8]}, "Session "+sid, "session started", "commit ")
	toolOK(t, cs, "get", map[string]any{"ids": []string{"sessions/" + sid + "/prompts.md"}}, "Move the queue to PostgreSQL")

	// The index opened here closes when idle, so others can have it.
	waitFor(t, "the index to close", func() bool {
		x, err := recall.OpenIndex(ctx, m, recall.IndexOptions{})
		if err == nil {
			x.Close()
		}
		return err == nil
	})
}

func TestMCPBadCalls(t *testing.T) {
	m := newMemory(t)
	defer m.Close()
	cs := connectMCP(t, &MCP{Mem: m, StateDir: t.TempDir()})
	many := make([]string, maxGetIDs+1)
	for i := range many {
		many[i] = "01JDXK3V9M2Q7Y8Z4T6R5W1HBC"
	}
	for _, tc := range []struct {
		name string
		args any
		want string
	}{
		{"search", map[string]any{"query": "  "}, "query is empty"},
		{"search", map[string]any{"query": 42}, "query"},
		{"search", map[string]any{}, "query"},
		{"search", map[string]any{"query": "x", "kind": "rumour"}, "rumour"},
		{"search", map[string]any{"query": "x", "since": "last tuesday"}, "since"},
		{"get", map[string]any{"ids": []string{}}, "ids is empty"},
		{"get", map[string]any{"ids": many}, "at most 20"},
		{"remember", map[string]any{"text": ""}, "nothing to remember"},
		{"remember", map[string]any{"text": "x", "kind": "rumour"}, "rumour"},
		{"remember", map[string]any{"text": "x", "session": "../../etc"}, "invalid session id"},
		{"remember", map[string]any{"text": "x", "importance": 3}, "importance"},
		{"timeline", map[string]any{"id": "x", "session": "y"}, "not both"},
		{"timeline", map[string]any{"session": "../x"}, "invalid session id"},
		{"checkpoint", map[string]any{"tag": "bad tag"}, "tag"},
		{"context", map[string]any{"budget": -1}, "budget"},
		{"session_status", map[string]any{"session": "a/b"}, "invalid session id"},
	} {
		out, isErr := tool(t, cs, tc.name, tc.args)
		if !isErr || !strings.Contains(out, tc.want) {
			t.Errorf("%s %v: error=%v %q, want an error with %q", tc.name, tc.args, isErr, out, tc.want)
		}
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope"}); err == nil {
		t.Error("an unknown tool is no error")
	}
}

// With a daemon running, search and remember go through it and the MCP
// process never opens the index.
func TestMCPThroughDaemon(t *testing.T) {
	d, _, _ := startDaemon(t)
	s := &MCP{Mem: d.Mem}
	cs := connectMCP(t, s)
	out := toolOK(t, cs, "remember", map[string]any{"text": "Releases are cut on Thursdays", "kind": "fact"}, "Remembered fact")
	id := strings.Fields(out[strings.Index(out, "id=")+3:])[0]
	toolOK(t, cs, "search", map[string]any{"query": "when are releases cut"}, "id="+id)
	toolOK(t, cs, "context", map[string]any{"query": "releases"}, "Releases are cut on Thursdays")
	s.mu.Lock()
	x, c := s.x, s.client
	s.mu.Unlock()
	if x != nil || c == nil {
		t.Errorf("MCP opened the index (%v) or found no daemon (%v)", x != nil, c == nil)
	}
}

// An MCP server that holds the index when a daemon starts lets it go at
// its next search and asks the daemon, which opens the index then.
func TestMCPDaemonStartsLater(t *testing.T) {
	m := newMemory(t)
	defer m.Close()
	ctx := context.Background()
	s := &MCP{Mem: m, IndexIdle: time.Hour}
	cs := connectMCP(t, s)
	out := toolOK(t, cs, "remember", map[string]any{"text": "The cache is Redis 7", "kind": "fact"})
	id := strings.Fields(out[strings.Index(out, "id=")+3:])[0]
	toolOK(t, cs, "search", map[string]any{"query": "which cache"}, "id="+id)

	d := &server.Daemon{Mem: m} // finds the index taken, and says so
	dctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Serve(dctx) }()
	defer func() { cancel(); <-done }()
	waitFor(t, "the daemon", func() bool {
		_, err := client.Discover(ctx, m.StatePath(""), time.Second)
		return err == nil
	})
	toolOK(t, cs, "search", map[string]any{"query": "redis"}, "id="+id)
	toolOK(t, cs, "context", map[string]any{"query": "redis"}, "The cache is Redis 7")
	s.mu.Lock()
	x, c := s.x, s.client
	s.mu.Unlock()
	if x != nil || c == nil {
		t.Errorf("with a daemon, the MCP server holds the index (%v) or did not ask the daemon (%v)", x != nil, c == nil)
	}
}

// A daemon restarted on another address is found again; while none
// runs, the MCP server works on its own.
func TestMCPDaemonRestarts(t *testing.T) {
	m := newMemory(t)
	defer m.Close()
	ctx := context.Background()
	start := func() func() {
		d := &server.Daemon{Mem: m}
		dctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- d.Serve(dctx) }()
		waitFor(t, "the daemon", func() bool {
			_, err := client.Discover(ctx, m.StatePath(""), time.Second)
			return err == nil
		})
		return func() { cancel(); <-done }
	}
	stop := start()
	s := &MCP{Mem: m, IndexIdle: 50 * time.Millisecond}
	cs := connectMCP(t, s)
	toolOK(t, cs, "remember", map[string]any{"text": "Logs go to Loki", "kind": "fact"}, "Remembered")
	toolOK(t, cs, "search", map[string]any{"query": "loki logs"}, "Logs go to Loki")
	s.mu.Lock()
	first := s.client
	s.mu.Unlock()
	stop()
	toolOK(t, cs, "remember", map[string]any{"text": "Metrics go to Prometheus", "kind": "fact"}, "Remembered")
	toolOK(t, cs, "search", map[string]any{"query": "prometheus metrics"}, "Metrics go to Prometheus")
	waitFor(t, "the idle index to close", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.x == nil
	})
	stop = start()
	defer stop()
	toolOK(t, cs, "search", map[string]any{"query": "loki"}, "Logs go to Loki")
	s.mu.Lock()
	second := s.client
	s.mu.Unlock()
	if first == nil || second == nil || first.BaseURL == second.BaseURL {
		t.Errorf("daemon clients: %v then %v", first, second)
	}
}

// Tool calls run concurrently; writes made here take turns.
func TestMCPConcurrentRemember(t *testing.T) {
	m := newMemory(t)
	defer m.Close()
	cs := connectMCP(t, &MCP{Mem: m, StateDir: t.TempDir()})
	errs := make(chan string, 8)
	for i := range 8 {
		go func() {
			out, isErr := tool(t, cs, "remember", map[string]any{"text": fmt.Sprintf("Fact number %d about the build", i), "kind": "fact"})
			if isErr {
				errs <- out
				return
			}
			errs <- ""
		}()
	}
	for range 8 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
	items, _, err := m.List(context.Background(), memory.Filter{Kind: model.Fact})
	if err != nil || len(items) != 8 {
		t.Errorf("%d items, %v", len(items), err)
	}
	gitOut(t, m.Dir, "fsck", "--no-dangling")
	if st := gitOut(t, m.Dir, "status", "--porcelain"); st != "" {
		t.Errorf("git status:\n%s", st)
	}
}

// Issue 12, item 17: get of what cannot be had (an unknown id, a path
// outside the memory or into .git, a file that is not there) is an
// error (isError); a file that is not an item (a session's summary.md, a
// Markdown file without an id) is given as the file, not dressed as an
// item "created 0001-01-01".
func TestMCPGetErrorsAndFiles(t *testing.T) {
	m := newMemory(t)
	defer m.Close()
	cs := connectMCP(t, &MCP{Mem: m, StateDir: t.TempDir()})
	const sid = "7f3c2a10-0000-4000-8000-0000000000d1"
	os.MkdirAll(filepath.Join(m.Dir, "sessions", sid), 0o700)
	os.WriteFile(filepath.Join(m.Dir, "sessions", sid, "summary.md"), []byte("---\nsession: "+sid+"\n---\n# Summary\n\nMoved the queue to PostgreSQL.\n"), 0o600)
	os.MkdirAll(filepath.Join(m.Dir, "core", "notes"), 0o700)
	os.WriteFile(filepath.Join(m.Dir, "core", "notes", "by-hand.md"), []byte("# Written by hand\n\nNo front matter.\n"), 0o600)
	for _, ref := range []string{
		"01ZZZZZZZZZZZZZZZZZZZZZZZZ", "ZZZZZZ", "abc", "../../../etc/passwd", "/etc/passwd", ".git/config",
		".state/token", "core/nothing-here.md", "sessions/" + sid + "/nothing.md", "sessions/../../x.md",
	} {
		if out, isErr := tool(t, cs, "get", map[string]any{"ids": []string{ref}}); !isErr || strings.Contains(out, "root:") {
			t.Errorf("get %q: error=%v, want an error:\n%s", ref, isErr, out)
		}
	}
	for ref, want := range map[string]string{
		"sessions/" + sid + "/summary.md": "Moved the queue to PostgreSQL.",
		"core/notes/by-hand.md":           "No front matter.",
	} {
		out := toolOK(t, cs, "get", map[string]any{"ids": []string{ref}}, want, "# "+ref)
		if strings.Contains(out, "0001-01-01") || strings.Contains(out, "created") || strings.Contains(out, "importance") {
			t.Errorf("get %s dressed the file as an item:\n%s", ref, out)
		}
	}
}

// Issue 12, item 17: checkpoint with a tag and nothing to commit names
// HEAD, as cairn checkpoint --tag does: through MCP without a daemon,
// through MCP with one, and through the HTTP API.
func TestCheckpointTagNothingToCommit(t *testing.T) {
	m := newMemory(t)
	defer m.Close()
	cs := connectMCP(t, &MCP{Mem: m, StateDir: t.TempDir()})
	head := strings.TrimSpace(gitOut(t, m.Dir, "rev-parse", "HEAD"))
	toolOK(t, cs, "checkpoint", map[string]any{"tag": "v0"}, "Nothing to checkpoint", "v0", head[:10])
	if got := strings.TrimSpace(gitOut(t, m.Dir, "rev-parse", "v0^{commit}")); got != head {
		t.Errorf("MCP: v0 names %q, want HEAD %s", got, head)
	}

	// With something to commit, the tag names the new commit.
	os.WriteFile(filepath.Join(m.Dir, "hand.md"), []byte("# By hand\n"), 0o600)
	toolOK(t, cs, "checkpoint", map[string]any{"tag": "v00", "message": "hand"}, "Checkpoint ", "hand")
	if got, want := gitOut(t, m.Dir, "rev-parse", "v00^{commit}"), gitOut(t, m.Dir, "rev-parse", "HEAD"); got != want || want == head+"\n" {
		t.Errorf("v00 names %q, want the new HEAD %q", got, want)
	}

	d, url, token := startDaemon(t)
	head = strings.TrimSpace(gitOut(t, d.Mem.Dir, "rev-parse", "HEAD"))
	res, err := (&client.Client{BaseURL: url, Token: token}).Checkpoint(context.Background(), client.CheckpointRequest{Tag: "v1"})
	if err != nil || res.Commit != "" || res.Tag != "v1" || res.Tagged != head {
		t.Errorf("HTTP checkpoint with a tag and nothing to commit: %+v, %v", res, err)
	}
	cs = connectMCP(t, &MCP{Mem: d.Mem})
	toolOK(t, cs, "checkpoint", map[string]any{"tag": "v2"}, "Nothing to checkpoint", "v2")
	for _, tag := range []string{"v1", "v2"} {
		if got := strings.TrimSpace(gitOut(t, d.Mem.Dir, "rev-parse", tag+"^{commit}")); got != head {
			t.Errorf("%s names %q, want HEAD %s", tag, got, head)
		}
	}
}

// Issue 12, item 19: a reader that finds the index held by an MCP server
// between calls asks for it, and the server lets it go at once instead of
// after IndexIdle: readers never wait behind an idle reader.
func TestReaderDoesNotWaitBehindIdleMCP(t *testing.T) {
	m := newMemory(t)
	defer m.Close()
	ctx := context.Background()
	s := &MCP{Mem: m, IndexIdle: time.Hour}
	cs := connectMCP(t, s)
	out := toolOK(t, cs, "remember", map[string]any{"text": "The queue is PostgreSQL", "kind": "decision"})
	id := strings.Fields(out[strings.Index(out, "id=")+3:])[0]
	toolOK(t, cs, "search", map[string]any{"query": "queue"}, "id="+id)
	s.mu.Lock()
	held := s.x != nil
	s.mu.Unlock()
	if !held {
		t.Fatal("the MCP server does not hold the index after a search")
	}

	// Another reader, as cairn search or the prompt hook opens it. With
	// an hour to wait, it gets the index only if the server lets go.
	r, done, err := recall.Open(ctx, m.Dir, recall.OpenOptions{
		Open:      func(ctx context.Context) (*memory.Memory, error) { return memory.Open(ctx, m.Dir, memory.Options{}) },
		IndexWait: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Search(ctx, "queue", recall.SearchOptions{})
	done()
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("search of the other reader: %v, %+v", err, res)
	}
	// And the server opens it again at its next call.
	toolOK(t, cs, "search", map[string]any{"query": "postgresql"}, "id="+id)
}
