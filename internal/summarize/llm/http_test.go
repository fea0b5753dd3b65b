package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/summarize"
)

// answer is a model's answer as the prompts ask for it.
func answer(head string) string {
	return head + `

**Request**
- Fix the flaky TestClaimConcurrent.

**Outcome**
- Claims now rename the job file into processing/; the test passes 20 runs under -race.

**Root causes**
- Claim copied the job file and then deleted it, so two workers could both copy it.

**Decisions**
- Jobs are claimed by rename(2) — rename is atomic, so only one worker wins.

**Errors & fixes**
- ` + "`go test -race ./queue/`" + ` exit 1 (job claimed twice) → fixed in queue/claim.go.

` + "```json" + `
{"items": [
  {"kind": "decision", "subject": "job claiming", "title": "Jobs are claimed by rename(2)", "body": "Claim renames the job file into processing/ because rename is atomic: only one worker wins.", "importance": 0.9, "tags": ["queue", "concurrency"]},
  {"kind": "fact", "subject": "job directory", "title": "The job directory must be on one file system", "body": "rename(2) across file systems fails with EXDEV.", "importance": 0.6, "tags": ["queue", "environment"]}
]}
` + "```\n"
}

const bugfixHead = "## Segment 1 (2026-03-04 10:12–10:15 UTC)"

// fastRetry keeps tests quick.
var fastRetry = Retry{Attempts: 3, Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}

// anthropicServer answers the Messages API after checking the request's
// shape. respond decides each answer by the call's number (from 1).
func anthropicServer(t *testing.T, respond func(n int, w http.ResponseWriter, r *http.Request)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(calls.Add(1))
		if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
			t.Errorf("%s %s, want POST /v1/messages", r.Method, r.URL.Path)
		}
		for h, want := range map[string]string{"x-api-key": "test-key", "anthropic-version": "2023-06-01", "content-type": "application/json"} {
			if got := r.Header.Get(h); got != want {
				t.Errorf("header %s = %q, want %q", h, got, want)
			}
		}
		var body map[string]any
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Errorf("request body: %v", err)
		}
		if body["model"] != "claude-haiku-4-5" || body["max_tokens"] != float64(2048) || body["system"] != SystemPrompt {
			t.Errorf("model %v, max_tokens %v, system prompt %t", body["model"], body["max_tokens"], body["system"] == SystemPrompt)
		}
		msgs, _ := body["messages"].([]any)
		if len(msgs) != 1 {
			t.Fatalf("messages: %v", body["messages"])
		}
		m := msgs[0].(map[string]any)
		content, _ := m["content"].(string)
		if m["role"] != "user" || !strings.Contains(content, "<transcript>") || !strings.Contains(content, bugfixHead) ||
			!strings.Contains(content, "**Root causes**") || !strings.Contains(content, `"subject": "job queue"`) {
			t.Errorf("message role %v, content:\n%s", m["role"], content)
		}
		if len(body) != 4 {
			t.Errorf("unexpected fields in %v", body)
		}
		respond(n, w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func anthropicOK(w http.ResponseWriter, text string) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "msg_01XFDUDYJgAACzvnptvVoYEL", "type": "message", "role": "assistant", "model": "claude-haiku-4-5-20251001",
		"content":     []map[string]any{{"type": "text", "text": text}},
		"stop_reason": "end_turn", "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 2095, "output_tokens": 503, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	})
}

func anthropicError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"type":"error","error":{"type":%q,"message":%q},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`, typ, msg)
}

func TestAnthropic(t *testing.T) {
	srv, calls := anthropicServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		anthropicOK(w, answer(bugfixHead))
	})
	budget := &Budget{Path: filepath.Join(t.TempDir(), "state", "usage.json"), DailyTokens: 100_000}
	a := &Anthropic{BaseURL: srv.URL, APIKey: "test-key", Retry: fastRetry, Budget: budget}
	res, err := a.Summarize(context.Background(), loadRequest(t, "../testdata/segments/bugfix.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(res.Summary, bugfixHead+"\n\n**Request**") || strings.Contains(res.Summary, "```") || !strings.Contains(res.Summary, "\n**Root causes**\n- Claim copied") {
		t.Errorf("summary:\n%s", res.Summary)
	}
	if len(res.Items) != 2 || res.Items[0].Kind != summarize.Decision || res.Items[0].Importance != 0.9 || res.Items[1].Tags[0] != "queue" ||
		res.Items[0].Subject != "job claiming" || res.Items[1].Subject != "job directory" {
		t.Errorf("items %+v", res.Items)
	}
	if res.Usage != (summarize.Usage{InputTokens: 2095, OutputTokens: 503}) || res.Provider != "anthropic" || calls.Load() != 1 {
		t.Errorf("usage %+v provider %s calls %d", res.Usage, res.Provider, calls.Load())
	}
	day, err := budget.Today()
	if err != nil || day.Total() != 2598 || day.Calls != 1 || day.Providers["anthropic"].OutputTokens != 503 {
		t.Errorf("recorded %+v %v", day, err)
	}
	fi, err := os.Stat(budget.Path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("usage file: %v %v", fi, err)
	}
}

