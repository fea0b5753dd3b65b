package main

import (
	"context"
	"fmt"
	"time"

	"github.com/cairn-mem/cairn/internal/recall"
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
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	start := time.Now()
	x, err := recall.Reindex(ctx, m, recall.IndexOptions{LockTimeout: time.Second, Progress: g.progress("indexing")})
	if err != nil {
		return err
	}
	defer x.Close()
	st, err := x.Stats()
	if err != nil {
		return err
	}
	took := time.Since(start)
	if opts.json {
		return g.printJSON(map[string]any{
			"files": st.Documents, "chunks": st.Chunks, "commit": st.Version, "embedder": st.Embedder,
			"bytes": st.BleveBytes + st.VectorBytes, "seconds": took.Seconds(),
		})
	}
	fmt.Fprintf(g.stdout, "indexed %d files (%d chunks) in %.1fs; the index takes %s\n",
		st.Documents, st.Chunks, took.Seconds(), humanBytes(st.BleveBytes+st.VectorBytes))
	return nil
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
