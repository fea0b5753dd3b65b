package keep

import (
	"context"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
)

// GCResult is what cairn gc did: the retention pass, then the repack.
type GCResult struct {
	Retain *RetainResult
	Repack *memory.GCResult
}

// GC applies the retention (Retain), then repacks the memory's
// repository under the write lock (memory.Git.Repack): unreachable
// objects go only once older than grace (0: two weeks).
func GC(ctx context.Context, m *memory.Memory, grace time.Duration) (*GCResult, error) {
	r, err := Retain(ctx, m)
	if err != nil {
		return nil, err
	}
	p, err := m.Git().Repack(ctx, grace)
	if err != nil {
		return &GCResult{Retain: r}, err
	}
	return &GCResult{Retain: r, Repack: p}, nil
}
