package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/keep"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newMigrateCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "migrate",
		Short: "Rewrite items and session.yaml files of older schemas",
		Long: `Rewrite, in one checkpoint, the items and session.yaml files whose schema
is older than this cairn's (cairn reads them anyway, upgrading them as it
reads). A file of a newer schema than this cairn knows is reported, one
line with its path and version, and left as it is.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMigrate(cmd.Context(), g)
		},
	}
}

func runMigrate(ctx context.Context, g *globals) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		res, err := keep.Migrate(ctx, m)
		if err != nil {
			return err
		}
		ui.MigrateText(g.stdout, res)
		return nil
	})
}
