package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/summarize"
)

// standIn puts testdata/claude/claude first on PATH and returns its
// record directory and the summarizer's configuration directory.
func standIn(t *testing.T, mode string) (dir, configDir string) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	bin, err := filepath.Abs("testdata/claude")
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	configDir = filepath.Join(dir, "state", "summarize", "claude")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("STANDIN_DIR", dir)
	t.Setenv("STANDIN_CONFIG_DIR", configDir)
	t.Setenv("STANDIN_MODE", mode)
	t.Setenv("CLAUDECODE", "1") // as when cairn runs from a Claude Code hook
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(dir, "users-own"))

	result, _ := json.Marshal(map[string]any{
		"type": "result", "subtype": "success", "is_error": false, "duration_ms": 4210, "duration_api_ms": 3987,
		"num_turns": 1, "result": answer(bugfixHead), "session_id": "5e1f3c2a-7b9d-4e0f-a1b2-c3d4e5f60718",
		"total_cost_usd": 0.00412,
		"usage": map[string]any{"input_tokens": 3, "cache_creation_input_tokens": 2860, "cache_read_input_tokens": 0,
			"output_tokens": 412, "server_tool_use": map[string]any{"web_search_requests": 0}, "service_tier": "standard"},
		"permission_denials": []any{}, "uuid": "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
	})
	if err := os.WriteFile(filepath.Join(dir, "result.json"), result, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, configDir
}

func TestClaudeCLI(t *testing.T) {
	dir, configDir := standIn(t, "ok")
	budget := &Budget{Path: filepath.Join(dir, "state", "summarize", "usage.json"), DailyTokens: 50_000}
	c := &ClaudeCLI{ConfigDir: configDir, Retry: fastRetry, Budget: budget}
	req := loadRequest(t, "../testdata/segments/design.json")
	res, err := c.Summarize(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Provider != "claude-cli" || res.Usage != (summarize.Usage{InputTokens: 2863, OutputTokens: 412}) || len(res.Items) != 2 || res.Items[0].Subject != "job claiming" {
		t.Errorf("%+v", res)
	}
	// The model wrote segment 1's heading; cairn knows this is segment 2.
	if !strings.HasPrefix(res.Summary, "## Segment 2 (2026-03-05 09:31–09:36 UTC)\n\n**Request**") {
		t.Errorf("summary:\n%s", res.Summary)
	}

	data, _ := os.ReadFile(filepath.Join(dir, "args"))
	args := strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
	want := []string{"-p", "--model", "claude-haiku-4-5", "--output-format", "json", "--tools", "",
		"--strict-mcp-config", "--no-session-persistence", "--system-prompt", SystemPrompt}
	if strings.Join(args, "\n") != strings.Join(want, "\n") {
		t.Errorf("args\n%q\nwant\n%q", args, want)
	}
	stdin, _ := os.ReadFile(filepath.Join(dir, "stdin"))
	if !bytes.Contains(stdin, []byte("<summary>\n## Segment 1 (2026-03-05 09:00–09:20 UTC)")) || !bytes.Contains(stdin, []byte("USER: For sync, should we shell out")) ||
		!bytes.Contains(stdin, []byte("**Open** what is still open at the end of this segment")) {
		t.Errorf("prompt on stdin:\n%s", stdin)
	}
	if day, _ := budget.Today(); day.Providers["claude-cli"].Total() != 3275 {
		t.Errorf("recorded %+v", day)
	}
	if fi, err := os.Stat(configDir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("config dir %v %v", fi, err)
	}
}

func TestClaudeCLIFailures(t *testing.T) {
	for _, tc := range []struct {
		mode, wantErr string
		invalid       bool
	}{
		{mode: "overloaded", wantErr: "gave up after 3 tries"},
		{mode: "garbage", wantErr: "printed no JSON result: Welcome to Claude Code!", invalid: true},
		{mode: "sleep", wantErr: "timed out after 300ms"},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			dir, configDir := standIn(t, tc.mode)
			c := &ClaudeCLI{ConfigDir: configDir, Retry: Retry{Attempts: 1}, Timeout: 300 * time.Millisecond}
			if tc.mode == "overloaded" {
				c.Retry = fastRetry
			}
			start := time.Now()
			_, err := c.Summarize(context.Background(), loadRequest(t, "../testdata/segments/bugfix.json"))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if errors.Is(err, summarize.ErrInvalidOutput) != tc.invalid {
				t.Errorf("ErrInvalidOutput: %v", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %s", d)
			}
			if tc.mode == "sleep" {
				// The whole process group went: no sleep outlives claude.
				b, err := os.ReadFile(filepath.Join(dir, "child"))
				if err != nil {
					t.Fatal(err)
				}
				pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
				if !gone(pid, 2*time.Second) {
					t.Errorf("child %d still runs", pid)
				}
			}
		})
	}
}

// gone waits for pid to exit (or become a zombie nobody reaps).
func gone(pid int, wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil {
			return true
		}
		if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
				return true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func TestClaudeCLINeedsConfigDir(t *testing.T) {
	_, err := (&ClaudeCLI{}).Summarize(context.Background(), loadRequest(t, "../testdata/segments/bugfix.json"))
	if err == nil || !strings.Contains(err.Error(), "no configuration directory") {
		t.Errorf("error %v", err)
	}
}
