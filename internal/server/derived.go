package server

import (
	"context"
	"log/slog"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/recall/derived"
)

// deriver keeps what a session start reads from .state up to date in the
// background, so that the session start, which waits for neither, finds
// it current: the check of what the code changed under (derived.CheckStale,
// up to a second when the project's HEAD moved) and the pack's cache of
// derived answers (a pack made and dropped once the memory's HEAD moved
// and held still for a look: about a second at 5,000 core items when its
// inputs changed, little otherwise).
type deriver struct {
	mem   *memory.Memory
	log   *slog.Logger
	every time.Duration // how often it looks; 0 means 5 s
}

func (d deriver) Serve(ctx context.Context) error {
	every := d.every
	if every <= 0 {
		every = 5 * time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	var seen, packed string // the memory's HEAD at the last look, and when last packed
	var failed string       // the check's last error
	for {
		// A tick first: a daemon just started answers the session start
		// that started it, which packs itself.
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		// A check that fails fails again at the next look: said once.
		if err := derived.CheckStale(ctx, d.mem); err != nil && ctx.Err() == nil && err.Error() != failed {
			d.log.Warn("check what the code changed under", "err", err)
			failed = err.Error()
		} else if err == nil {
			failed = ""
		}
		// The pack waits for the memory's HEAD to hold still for a look:
		// an active session checkpoints often, and only the pack after
		// its last checkpoint is the one a session start asks for.
		head, err := d.mem.History().Resolve("HEAD")
		if err == nil && head == seen && head != packed {
			if _, err := recall.Context(ctx, d.mem, recall.ContextOptions{}); err != nil && ctx.Err() == nil {
				d.log.Warn("bring the pack's cache up to date", "err", err)
			}
			packed = head
		}
		seen = head
	}
}
