package main

import (
	"context"
	"fmt"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type shareOptions struct {
	to   string
	what string
	json bool
}

func newShareCommand(g *globals) *cobra.Command {
	var opts shareOptions
	cmd := &cobra.Command{
		Use:   "share --to PROJECT [--what decisions|patterns|full]",
		Short: "Copy memories into another project's memory",
		Long: `share copies this memory's core items — its decisions (the default), its
patterns, or every kind (full) — into the memory of another project, as new
items with confidence × 0.8 and where they came from (shared_project,
shared_item). Items shared before are not copied again. One checkpoint in
the other project.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runShare(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.to, "to", "", "the other `PROJECT` (its folder, or its .cairn)")
	cmd.Flags().StringVar(&opts.what, "what", memsync.ShareDecisions, "what to copy: decisions, patterns or full")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runShare(ctx context.Context, g *globals, opts shareOptions) error {
	if opts.to == "" {
		return usagef("share: say where to with --to PROJECT")
	}
	switch opts.what {
	case memsync.ShareDecisions, memsync.SharePatterns, memsync.ShareFull:
	default:
		return usagef("share --what %q: want decisions, patterns or full", opts.what)
	}
	// A relative --to is relative to the folder commands work in, -C's.
	dstDir, err := memory.Find(g.path(opts.to))
	if err != nil {
		return fmt.Errorf("share --to %s: %w", opts.to, err)
	}
	return withMemory(ctx, g, func(m *memory.Memory) error {
		dst, err := g.openDir(ctx, dstDir)
		if err != nil {
			return err
		}
		defer dst.Close()
		res, err := memsync.ShareTo(ctx, m, dst, opts.what)
		if err != nil {
			return err
		}
		return ui.Print(g.stdout, opts.json, res, ui.ShareJSON, ui.ShareText)
	})
}
