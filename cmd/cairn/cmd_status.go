package main

import (
	"context"
	"fmt"

	"github.com/cairn-mem/cairn/internal/memsync"
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
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	changes, err := m.Status(ctx)
	if err != nil {
		return err
	}
	conflicts, err := memsync.Conflicts(ctx, m)
	if err != nil {
		return err
	}
	if opts.json {
		return g.printJSON(map[string]any{"dir": m.Dir, "changes": nonNil(changes), "conflicts": nonNil(conflicts)})
	}
	fmt.Fprintf(g.stdout, "memory: %s\n", m.Dir)
	for _, c := range conflicts {
		fmt.Fprintf(g.stdout, "  conflict  %s (beside %s; settle with cairn resolve)\n", c.Path, c.Original)
	}
	if len(changes) == 0 {
		fmt.Fprintln(g.stdout, "nothing to checkpoint")
		return nil
	}
	for _, c := range changes {
		fmt.Fprintf(g.stdout, "  %-9s %s\n", c.Action, c.Path)
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