func TestAnthropicFailures(t *testing.T) {
	for _, tc := range []struct {
		name      string
		respond   func(n int, w http.ResponseWriter, r *http.Request)
		timeout   time.Duration
		wantCalls int32
		wantErr   string // in the error; "" means success
		invalid   bool   // the error wraps ErrInvalidOutput
	}{
		{
			name: "500 then ok",
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					anthropicError(w, 500, "api_error", "Internal server error")
					return
				}
				anthropicOK(w, answer(bugfixHead))
			},
			wantCalls: 2,
		},
		{
			name: "429 with retry-after then ok",
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				if n == 1 {
					w.Header().Set("retry-after", "0")
					anthropicError(w, 429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit")
					return
				}
				anthropicOK(w, answer(bugfixHead))
			},
			wantCalls: 2,
		},
		{
			name: "overloaded every time",
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				anthropicError(w, 529, "overloaded_error", "Overloaded")
			},
			wantCalls: 3,
			wantErr:   "gave up after 3 tries: HTTP 529 overloaded_error: Overloaded",
		},
		{
			name: "bad request is not retried",
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				anthropicError(w, 400, "invalid_request_error", "max_tokens: 2048 > 1024, which is the maximum allowed")
			},
			wantCalls: 1,
			wantErr:   "HTTP 400 invalid_request_error: max_tokens",
		},
		{
			name: "timeouts",
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-time.After(5 * time.Second):
				}
			},
			timeout:   50 * time.Millisecond,
			wantCalls: 3,
			wantErr:   "timed out after 50ms",
		},
		{
			name: "not JSON",
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				w.Write([]byte("<html>gateway</html>"))
			},
			wantCalls: 1,
			wantErr:   "is not JSON",
			invalid:   true,
		},
		{
			name: "answer without items",
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				anthropicOK(w, "## Segment 1\n\nThe agent fixed a test.")
			},
			wantCalls: 1,
			wantErr:   "no JSON block of items",
			invalid:   true,
		},
		{
			name: "answer cut at max_tokens",
			respond: func(n int, w http.ResponseWriter, r *http.Request) {
				json.NewEncoder(w).Encode(map[string]any{
					"type": "message", "content": []map[string]any{{"type": "text", "text": answer(bugfixHead)[:300]}},
					"stop_reason": "max_tokens", "usage": map[string]any{"input_tokens": 2000, "output_tokens": 2048},
				})
			},
			wantCalls: 1,
			wantErr:   "cut at max_tokens",
			invalid:   true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, calls := anthropicServer(t, tc.respond)
			a := &Anthropic{BaseURL: srv.URL, APIKey: "test-key", Retry: fastRetry, Timeout: tc.timeout}
			start := time.Now()
			res, err := a.Summarize(context.Background(), loadRequest(t, "../testdata/segments/bugfix.json"))
			if tc.wantErr == "" {
				if err != nil || !strings.HasPrefix(res.Summary, bugfixHead) {
					t.Fatalf("%v\n%s", err, res.Summary)
				}
			} else if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if tc.invalid != errors.Is(err, summarize.ErrInvalidOutput) {
				t.Errorf("errors.Is(%v, ErrInvalidOutput) = %t", err, !tc.invalid)
			}
			if got := calls.Load(); got != tc.wantCalls {
				t.Errorf("%d calls, want %d", got, tc.wantCalls)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}

func TestOpenAI(t *testing.T) {
	var calls atomic.Int32
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		auth.Store(r.Header.Get("Authorization"))
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s %s", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
		}
		var body struct {
			Model     string `json:"model"`
			Stream    *bool  `json:"stream"`
			MaxTokens int    `json:"max_tokens"`
			Messages  []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		data, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(data, &body); err != nil {
			t.Errorf("body: %v", err)
		}
		if body.Model == "missing" {
			w.WriteHeader(404)
			w.Write([]byte(`{"error":"model \"missing\" not found, try pulling it first"}`))
			return
		}
		if body.Model != "qwen2.5-coder:7b" || body.Stream == nil || *body.Stream || len(body.Messages) != 2 ||
			body.Messages[0].Role != "system" || body.Messages[0].Content != SystemPrompt ||
			body.Messages[1].Role != "user" || !strings.Contains(body.Messages[1].Content, "<transcript>") {
			t.Errorf("request: %s", data)
		}
		if body.MaxTokens != 0 && body.MaxTokens != 900 {
			t.Errorf("max_tokens %d", body.MaxTokens)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"chatcmpl-581","object":"chat.completion","created":1741082400,"model":"qwen2.5-coder:7b","system_fingerprint":"fp_ollama",
"choices":[{"index":0,"message":{"role":"assistant","content":%q},"finish_reason":"stop"}],
"usage":{"prompt_tokens":1873,"completion_tokens":388,"total_tokens":2261}}`, answer(bugfixHead))
	}))
	defer srv.Close()
	req := loadRequest(t, "../testdata/segments/bugfix.json")

	for _, tc := range []struct {
		base, key, model string
		maxTokens        int
		wantAuth, err    string
	}{
		{base: srv.URL, model: "qwen2.5-coder:7b"},
		{base: srv.URL + "/v1/", key: "sk-local", model: "qwen2.5-coder:7b", maxTokens: 900, wantAuth: "Bearer sk-local"},
		{base: srv.URL, model: "missing", err: `HTTP 404: model "missing" not found`},
	} {
		o := &OpenAI{BaseURL: tc.base, APIKey: tc.key, Model: tc.model, MaxTokens: tc.maxTokens, Retry: fastRetry}
		res, err := o.Summarize(context.Background(), req)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%+v: error %v, want %q", tc, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if res.Usage != (summarize.Usage{InputTokens: 1873, OutputTokens: 388}) || res.Provider != "openai" || len(res.Items) != 2 || res.Items[1].Subject != "job directory" || !strings.HasPrefix(res.Summary, bugfixHead) {
			t.Errorf("%+v", res)
		}
		if got := auth.Load().(string); got != tc.wantAuth {
			t.Errorf("Authorization %q, want %q", got, tc.wantAuth)
		}
	}
}

func TestFallback(t *testing.T) {
	srv, calls := anthropicServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		anthropicError(w, 500, "api_error", "Internal server error")
	})
	f := summarize.NewFallback(&Anthropic{BaseURL: srv.URL, APIKey: "test-key", Retry: fastRetry}, summarize.Extractive{})
	req := loadRequest(t, "../testdata/segments/bugfix.json")
	res, err := f.Summarize(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := summarize.Extractive{}.Summarize(context.Background(), req)
	if res.Provider != "extractive" || res.Summary != want.Summary || !strings.Contains(res.FallbackReason, "HTTP 500") || calls.Load() != 3 {
		t.Errorf("provider %s, reason %q, calls %d", res.Provider, res.FallbackReason, calls.Load())
	}

	// A cancelled context is not a failure to fall back from.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.Summarize(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestBudget(t *testing.T) {
	srv, calls := anthropicServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		anthropicOK(w, answer(bugfixHead)) // 2,598 tokens a call
	})
	req := loadRequest(t, "../testdata/segments/bugfix.json")
	prompt, err := buildPrompt(req, 1, bugfixHead)
	if err != nil {
		t.Fatal(err)
	}
	estimate := int64(len(SystemPrompt)+len(prompt))/4 + 2048
	daily := 2598 + estimate - 1
	now := time.Date(2026, 3, 4, 10, 0, 0, 0, time.Local)
	budget := &Budget{Path: filepath.Join(t.TempDir(), "usage.json"), DailyTokens: daily, Now: func() time.Time { return now }}
	f := summarize.NewFallback(&Anthropic{BaseURL: srv.URL, APIKey: "test-key", Retry: fastRetry, Budget: budget}, summarize.Extractive{})

	// The first call fits; the second would pass the budget with its
	// estimate (prompt + max_tokens); the third is refused outright.
	var providers []string
	for range 3 {
		res, err := f.Summarize(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		providers = append(providers, res.Provider)
		if res.Provider == "extractive" && !strings.Contains(res.FallbackReason, "daily token budget spent") {
			t.Errorf("reason %q", res.FallbackReason)
		}
	}
	if strings.Join(providers, ",") != "anthropic,extractive,extractive" || calls.Load() != 1 {
		t.Errorf("providers %v, %d calls", providers, calls.Load())
	}
	if err := budget.Check(0); err != nil {
		t.Errorf("2,598 of %d spent: %v", daily, err)
	}
	if err := budget.Record("anthropic", summarize.Usage{InputTokens: daily - 2598}); err != nil {
		t.Fatal(err)
	}
	if err := budget.Check(0); !errors.Is(err, summarize.ErrBudgetSpent) {
		t.Errorf("all spent: %v", err)
	}

	// A new day, a new budget.
	now = now.Add(24 * time.Hour)
	res, err := f.Summarize(context.Background(), req)
	if err != nil || res.Provider != "anthropic" || calls.Load() != 2 {
		t.Errorf("next day: %v %s %d", err, res.Provider, calls.Load())
	}
	var file usageFile
	data, _ := os.ReadFile(budget.Path)
	if err := json.Unmarshal(data, &file); err != nil || len(file.Days) != 2 || file.Days["2026-03-04"].Total() != daily {
		t.Errorf("usage file %s (%v)", data, err)
	}
}

func TestBudgetCorruptFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "usage.json")
	os.WriteFile(path, []byte("{not json"), 0o600)
	b := &Budget{Path: path, DailyTokens: 10}
	if err := b.Check(5); err != nil {
		t.Fatalf("check: %v", err)
	}
	if err := b.Record("openai", summarize.Usage{InputTokens: 1, OutputTokens: 2}); err != nil {
		t.Fatal(err)
	}
	aside, _ := filepath.Glob(path + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("corrupt file not kept: %v", aside)
	}
	if data, _ := os.ReadFile(aside[0]); string(data) != "{not json" {
		t.Errorf("kept %q", data)
	}
	if d, _ := b.Today(); d.Total() != 3 {
		t.Errorf("today %+v", d)
	}
}
