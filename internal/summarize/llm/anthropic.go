package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// Anthropic summarises with the Anthropic Messages API
// (POST {BaseURL}/v1/messages).
type Anthropic struct {
	BaseURL   string        // "" means https://api.anthropic.com
	APIKey    string        // sent as x-api-key
	Model     string        // "" means DefaultModel
	MaxTokens int           // of the answer; 0 means 2048
	Timeout   time.Duration // of one try; 0 means 60s
	Retry     Retry
	Budget    *Budget
	Client    *http.Client // nil means a client without an overall timeout (each try has Timeout)
}

// AnthropicVersion is the API version cairn speaks.
const AnthropicVersion = "2023-06-01"

// maxResponse bounds what is read of an HTTP answer.
const maxResponse = 8 << 20

// Summarize implements Summarizer.
func (a *Anthropic) Summarize(ctx context.Context, req summarize.Request) (summarize.Result, error) {
	return llmCall{
		name:    "anthropic",
		budget:  a.Budget,
		retry:   a.Retry,
		timeout: orDefault(a.Timeout, 60*time.Second),
		reserve: int64(a.maxTokens()),
		ask:     a.ask,
	}.summarize(ctx, req)
}

func (a *Anthropic) maxTokens() int {
	if a.MaxTokens > 0 {
		return a.MaxTokens
	}
	return 2048
}

type anthropicRequest struct {
	Model     string             `json:"model"`
	MaxTokens int                `json:"max_tokens"`
	System    string             `json:"system"`
	Messages  []anthropicMessage `json:"messages"`
}

type anthropicMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type anthropicResponse struct {
	Type    string `json:"type"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	} `json:"usage"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

func (a *Anthropic) ask(ctx context.Context, system, prompt string) (string, summarize.Usage, error) {
	model := a.Model
	if model == "" {
		model = DefaultModel
	}
	body, err := json.Marshal(anthropicRequest{
		Model:     model,
		MaxTokens: a.maxTokens(),
		System:    system,
		Messages:  []anthropicMessage{{Role: "user", Content: prompt}},
	})
	if err != nil {
		return "", summarize.Usage{}, err
	}
	base := strings.TrimRight(a.BaseURL, "/")
	if base == "" {
		base = "https://api.anthropic.com"
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/messages", bytes.NewReader(body))
	if err != nil {
		return "", summarize.Usage{}, err
	}
	hreq.Header.Set("x-api-key", a.APIKey)
	hreq.Header.Set("anthropic-version", AnthropicVersion)
	hreq.Header.Set("content-type", "application/json")
	var r anthropicResponse
	if err := post(a.Client, hreq, &r, func(status int) error {
		if r.Error != nil {
			return &httpError{Status: status, Type: r.Error.Type, Message: r.Error.Message}
		}
		return nil
	}); err != nil {
		return "", summarize.Usage{}, err
	}
	u := summarize.Usage{
		InputTokens:  r.Usage.InputTokens + r.Usage.CacheCreationInputTokens + r.Usage.CacheReadInputTokens,
		OutputTokens: r.Usage.OutputTokens,
	}
	var text strings.Builder
	for _, c := range r.Content {
		if c.Type == "text" {
			text.WriteString(c.Text)
		}
	}
	if r.StopReason == "max_tokens" {
		return text.String(), u, fmt.Errorf("%w: the answer was cut at max_tokens (%d)", summarize.ErrInvalidOutput, a.maxTokens())
	}
	return text.String(), u, nil
}

// post sends hreq and decodes a JSON answer into v. For a status other
// than 200, apiErr turns the decoded body into the API's error (or nil,
// when the body did not say).
func post(c *http.Client, hreq *http.Request, v any, apiErr func(status int) error) error {
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(hreq)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return fmt.Errorf("read the answer of %s: %w", hreq.URL.Redacted(), err)
	}
	if resp.StatusCode != http.StatusOK {
		he := &httpError{Status: resp.StatusCode, Message: prose.Clip(string(data), 300)}
		var ae *httpError
		if json.Unmarshal(data, v) == nil && errors.As(apiErr(resp.StatusCode), &ae) {
			he.Type, he.Message = ae.Type, ae.Message
		}
		he.RetryAfter = retryAfter(resp.Header)
		return he
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%w: the answer of %s is not JSON: %w", summarize.ErrInvalidOutput, hreq.URL.Redacted(), err)
	}
	return apiErr(resp.StatusCode)
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
