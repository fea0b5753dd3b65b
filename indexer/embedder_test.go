package indexer

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// newEmbeddingServer is an OpenAI-compatible /v1/embeddings endpoint on
// loopback that embeds with the built-in embedder. (The embed package
// tests the client against a stricter one.)
func newEmbeddingServer(t *testing.T) *httptest.Server {
	t.Helper()
	h, err := NewHashEmbedder()
	if err != nil {
		t.Fatal(err)
	}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		vecs, _ := h.Embed(r.Context(), req.Input)
		type datum struct {
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		}
		var data []datum
		for i, v := range vecs {
			data = append(data, datum{v, i})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	t.Cleanup(s.Close)
	return s
}

// TestOpenAIIndex indexes through a real embedding server, then searches
// with the server down: hybrid falls back to keywords and says so, vector
// mode fails, and the index is unharmed.
func TestOpenAIIndex(t *testing.T) {
	ctx := context.Background()
	srv := newEmbeddingServer(t)
	e := &OpenAIEmbedder{BaseURL: srv.URL, Model: "m", Dimensions: 384, APIKey: "sk-test", Timeout: time.Second}
	ix, _ := openTest(t, Options{Embedder: e})
	put(t, ix, corpus()...)
	if hits := search(t, ix, Query{Text: "migrations", Mode: Vector}); len(hits) == 0 || hits[0].Path != "core/facts/goose.md" {
		t.Fatalf("vector search through the server: %v", paths(hits))
	}
	srv.Close()
	res, err := ix.Search(ctx, Query{Text: "migrations"})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(res.VectorErr, ErrEmbedderUnavailable) || len(res.Hits) == 0 || res.Hits[0].VectorRank != 0 {
		t.Errorf("hybrid with server down: VectorErr %v, %d hits", res.VectorErr, len(res.Hits))
	}
	if _, err := ix.Search(ctx, Query{Text: "migrations", Mode: Vector}); !errors.Is(err, ErrEmbedderUnavailable) {
		t.Errorf("vector mode with server down: %v", err)
	}
	if err := ix.Put(ctx, Document{Path: "new.md", Body: "text"}); !errors.Is(err, ErrEmbedderUnavailable) {
		t.Errorf("put with server down: %v", err)
	}
	if ix.Count() != 5 {
		t.Errorf("count %d after failed put, want 5", ix.Count())
	}
}
