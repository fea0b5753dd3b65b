package main

import (
	"context"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/shortheap"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type reindexOptions struct{ json bool }

func newReindexCommand(g *globals) *cobra.Command {
	var opts reindexOptions
	cmd := &cobra.Command{
		Use:   "reindex",
		Short: "Rebuild the search index from scratch",
		Long: `Rebuild the search index (.cairn/.state/index) from the memory's files, with
a progress bar on a terminal. The index follows the memory by itself (each
checkpoint re-indexes what it changed, and a damaged index is rebuilt at the
next search); reindex is for after changing the embedder or the chunking by
hand, or to start afresh. Stop a running daemon first: it has the index open.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReindex(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print figures about the new index as JSON")
	return cmd
}

func runReindex(ctx context.Context, g *globals, opts reindexOptions) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		start := time.Now()
		x, err := recall.Reindex(ctx, m, recall.IndexOptions{LockTimeout: time.Second, Progress: ui.Progress(g.stderr, "indexing"), BuildGC: g.buildGC})
		if err != nil {
			return err
		}
		defer x.Close()
		st, err := x.Stats()
		if err != nil {
			return err
		}
		r := ui.Reindexed{Files: st.Documents, Chunks: st.Chunks, Commit: st.Version, Embedder: st.Embedder,
			Bytes: st.BleveBytes + st.VectorBytes, Took: time.Since(start)}
		return ui.Print(g.stdout, opts.json, r, ui.ReindexJSON, ui.ReindexText)
	})
}

// buildGC sets the process's garbage collector for an index build and
// returns what puts back its own (indexer.GCForBuild with this command
// line's environment): `cairn reindex` and the daemon pass it to recall.
// A build that began before the command's first collection saved the
// opening percent of shortheap.Start, which the build's collections have
// ended: what it puts back is settled as the first collection would have.
func (g *globals) buildGC() (restore func()) {
	r := indexer.GCForBuild(g.getenv)
	return func() {
		r()
		shortheap.SettleGC()
	}
}
