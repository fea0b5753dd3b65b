package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// embeddingServer is an OpenAI-compatible /v1/embeddings endpoint on
// loopback. It embeds with the built-in embedder cut to dim dimensions,
// answers in shuffled order (as the API allows), and counts requests.
type embeddingServer struct {
	*httptest.Server
	dim      int
	mu       sync.Mutex
	requests int
	inputs   int
	fail     func(w http.ResponseWriter) bool // if set and true, the request was answered
}

func newEmbeddingServer(t *testing.T, dim int) *embeddingServer {
	t.Helper()
	h, err := NewHash()
	if err != nil {
		t.Fatal(err)
	}
	s := &embeddingServer{dim: dim}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/embeddings" {
			http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer sk-test" {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`)
			return
		}
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model == "" {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.requests++
		s.inputs += len(req.Input)
		fail := s.fail
		s.mu.Unlock()
		if fail != nil && fail(w) {
			return
		}
		vecs, _ := h.Embed(r.Context(), req.Input)
		type datum struct {
			Object    string    `json:"object"`
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		}
		var data []datum
		for i := len(vecs) - 1; i >= 0; i-- { // reversed: clients must use index
			data = append(data, datum{"embedding", vecs[i][:s.dim], i})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"object": "list", "data": data, "model": req.Model,
			"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1},
		})
	}))
	t.Cleanup(s.Close)
	return s
}

func TestOpenAIEmbedder(t *testing.T) {
	ctx := context.Background()
	srv := newEmbeddingServer(t, 64)
	e := &OpenAI{BaseURL: srv.URL + "/v1/", Model: "nomic-embed-text", Dimensions: 64, APIKey: "sk-test", BatchSize: 3}
	texts := []string{"alpha", "beta", "", "gamma", "delta", "epsilon", "zeta"}
	vecs, err := e.Embed(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if srv.requests != 3 || srv.inputs != 7 {
		t.Errorf("%d requests with %d inputs, want 3 with 7", srv.requests, srv.inputs)
	}
	h, _ := NewHash()
	for i, text := range texts {
		want, _ := h.Embed(ctx, []string{text})
		if len(vecs[i]) != 64 || (text != "" && vecs[i][0] != want[0][0]) {
			t.Errorf("vector %d out of order or wrong length", i)
		}
	}
	if e.Name() != "openai:nomic-embed-text" || e.Dim() != 64 {
		t.Errorf("name %q dim %d", e.Name(), e.Dim())
	}
}

func TestOpenAIEmbedderErrors(t *testing.T) {
	ctx := context.Background()
	srv := newEmbeddingServer(t, 64)
	down := httptest.NewServer(http.NotFoundHandler())
	downURL := down.URL
	down.Close()

	tests := []struct {
		name        string
		e           OpenAI
		fail        func(w http.ResponseWriter) bool
		unavailable bool
		contains    string
	}{
		{"server down", OpenAI{BaseURL: downURL, Model: "m", Dimensions: 64}, nil, true, "connection refused"},
		{"bad key", OpenAI{BaseURL: srv.URL, Model: "m", Dimensions: 64, APIKey: "nope"}, nil, false, "Incorrect API key provided"},
		{"wrong size", OpenAI{BaseURL: srv.URL, Model: "m", Dimensions: 384, APIKey: "sk-test"}, nil, false, "returned 64-dimensional vectors, configured 384"},
		{"timeout", OpenAI{BaseURL: srv.URL, Model: "m", Dimensions: 64, APIKey: "sk-test", Timeout: 50 * time.Millisecond},
			func(w http.ResponseWriter) bool { time.Sleep(300 * time.Millisecond); return false }, true, "deadline exceeded"},
		{"overloaded", OpenAI{BaseURL: srv.URL, Model: "m", Dimensions: 64, APIKey: "sk-test"},
			func(w http.ResponseWriter) bool {
				w.WriteHeader(http.StatusServiceUnavailable)
				fmt.Fprint(w, `{"error":"model is loading"}`)
				return true
			}, true, "model is loading"},
		{"garbage", OpenAI{BaseURL: srv.URL, Model: "m", Dimensions: 64, APIKey: "sk-test"},
			func(w http.ResponseWriter) bool { fmt.Fprint(w, "<html>proxy error</html>"); return true }, false, "malformed response"},
		{"too few", OpenAI{BaseURL: srv.URL, Model: "m", Dimensions: 64, APIKey: "sk-test"},
			func(w http.ResponseWriter) bool { fmt.Fprint(w, `{"data":[{"embedding":[1],"index":0}]}`); return true }, false, "1 embeddings for 2 inputs"},
		{"no model", OpenAI{BaseURL: srv.URL, Dimensions: 64}, nil, false, "model and dimensions must be set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.mu.Lock()
			srv.fail = tt.fail
			srv.mu.Unlock()
			_, err := tt.e.Embed(ctx, []string{"one", "two"})
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrUnavailable) != tt.unavailable {
				t.Errorf("unavailable = %v, want %v: %v", !tt.unavailable, tt.unavailable, err)
			}
			if !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q does not say %q", err, tt.contains)
			}
		})
	}
}
