package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type verifyOptions struct {
	repair  bool
	noIndex bool
	json    bool
}

func newVerifyCommand(g *globals) *cobra.Command {
	var opts verifyOptions
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check the memory's history and search index; fetch damaged objects from a remote",
		Long: `verify reads every object of the memory's history and checks that it is
there and hashes to its name (as git fsck does), lists conflict copies left
by syncs, and opens the search index (which repairs or rebuilds it when it
is damaged). With --repair, missing or corrupt objects are fetched from the
remotes.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVerify(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.repair, "repair", false, "fetch missing or corrupt objects from the remotes")
	cmd.Flags().BoolVar(&opts.noIndex, "no-index", false, "leave the search index alone")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runVerify(ctx context.Context, g *globals, opts verifyOptions) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		return ui.Verify(ctx, g.stdout, m, memsync.VerifyOptions{Repair: opts.repair, Getenv: g.getenv}, !opts.noIndex, opts.json)
	})
}
