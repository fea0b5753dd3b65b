package hooks

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/transcript"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// Gemini CLI's and Cursor's payloads, put into Claude Code's shape, read
// as Claude Code's do: the golden files hold the payload and its events.
func TestNormalizeGolden(t *testing.T) {
	t.Parallel()
	for _, agent := range []string{model.AgentGemini, model.AgentCursor} {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "hooks", agent, "*.json"))
		if len(files) == 0 {
			t.Fatalf("no %s payloads", agent)
		}
		for _, path := range files {
			name := agent + "-" + filepath.Base(path)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n, err := Normalize(agent, data)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			g := struct {
				Event, Native, Session string
				Payload                json.RawMessage `json:",omitempty"`
				Events                 []transcript.Event
			}{Event: n.Event, Native: n.Native, Session: n.Session, Payload: n.Payload}
			if n.Payload != nil {
				h, err := transcript.ParseHook(n.Payload)
				if err != nil {
					t.Fatalf("%s: %v\n%s", name, err, n.Payload)
				}
				if h.Agent != agent {
					t.Errorf("%s: agent %q", name, h.Agent)
				}
				g.Events = h.Events()
			}
			got, _ := json.MarshalIndent(g, "", "  ")
			got = append(got, '\n')
			golden := filepath.Join("testdata", "golden", "agents", name)
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if want, err := os.ReadFile(golden); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s (run go test -update and review the diff): %v\n%s", name, golden, err, got)
			}
		}
	}
}

