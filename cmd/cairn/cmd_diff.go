package main

import (
	"context"
	"os"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type diffOptions struct {
	stat  bool
	color string
}

func newDiffCommand(g *globals) *cobra.Command {
	var opts diffOptions
	cmd := &cobra.Command{
		Use:   "diff [REV [REV]] [-- PATH...]",
		Short: "Show changes between checkpoints, or not yet checkpointed",
		Long: `With no REV, show what changed since the last checkpoint. With one, the
changes from REV to the memory as it is now; with two, from the first to the
second. A REV is a commit id or prefix, a tag, HEAD or HEAD~N.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			revs, paths := splitDash(cmd, args)
			if len(revs) > 2 {
				return usagef("diff takes at most two revisions, got %d", len(revs))
			}
			return runDiff(cmd.Context(), g, opts, revs, paths)
		},
	}
	cmd.Flags().BoolVar(&opts.stat, "stat", false, "show a summary per file instead of the patch")
	cmd.Flags().StringVar(&opts.color, "color", "auto", "color the patch: auto, always or never")
	return cmd
}

// splitDash separates revisions from the paths after "--".
func splitDash(cmd *cobra.Command, args []string) (revs, paths []string) {
	if i := cmd.ArgsLenAtDash(); i >= 0 {
		return args[:i], args[i:]
	}
	return args, nil
}

func runDiff(ctx context.Context, g *globals, opts diffOptions, revs, paths []string) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		var do memory.DiffOptions
		if len(revs) > 0 {
			do.From = revs[0]
		}
		if len(revs) > 1 {
			do.To = revs[1]
		}
		for _, p := range paths {
			rp, err := m.PathArg(g.dir, p)
			if err != nil {
				return err
			}
			do.Paths = append(do.Paths, rp)
		}
		diffs, err := m.History().Diff(ctx, do)
		if err != nil {
			return err
		}
		if opts.stat {
			return ui.DiffStat(g.stdout, diffs)
		}
		color := opts.color == "always" || opts.color == "auto" && ui.IsTerminal(os.Stdout) && g.stdout == os.Stdout
		return ui.DiffPatch(g.stdout, diffs, color)
	})
}
