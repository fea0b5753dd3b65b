package main

import (
	"context"
	"time"

	"github.com/cairn-mem/cairn/internal/keep"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newGCCommand(g *globals) *cobra.Command {
	var grace time.Duration
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Apply retention and repack the memory's repository",
		Long: `Apply the retention of archived sessions (capture.transcripts_keep and
capture.keep_summaries_only in cairn.yaml; a checkpoint, so history keeps
what leaves the work tree), then repack the memory's repository: every
object reachable from a branch, tag, remote ref or reflog goes into one
pack, loose objects and old packs go, and unreachable objects go once
older than --prune-after. No reachable object is ever removed, and no git
binary is needed. It holds the memory's write lock while it runs.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGC(cmd.Context(), g, grace)
		},
	}
	cmd.Flags().DurationVar(&grace, "prune-after", 14*24*time.Hour, "remove unreachable objects older than `DURATION` (0: all of them)")
	return cmd
}

func runGC(ctx context.Context, g *globals, grace time.Duration) error {
	if grace == 0 {
		grace = -1 // keep.GC's 0 is the default
	}
	return withMemory(ctx, g, func(m *memory.Memory) error {
		res, err := keep.GC(ctx, m, grace)
		if res != nil {
			ui.GCText(g.stdout, res)
		}
		return err
	})
}
