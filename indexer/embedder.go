package indexer

import (
	"context"

	"github.com/cairn-mem/cairn/indexer/embed"
)

// An Embedder turns texts into vectors whose cosine similarity says how
// alike the texts mean. Embed returns one vector of Dim() numbers per
// text, in order. Name identifies the vector space: an index built with
// one embedder cannot be searched with another of a different Name or Dim.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dim() int
	Name() string
}

// The embedders live in package embed; these names keep the index's
// callers to one import.
type (
	// HashEmbedder is the built-in embedder (see embed.Hash).
	HashEmbedder = embed.Hash
	// OpenAIEmbedder embeds with a service speaking the OpenAI
	// embeddings API (see embed.OpenAI).
	OpenAIEmbedder = embed.OpenAI
)

// HashDim is the number of dimensions of the built-in embedder.
const HashDim = embed.HashDim

// ErrEmbedderUnavailable is wrapped by the errors of an embedder that
// could not be reached or did not answer in time, so that a caller can
// fall back to keyword search.
var ErrEmbedderUnavailable = embed.ErrUnavailable

// NewHashEmbedder returns the built-in embedder.
func NewHashEmbedder() (*HashEmbedder, error) { return embed.NewHash() }