// What the golden files say, checked once by hand.
func TestNormalize(t *testing.T) {
	t.Parallel()
	read := func(agent, name string) *Normalized {
		t.Helper()
		data, err := os.ReadFile(filepath.Join("..", "testdata", "hooks", agent, name))
		if err != nil {
			t.Fatal(err)
		}
		n, err := Normalize(agent, data)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	events := func(n *Normalized) []transcript.Event {
		t.Helper()
		h, err := transcript.ParseHook(n.Payload)
		if err != nil {
			t.Fatal(err)
		}
		return h.Events()
	}
	if n := read(model.AgentGemini, "after-tool-error.json"); n.Event != "PostToolUseFailure" || !events(n)[1].Result.IsError ||
		!strings.Contains(events(n)[1].Result.Output, "0 occurrences found") {
		t.Errorf("a failed edit: %s", n.Payload)
	}
	if r := events(read(model.AgentGemini, "after-tool-shell-exit1.json"))[1].Result; !r.IsError || !strings.Contains(r.Output, "queue not drained") {
		t.Errorf("a command that exits 1: %+v", r)
	}
	if r := events(read(model.AgentGemini, "after-tool-shell.json"))[1].Result; r.IsError || !strings.Contains(r.Output, "example.com/queue") {
		t.Errorf("a command that worked: %+v", r)
	}
	if e := events(read(model.AgentGemini, "after-agent.json"))[0]; e.Kind != transcript.KindStop || !strings.Contains(e.Text, "q.Done()") {
		t.Errorf("AfterAgent: %+v", e)
	}
	if e := events(read(model.AgentCursor, "after-shell-execution.json")); e[0].Call.Summary != "Shell: go test ./queue/" || e[1].Result.DurationMS != 5120 || e[0].CWD != "/home/dev/queue-service" {
		t.Errorf("afterShellExecution: %+v", e)
	}
	if e := events(read(model.AgentCursor, "after-mcp-execution.json")); e[0].Call.Name != "get_issue" || !strings.Contains(string(e[0].Call.Input), `"issue_number":42`) {
		t.Errorf("afterMCPExecution: %+v", e[0].Call)
	}
	if n := read(model.AgentCursor, "stop.json"); n.Payload != nil || n.Session != "c0a1b2c3-d4e5-4f60-8172-93a4b5c6d7e8" || n.CWD != "/home/dev/queue-service" {
		t.Errorf("stop: %+v", n)
	}
	for _, bad := range []string{`[]`, `{"hook_event_name":"BeforeTool","session_id":"s"}`, `{"hook_event_name":"BeforeAgent"}`} {
		if _, err := Normalize(model.AgentGemini, []byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// The user's settings.json as Gemini CLI writes it.
const geminiUser = `{
  "theme": "GitHub",
  "hooks": {
    "AfterTool": [
      {
        "matcher": "write_file",
        "hooks": [
          {
            "type": "command",
            "command": "prettier --write",
            "timeout": 5000
          }
        ]
      }
    ]
  },
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-github"
      ]
    }
  }
}
`

func TestGeminiInstall(t *testing.T) {
	t.Parallel()
	if got := (Gemini{Project: "/p", Global: true, Home: "/home/u"}).Settings(); got != "/home/u/.gemini/settings.json" {
		t.Errorf("global settings %s", got)
	}
	g := Gemini{Project: t.TempDir(), Self: "/opt/cairn"}
	os.MkdirAll(filepath.Dir(g.Settings()), 0o755)
	os.WriteFile(g.Settings(), []byte(geminiUser), 0o644)
	res, err := g.Install()
	if err != nil || !res.Settings.Changed || res.Settings.Backup == "" {
		t.Fatalf("install: %+v, %v", res, err)
	}
	data, _ := os.ReadFile(g.Settings())
	var doc struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []Hook `json:"hooks"`
		} `json:"hooks"`
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, ev := range GeminiEvents() {
		list := doc.Hooks[ev]
		last := list[len(list)-1].Hooks[0]
		if last.Command != "/opt/cairn hook --agent gemini "+ev || last.Timeout != geminiTimeout(ev) || last.Timeout < 10000 {
			t.Errorf("%s: %+v", ev, last)
		}
	}
	if len(doc.Hooks["AfterTool"]) != 2 || doc.Hooks["AfterTool"][0].Matcher != "write_file" {
		t.Errorf("the user's AfterTool hook: %+v", doc.Hooks["AfterTool"])
	}
	var cairn bytes.Buffer
	json.Compact(&cairn, doc.MCPServers["cairn"])
	if cairn.String() != `{"command":"/opt/cairn","args":["mcp"]}` || doc.MCPServers["github"] == nil {
		t.Errorf("mcpServers: %s", data)
	}
	if again, err := g.Install(); err != nil || again.Settings.Changed {
		t.Errorf("install again: %+v, %v", again, err)
	}
	if res, err := g.Remove(); err != nil || !res.Settings.Changed {
		t.Fatalf("remove: %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(g.Settings()); string(got) != geminiUser {
		t.Errorf("after remove:\n%s", got)
	}
	// A settings file cairn made goes with its folder.
	fresh := Gemini{Project: t.TempDir(), Self: "cairn"}
	if _, err := fresh.Install(); err != nil {
		t.Fatal(err)
	}
	if _, err := fresh.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(fresh.Settings())); !os.IsNotExist(err) {
		t.Errorf(".gemini/ left behind: %v", err)
	}
}

func TestCursorInstall(t *testing.T) {
	t.Parallel()
	c := Cursor{Project: t.TempDir(), Self: "cairn"}
	user := "{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [\n      {\n        \"command\": \"./notify.sh\"\n      }\n    ]\n  }\n}\n"
	f := c.Files()
	os.MkdirAll(filepath.Dir(f.Hooks), 0o755)
	os.WriteFile(f.Hooks, []byte(user), 0o644)
	if _, err := c.Install(); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version int                                   `json:"version"`
		Hooks   map[string][]struct{ Command string } `json:"hooks"`
	}
	data, _ := os.ReadFile(f.Hooks)
	if err := json.Unmarshal(data, &doc); err != nil || doc.Version != 1 {
		t.Fatalf("%s: %v", data, err)
	}
	for _, ev := range CursorEvents() {
		list := doc.Hooks[ev]
		if len(list) == 0 || list[len(list)-1].Command != "cairn hook --agent cursor "+ev {
			t.Errorf("%s: %+v", ev, list)
		}
	}
	if doc.Hooks["stop"][0].Command != "./notify.sh" {
		t.Errorf("the user's stop hook: %+v", doc.Hooks["stop"])
	}
	if changed, err := WriteCursorRules(c.Project, "# Memory\n\nWe decided to wait on q.Done()."); err != nil || !changed {
		t.Fatalf("rules: %v, %v", changed, err)
	}
	if changed, _ := WriteCursorRules(c.Project, "# Memory\n\nWe decided to wait on q.Done()."); changed {
		t.Error("the same pack wrote the rules file again")
	}
	rules, _ := os.ReadFile(f.Rules)
	if !strings.HasPrefix(string(rules), "---\ndescription: ") || !strings.Contains(string(rules), "alwaysApply: true\n---\n") || !strings.HasSuffix(string(rules), "q.Done().\n") {
		t.Errorf("rules file:\n%s", rules)
	}
	res, err := c.Remove()
	if err != nil || !res.Rules {
		t.Fatalf("remove: %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(f.Hooks); string(got) != user {
		t.Errorf("after remove:\n%s", got)
	}
	if _, err := os.Stat(f.MCP); !os.IsNotExist(err) {
		t.Errorf("mcp.json cairn made is left: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(f.Rules)); !os.IsNotExist(err) {
		t.Errorf(".cursor/rules/ left behind: %v", err)
	}
}
