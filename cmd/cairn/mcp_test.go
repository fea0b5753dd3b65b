package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The built binary speaks MCP on stdio as Claude Code starts it:
// initialize, tools/list, then remember, search and get.
func TestMCPStdio(t *testing.T) {
	t.Parallel()
	p := project(t)
	ok(t, p, "init")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, cmd, stderr := startMCP(ctx, t, p)
	if info := cs.InitializeResult().ServerInfo; info == nil || info.Name != "cairn" {
		t.Errorf("server info: %+v", info)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 8 {
		t.Fatalf("tools/list: %v %+v", err, tools)
	}
	call := func(name string, args map[string]any) string {
		t.Helper()
		out, isErr := callTool(ctx, t, cs, stderr, name, args)
		if isErr {
			t.Fatalf("%s: error %s", name, out)
		}
		return out
	}
	out := call("remember", map[string]any{"text": "Integration tests need PostgreSQL on port 5433", "kind": "fact"})
	_, idPart, found := strings.Cut(out, "id=")
	if !found {
		t.Fatalf("remember said %q", out)
	}
	id := strings.Fields(idPart)[0]
	if out := call("search", map[string]any{"query": "postgres port for tests"}); !strings.Contains(out, "id="+id) {
		t.Errorf("search did not find %s:\n%s", id, out)
	}
	if out := call("get", map[string]any{"ids": []string{id}}); !strings.Contains(out, "# Integration tests need PostgreSQL on port 5433") {
		t.Errorf("get:\n%s", out)
	}
	// Closing stdin ends the server, with exit code 0.
	if err := cs.Close(); err != nil || cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("cairn mcp after stdin closed: %v %v\n%s", err, cmd.ProcessState, stderr.String())
	}
	if strings.Contains(stderr.String(), "ERROR") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	// The item is committed, as cairn remember would.
	if got := ok(t, p, "show", id); !strings.Contains(got, "port 5433") {
		t.Errorf("show: %s", got)
	}
	checkGit(t, p)
}

// startMCP starts the built binary's MCP server in project p, as Claude
// Code does, and connects to it; its stderr is kept for failures.
func startMCP(ctx context.Context, t *testing.T, p string) (*mcp.ClientSession, *exec.Cmd, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(binary, "-C", p, "mcp")
	stderr := new(strings.Builder)
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	return cs, cmd, stderr
}

// callTool calls a tool and returns its text and whether it is an error.
func callTool(ctx context.Context, t *testing.T, cs *mcp.ClientSession, stderr *strings.Builder, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, stderr.String())
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

func TestMCPNoMemory(t *testing.T) {
	t.Parallel()
	p := project(t)
	fails(t, p, 1, "no cairn memory", "mcp")
}

