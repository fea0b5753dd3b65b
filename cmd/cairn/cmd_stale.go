package main

import (
	"context"
	"fmt"

	"github.com/cairn-mem/cairn/internal/anchor"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newStaleCommand(g *globals) *cobra.Command {
	var asJSON bool
	var confirm string
	cmd := &cobra.Command{
		Use:   "stale [--json] [--confirm ID]",
		Short: "List memories the project's code changed under since they were written",
		Long: `List the items and session summaries that may be stale: they name files,
lines or symbols of the project (in backticks, file.go:123, paths that exist,
functions and types declared in the code), and the project's git history
changed them between the commit the memory was written at and HEAD. Anchors
that no longer exist (deleted, renamed, a symbol declared nowhere) are listed
apart. --confirm ID records that the memory was checked against the code as
it is now; editing it does too.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStale(cmd.Context(), g, asJSON, confirm)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&confirm, "confirm", "", "record that the memory ID was checked against the code at HEAD")
	return cmd
}

func runStale(ctx context.Context, g *globals, asJSON bool, confirm string) error {
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	if confirm != "" {
		p, err := anchor.Confirm(ctx, m, itemRef(g, m, confirm))
		if err != nil {
			return err
		}
		fmt.Fprintf(g.stdout, "checked %s against the code at HEAD\n", ui.Escape(p))
		return nil
	}
	r, err := anchor.Check(ctx, m)
	if err != nil {
		return err
	}
	if asJSON {
		return ui.JSON(g.stdout, r)
	}
	return anchor.WriteText(g.stdout, r, ui.Escape)
}
