package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type resolveOptions struct {
	keep string
	json bool
}

func newResolveCommand(g *globals) *cobra.Command {
	var opts resolveOptions
	cmd := &cobra.Command{
		Use:   "resolve [PATH] --keep original|copy|both",
		Short: "List or settle the conflict copies a sync wrote",
		Long: `With no PATH, list the conflict copies. With PATH (the copy, or the file it
stands beside), settle it: --keep original drops the copy; --keep copy puts
the copy in the original's place; --keep both makes the copy an item of its
own with a new id. One checkpoint.`,
		Args: rangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runResolve(cmd.Context(), g, opts, args)
		},
	}
	cmd.Flags().StringVar(&opts.keep, "keep", "", "what to keep: `original`, copy or both")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runResolve(ctx context.Context, g *globals, opts resolveOptions, args []string) error {
	if len(args) == 1 {
		switch opts.keep {
		case memsync.KeepOriginal, memsync.KeepCopy, memsync.KeepBoth:
		default:
			return usagef("resolve %s: say what to keep: --keep original, copy or both", args[0])
		}
	}
	return withMemory(ctx, g, func(m *memory.Memory) error {
		return ui.Resolve(ctx, g.stdout, m, g.dir, args, opts.keep, opts.json)
	})
}
