package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The built binary speaks MCP on stdio as Claude Code starts it:
// initialize, tools/list, then remember, search and get.
func TestMCPStdio(t *testing.T) {
	p := project(t)
	ok(t, p, "init")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.Command(binary, "-C", p, "mcp")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	if info := cs.InitializeResult().ServerInfo; info == nil || info.Name != "cairn" {
		t.Errorf("server info: %+v", info)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 7 {
		t.Fatalf("tools/list: %v %+v", err, tools)
	}
	call := func(name string, args map[string]any) string {
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
		if res.IsError {
			t.Fatalf("%s: error %s", name, b.String())
		}
		return b.String()
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

func TestMCPNoMemory(t *testing.T) {
	p := project(t)
	fails(t, p, 1, "no cairn memory", "mcp")
}