// BenchmarkMCPStdio reports the p50 and p90 of an MCP search round trip
// to the built binary over stdio, as an agent makes it, with a daemon
// running (started with cairn daemon start), on a memory of
// CAIRN_BENCH_ITEMS items (3,000 by default); and, as the baseline in
// the same run, of a cairn search process on the same memory and daemon.
// Run with -benchtime=100x or so.
func BenchmarkMCPStdio(b *testing.B) {
	n := 3000
	if v, err := strconv.Atoi(os.Getenv("CAIRN_BENCH_ITEMS")); err == nil && v > 0 {
		n = v
	}
	b.Setenv("HOME", b.TempDir())
	b.Setenv("CAIRN_DIR", "")
	ctx := context.Background()
	p := filepath.Join(b.TempDir(), "proj")
	m, _, err := memory.Init(ctx, p, memory.Options{})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	vocab := strings.Fields("queue job worker retry backoff postgres redis cache index search token budget deploy helm chart staging release branch merge commit checkpoint session transcript summary decision migration schema lock transaction timeout context goroutine channel mutex race test fixture benchmark latency memory profile buffer stream parser error panic signal shutdown inbox watcher cursor rename fsync hash yaml markdown json http endpoint daemon hook agent prompt tool compaction archive remote sync conflict vector embedding rerank chunk snippet")
	words := func(k int) string {
		w := make([]string, k)
		for i := range w {
			w[i] = vocab[r.IntN(len(vocab))]
		}
		return strings.Join(w, " ")
	}
	for i := range n {
		it := model.NewItem(model.Kinds()[i%5], words(4+r.IntN(5)), time.Now().Add(-time.Duration(i)*time.Hour))
		it.ID = model.NewID(it.Created)
		it.Body = words(40+r.IntN(80)) + ".\n\n" + words(20+r.IntN(40)) + "."
		data, err := it.Marshal()
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Store().WriteFile(it.Path(), data); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := m.Checkpoint(ctx, memory.CheckpointOptions{Message: "bench items"}); err != nil {
		b.Fatal(err)
	}
	m.Close()
	if out, err := exec.Command(binary, "-C", p, "reindex").CombinedOutput(); err != nil {
		b.Fatalf("reindex: %v\n%s", err, out)
	}
	if out, err := exec.Command(binary, "-C", p, "daemon", "start").CombinedOutput(); err != nil {
		b.Fatalf("daemon start: %v\n%s", err, out)
	}
	defer exec.Command(binary, "-C", p, "daemon", "stop").Run()

	queries := make([]string, 64)
	for i := range queries {
		queries[i] = words(2)
	}
	measure := func(b *testing.B, f func(q string)) {
		for _, q := range queries[:4] {
			f(q)
		}
		var times []time.Duration
		for i := 0; b.Loop(); i++ {
			s := time.Now()
			f(queries[i%len(queries)])
			times = append(times, time.Since(s))
		}
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "p90-ms")
	}
	b.Run("mcp-stdio", func(b *testing.B) {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(ctx, &mcp.CommandTransport{Command: exec.Command(binary, "-C", p, "mcp")}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		measure(b, func(q string) {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": q}})
			if err != nil || res.IsError {
				b.Fatalf("search %q: %v %+v", q, err, res)
			}
		})
	})
	b.Run("cli-search", func(b *testing.B) {
		measure(b, func(q string) {
			if out, err := exec.Command(binary, "-C", p, "search", q).CombinedOutput(); err != nil {
				b.Fatalf("search %q: %v\n%s", q, err, out)
			}
		})
	})
}

// Issue 12, item 17: one malformed line must not end cairn mcp. The real
// binary over stdio: a line that is not JSON is answered -32700 (parse
// error), JSON that is not a JSON-RPC message -32600 (invalid request,
// with its id when it has one), and the session goes on.
func TestMCPMalformedLine(t *testing.T) {
	p := project(t)
	ok(t, p, "init")
	cmd := exec.Command(binary, "-C", p, "mcp")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan map[string]any)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var v map[string]any
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				v = map[string]any{"not JSON": sc.Text()}
			}
			lines <- v
		}
		close(lines)
	}()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatalf("write %q: %v\n%s", line, err, stderr.String())
		}
	}
	next := func(what string) map[string]any {
		t.Helper()
		select {
		case v, open := <-lines:
			if !open {
				t.Fatalf("%s: cairn mcp ended\n%s", what, stderr.String())
			}
			return v
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: no answer\n%s", what, stderr.String())
		}
		return nil
	}
	errorOf := func(v map[string]any) (float64, any) {
		e, _ := v["error"].(map[string]any)
		code, _ := e["code"].(float64)
		return code, v["id"]
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`)
	if v := next("initialize"); v["result"] == nil {
		t.Fatalf("initialize: %v", v)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, tc := range []struct {
		line string
		code float64
		id   any
	}{
		{`this is not JSON`, -32700, nil},
		{`{"jsonrpc":"2.0","id":2,"method":`, -32700, nil},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list"} trailing`, -32700, nil},
		{"\x00\x01\x02", -32700, nil},
		{`42`, -32600, nil},
		{`[]`, -32600, nil},
		{`[{"jsonrpc":"2.0","id":4,"method":"tools/list"}]`, -32600, nil},
		{`{"id":5,"method":"tools/list"}`, -32600, 5.0},
		{`{"jsonrpc":"1.0","id":"six","method":"tools/list"}`, -32600, "six"},
	} {
		send(tc.line)
		v := next(tc.line)
		if code, id := errorOf(v); code != tc.code || id != tc.id {
			t.Errorf("%q: answer %v, want error %v with id %v", tc.line, v, tc.code, tc.id)
		}
	}
	send("")
	send(`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`)
	v := next("tools/list after the bad lines")
	if res, _ := v["result"].(map[string]any); v["id"] != 7.0 || res == nil || len(res["tools"].([]any)) != 8 {
		t.Errorf("tools/list after the bad lines: %v", v)
	}
	send(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get","arguments":{"ids":["../../etc/passwd"]}}}`)
	if res, _ := next("get outside the memory")["result"].(map[string]any); res == nil || res["isError"] != true {
		t.Errorf("get outside the memory: %v", res)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("cairn mcp after stdin closed: %v\n%s", err, stderr.String())
	}
}
