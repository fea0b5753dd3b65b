package embed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/config"
)

// New makes the configured embedder; a remote one gives a single text (a
// query) a shorter deadline than a batch.
func New(c config.Embedder) (indexer.Embedder, error) {
	switch strings.ToLower(strings.TrimSpace(c.Provider)) {
	case "", "builtin":
		return indexer.NewHashEmbedder()
	case "openai-compatible", "openai", "ollama":
		if c.BaseURL == "" || c.Model == "" || c.Dimensions <= 0 {
			return nil, errors.New("cairn.yaml: search.embedder: openai-compatible needs base_url, model and dimensions")
		}
		e := &indexer.OpenAIEmbedder{
			BaseURL:    c.BaseURL,
			Model:      c.Model,
			Dimensions: c.Dimensions,
			Timeout:    time.Duration(c.Timeout),
		}
		if c.APIKeyEnv != "" {
			e.APIKey = os.Getenv(c.APIKeyEnv)
		}
		return &queryEmbedder{Embedder: e, timeout: queryEmbedTimeout}, nil
	}
	return nil, fmt.Errorf("cairn.yaml: search.embedder.provider %q: want builtin or openai-compatible", c.Provider)
}

// queryEmbedTimeout bounds the embedding of a search query, which an
// agent's hook may be waiting for; indexing gets the configured timeout.
const queryEmbedTimeout = 3 * time.Second

// queryEmbedder gives single texts (queries) a shorter deadline than
// batches (indexing).
type queryEmbedder struct {
	indexer.Embedder
	timeout time.Duration
}

func (e *queryEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 1 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.timeout)
		defer cancel()
	}
	v, err := e.Embedder.Embed(ctx, texts)
	if err != nil {
		return nil, &embedError{err}
	}
	return v, nil
}

// embedError marks the errors of an embedding service, down or answering
// badly (vectors of the wrong size), from those of the index itself.
type embedError struct{ err error }

func (e *embedError) Error() string { return e.err.Error() }
func (e *embedError) Unwrap() error { return e.err }

// Failed reports whether err comes from the embedding service: the
// index is then fine, only not up to date.
func Failed(err error) bool {
	var ee *embedError
	return errors.Is(err, indexer.ErrEmbedderUnavailable) || errors.As(err, &ee)
}
