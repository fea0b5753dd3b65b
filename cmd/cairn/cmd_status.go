package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type statusOptions struct{ json bool }

func newStatusCommand(g *globals) *cobra.Command {
	var opts statusOptions
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show what the next checkpoint would commit",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStatus(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runStatus(ctx context.Context, g *globals, opts statusOptions) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		return ui.ShowStatus(ctx, g.stdout, m, opts.json)
	})
}
