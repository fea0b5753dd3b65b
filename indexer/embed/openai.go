package embed

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
)

// ErrUnavailable is wrapped by the errors of an embedder that
// could not be reached or did not answer in time, so that a caller can
// fall back to keyword search.
var ErrUnavailable = errors.New("embedding service unavailable")

// OpenAI embeds texts with a service speaking the OpenAI
// embeddings API (POST {BaseURL}/v1/embeddings): OpenAI itself, Ollama,
// llama.cpp's server, LM Studio, vLLM. Set the fields before first use.
type OpenAI struct {
	// BaseURL is the service's address, such as http://127.0.0.1:11434;
	// a trailing "/v1" is allowed.
	BaseURL string
	// Model is the model name sent with each request.
	Model string
	// Dimensions is the length of the model's vectors. A response of
	// another length is an error. Required: the index records it.
	Dimensions int
	// APIKey, if set, is sent as a bearer token.
	APIKey string
	// BatchSize is the most texts sent in one request; 0 means 64.
	BatchSize int
	// Timeout bounds each request; 0 means 30 seconds.
	Timeout time.Duration
	// Client is the HTTP client; nil means a new one.
	Client *http.Client
}

// Name identifies the vector space: the model (the same model served by
// another server makes the same vectors).
func (e *OpenAI) Name() string { return "openai:" + e.Model }

// Dim returns e.Dimensions.
func (e *OpenAI) Dim() int { return e.Dimensions }

type embeddingRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type embeddingResponse struct {
	Data []struct {
		Embedding []float32 `json:"embedding"`
		Index     int       `json:"index"`
	} `json:"data"`
}

// Embed sends texts in batches of BatchSize and returns their vectors in
// order. An unreachable or timed-out service gives an error wrapping
// ErrUnavailable; a bad answer (an HTTP error, a malformed body,
// a vector of the wrong length) says what was wrong.
func (e *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.Model == "" || e.Dimensions <= 0 {
		return nil, fmt.Errorf("embedder %s: model and dimensions must be set", e.endpoint())
	}
	batch := e.BatchSize
	if batch <= 0 {
		batch = 64
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += batch {
		vecs, err := e.embedBatch(ctx, texts[start:min(start+batch, len(texts))])
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (e *OpenAI) endpoint() string {
	base := strings.TrimRight(e.BaseURL, "/")
	base = strings.TrimSuffix(base, "/v1")
	return base + "/v1/embeddings"
}

func (e *OpenAI) embedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	url := e.endpoint()
	timeout := e.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	// Empty inputs are rejected by some servers; send a space instead.
	in := make([]string, len(texts))
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			t = " "
		}
		in[i] = t
	}
	body, err := json.Marshal(embeddingRequest{Model: e.Model, Input: in})
	if err != nil {
		return nil, fmt.Errorf("embed via %s: %w", url, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embed via %s: %w", url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if e.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.APIKey)
	}
	client := e.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(ctx.Err(), context.Canceled) { // the caller gave up
			return nil, fmt.Errorf("embed via %s: %w", url, ctx.Err())
		}
		return nil, fmt.Errorf("embed via %s: %w: %v", url, ErrUnavailable, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, fmt.Errorf("embed via %s: reading response: %w: %v", url, ErrUnavailable, err)
	}
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("embed via %s: %s: %s", url, resp.Status, errorMessage(data))
		if resp.StatusCode == http.StatusServiceUnavailable || resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusGatewayTimeout {
			err = fmt.Errorf("%w (%w)", err, ErrUnavailable)
		}
		return nil, err
	}
	var r embeddingResponse
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("embed via %s: malformed response: %w", url, err)
	}
	if len(r.Data) != len(texts) {
		return nil, fmt.Errorf("embed via %s: %d embeddings for %d inputs", url, len(r.Data), len(texts))
	}
	out := make([][]float32, len(texts))
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= len(texts) || out[d.Index] != nil {
			return nil, fmt.Errorf("embed via %s: bad or repeated index %d in response", url, d.Index)
		}
		if len(d.Embedding) != e.Dimensions {
			return nil, fmt.Errorf("embed via %s: model %s returned %d-dimensional vectors, configured %d", url, e.Model, len(d.Embedding), e.Dimensions)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}

// errorMessage extracts {"error":{"message":...}} or {"error":"..."} from
// an error response, or else its first 200 bytes.
func errorMessage(body []byte) string {
	var r struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &r) == nil && len(r.Error) > 0 {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(r.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(r.Error, &s) == nil && s != "" {
			return s
		}
	}
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	if s == "" {
		s = "empty body"
	}
	return s
}
