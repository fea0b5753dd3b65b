package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-mem/cairn/internal/keep"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newPurgeCommand(g *globals) *cobra.Command {
	var confirm bool
	cmd := &cobra.Command{
		Use:   "purge PATH --confirm",
		Short: "Stop carrying a path forward (history keeps it)",
		Long: `Remove PATH (a file or folder of the memory) from the work tree in a
checkpoint and add it to purged.txt, a committed and synced list of paths
that capture, sync and checkpoints never add back. History is not
rewritten: older checkpoints keep the file. Without --confirm, say what
would be done and exit with an error. When the path must leave history
and remotes too, the output says how (git filter-repo).`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPurge(cmd.Context(), g, args[0], confirm)
		},
	}
	cmd.Flags().BoolVar(&confirm, "confirm", false, "do it")
	return cmd
}

func runPurge(ctx context.Context, g *globals, arg string, confirm bool) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		plan, err := keep.PlanPurge(ctx, m, g.dir, arg)
		if err != nil {
			return err
		}
		if !confirm {
			ui.PurgePlanText(g.stdout, plan, false)
			return errors.New("nothing purged: run again with --confirm")
		}
		if _, err := keep.Purge(ctx, m, plan); err != nil {
			return err
		}
		ui.PurgePlanText(g.stdout, plan, true)
		fmt.Fprint(g.stdout, keep.HistoryHelp(m.Dir, plan.Path))
		return nil
	})
}
