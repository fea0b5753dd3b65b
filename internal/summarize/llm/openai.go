package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/summarize"
)

// OpenAI summarises with an OpenAI-compatible chat completions endpoint
// (POST {BaseURL}/v1/chat/completions): Ollama, llama.cpp's server, LM
// Studio, vLLM, OpenAI itself.
type OpenAI struct {
	// BaseURL is the server, e.g. http://localhost:11434 for Ollama;
	// "/v1" is added unless it ends with it.
	BaseURL   string
	APIKey    string        // sent as a bearer token when set
	Model     string        // required
	MaxTokens int           // of the answer; 0 leaves it to the server
	Timeout   time.Duration // of one try; 0 means 120s (local models are slow)
	Retry     Retry
	Budget    *Budget
	Client    *http.Client // nil means a client without an overall timeout
}

// Summarize implements Summarizer.
func (o *OpenAI) Summarize(ctx context.Context, req summarize.Request) (summarize.Result, error) {
	return llmCall{
		name:    "openai",
		budget:  o.Budget,
		retry:   o.Retry,
		timeout: orDefault(o.Timeout, 120*time.Second),
		reserve: int64(max(o.MaxTokens, 1024)),
		ask:     o.ask,
	}.summarize(ctx, req)
}

type chatRequest struct {
	Model     string        `json:"model"`
	Messages  []chatMessage `json:"messages"`
	MaxTokens int           `json:"max_tokens,omitempty"`
	Stream    bool          `json:"stream"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatResponse struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
	// OpenAI: {"error": {"message", "type", "code"}}; Ollama: {"error": "…"}.
	Error json.RawMessage `json:"error"`
}

func (r *chatResponse) apiError(status int) error {
	if len(r.Error) == 0 || string(r.Error) == "null" {
		return nil
	}
	var e struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	if json.Unmarshal(r.Error, &e) != nil {
		_ = json.Unmarshal(r.Error, &e.Message)
	}
	return &httpError{Status: status, Type: e.Type, Message: e.Message}
}

func (o *OpenAI) endpoint() string {
	base := strings.TrimRight(o.BaseURL, "/")
	if !strings.HasSuffix(base, "/v1") {
		base += "/v1"
	}
	return base + "/chat/completions"
}

func (o *OpenAI) ask(ctx context.Context, system, prompt string) (string, summarize.Usage, error) {
	if o.Model == "" {
		return "", summarize.Usage{}, fmt.Errorf("no model configured")
	}
	if o.BaseURL == "" {
		return "", summarize.Usage{}, fmt.Errorf("no base URL configured")
	}
	body, err := json.Marshal(chatRequest{
		Model:     o.Model,
		Messages:  []chatMessage{{Role: "system", Content: system}, {Role: "user", Content: prompt}},
		MaxTokens: o.MaxTokens,
	})
	if err != nil {
		return "", summarize.Usage{}, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, o.endpoint(), bytes.NewReader(body))
	if err != nil {
		return "", summarize.Usage{}, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	if o.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+o.APIKey)
	}
	var r chatResponse
	if err := post(o.Client, hreq, &r, r.apiError); err != nil {
		return "", summarize.Usage{}, err
	}
	if len(r.Choices) == 0 {
		return "", summarize.Usage{}, fmt.Errorf("%w: no choices in the answer", summarize.ErrInvalidOutput)
	}
	answer := r.Choices[0].Message.Content
	var u summarize.Usage
	if r.Usage != nil {
		u = summarize.Usage{InputTokens: r.Usage.PromptTokens, OutputTokens: r.Usage.CompletionTokens}
	} else {
		// Some local servers do not count: estimate, so the budget still holds.
		u = summarize.Usage{InputTokens: int64(len(system)+len(prompt)) / 4, OutputTokens: int64(len(answer)) / 4}
	}
	if r.Choices[0].FinishReason == "length" {
		return answer, u, fmt.Errorf("%w: the answer was cut at the length limit", summarize.ErrInvalidOutput)
	}
	return answer, u, nil
}
