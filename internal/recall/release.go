package recall

import (
	"context"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall/handoff"
)

// Bleve lets one process at a time have an index open, and a process that
// serves agents (cairn mcp) keeps it open between calls. A reader that
// finds it held asks the holder to let go (package handoff); a holder
// that is not searching at that moment closes it at once, so readers
// never wait behind an idle reader.

// OnRelease calls letGo whenever another process asks for m's index,
// until ctx is done. A process that holds the index between uses runs it
// while it holds it; letGo closes the index unless a search is using it.
func OnRelease(ctx context.Context, m *memory.Memory, letGo func()) error {
	return handoff.Watch(ctx, m.StatePath(indexDir), letGo)
}
