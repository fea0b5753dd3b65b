package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// ClaudeCLI summarises with the claude command (Claude Code) in print
// mode: no tools, no MCP servers, no saved session, its own system prompt,
// and its own configuration directory, so that the summarizer's sessions
// never show up in the user's resume list and the user's hooks, settings
// and CLAUDE.md files do not run or load for it. It runs in ConfigDir,
// not in the project. Its environment carries CAIRN_SUMMARIZER=1, for
// cairn's own hooks to ignore whatever it does.
//
// The configuration directory has its own login: run
// "CLAUDE_CONFIG_DIR=<ConfigDir> claude" once and log in, or set
// ANTHROPIC_API_KEY in cairn's environment.
type ClaudeCLI struct {
	Path      string        // the claude executable; "" means "claude" on PATH
	Model     string        // "" means DefaultModel
	ConfigDir string        // required: CLAUDE_CONFIG_DIR for the summarizer, e.g. .cairn/.state/summarize/claude
	Timeout   time.Duration // of one try; 0 means 180s
	Retry     Retry
	Budget    *Budget
	ExtraArgs []string // added after cairn's own arguments
	Env       []string // added to the environment, KEY=VALUE
}

// SummarizerEnv is set to "1" in the environment of a summarizer's
// claude process: cairn's hooks see it and do nothing.
const SummarizerEnv = "CAIRN_SUMMARIZER"

// Summarize implements Summarizer.
func (c *ClaudeCLI) Summarize(ctx context.Context, req summarize.Request) (summarize.Result, error) {
	return llmCall{
		name:    "claude-cli",
		budget:  c.Budget,
		retry:   c.Retry,
		timeout: orDefault(c.Timeout, 180*time.Second),
		reserve: 2048,
		ask:     c.ask,
	}.summarize(ctx, req)
}

// Args are the arguments claude gets (the prompt goes to its stdin).
func (c *ClaudeCLI) Args(system string) []string {
	model := c.Model
	if model == "" {
		model = DefaultModel
	}
	args := []string{
		"-p",
		"--model", model,
		"--output-format", "json",
		"--tools", "", // no built-in tools at all
		"--strict-mcp-config", // and no MCP servers from any configuration
		"--no-session-persistence",
		"--system-prompt", system,
	}
	return append(args, c.ExtraArgs...)
}

// environ is cairn's environment for claude: its own configuration
// directory, the summarizer marker, no nested-session marker of a Claude
// Code that runs cairn, and no non-essential traffic.
func (c *ClaudeCLI) environ() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "CLAUDECODE", "CLAUDE_CONFIG_DIR", "CLAUDE_CODE_ENTRYPOINT", SummarizerEnv:
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"CLAUDE_CONFIG_DIR="+c.ConfigDir,
		SummarizerEnv+"=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	)
	return append(env, c.Env...)
}

// claudeResult is claude's --output-format json answer.
type claudeResult struct {
	Type      string  `json:"type"`
	Subtype   string  `json:"subtype"`
	IsError   bool    `json:"is_error"`
	Result    string  `json:"result"`
	SessionID string  `json:"session_id"`
	CostUSD   float64 `json:"total_cost_usd"`
	Usage     struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

// transientCLI recognises failures of claude that a later try may not
// have.
var transientCLI = lazyre.New(`(?i)overloaded|rate.?limit|\b(429|500|502|503|504|529)\b|timed? ?out|ECONNRESET|ETIMEDOUT|socket hang up|network`)

func (c *ClaudeCLI) ask(ctx context.Context, system, prompt string) (string, summarize.Usage, error) {
	if c.ConfigDir == "" {
		return "", summarize.Usage{}, errors.New("no configuration directory: the summarizer must not share the user's")
	}
	if err := os.MkdirAll(c.ConfigDir, 0o700); err != nil {
		return "", summarize.Usage{}, err
	}
	path := c.Path
	if path == "" {
		path = "claude"
	}
	cmd := exec.CommandContext(ctx, path, c.Args(system)...)
	cmd.Dir = c.ConfigDir
	cmd.Env = c.environ()
	cmd.Stdin = strings.NewReader(prompt)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limited{w: &stdout, n: maxResponse}
	cmd.Stderr = &limited{w: &stderr, n: 64 << 10}
	killGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return "", summarize.Usage{}, fmt.Errorf("%s: %w", path, ctx.Err())
	}

	var r claudeResult
	parsed := false
	// The JSON result is the last line that is an object; anything before
	// it (warnings) is not.
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	for i := len(lines) - 1; i >= 0 && !parsed; i-- {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "{") && json.Unmarshal([]byte(l), &r) == nil && r.Type == "result" {
			parsed = true
		}
	}
	if !parsed {
		if err := json.Unmarshal(stdout.Bytes(), &r); err == nil && r.Type == "result" {
			parsed = true
		}
	}
	u := summarize.Usage{
		InputTokens:  r.Usage.InputTokens + r.Usage.CacheCreationInputTokens + r.Usage.CacheReadInputTokens,
		OutputTokens: r.Usage.OutputTokens,
	}
	if runErr != nil || !parsed || r.IsError {
		msg := strings.TrimSpace(r.Result)
		if msg == "" {
			msg = strings.TrimSpace(stderr.String())
		}
		if msg == "" {
			msg = strings.TrimSpace(stdout.String())
		}
		err := fmt.Errorf("%s: %s", path, prose.Clip(msg, 300))
		switch {
		case runErr != nil:
			err = fmt.Errorf("%s: %w: %s", path, runErr, prose.Clip(msg, 300))
		case !parsed:
			err = fmt.Errorf("%w: %s printed no JSON result: %s", summarize.ErrInvalidOutput, path, prose.Clip(msg, 300))
		case r.Subtype != "" && r.Subtype != "success":
			err = fmt.Errorf("%s: %s: %s", path, r.Subtype, prose.Clip(msg, 300))
		}
		if transientCLI.MatchString(msg) {
			err = transientError{err}
		}
		return "", u, err
	}
	return r.Result, u, nil
}

// limited writes at most n bytes to w and drops the rest, so that a
// runaway process cannot fill memory.
type limited struct {
	w interface{ Write([]byte) (int, error) }
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if l.n <= 0 {
		return len(p), nil
	}
	q := p
	if len(q) > l.n {
		q = q[:l.n]
	}
	l.n -= len(q)
	if _, err := l.w.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}
