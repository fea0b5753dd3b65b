package main

import (
	"fmt"

	"github.com/cairn-mem/cairn/internal/anchor"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newStaleCommand(g *globals) *cobra.Command {
	var asJSON bool
	var confirm string
	cmd := &cobra.Command{
		Use:   "stale [--json] [--confirm ID]",
		Short: "List memories the project's code changed under since they were written",
		Long: `List items and session summaries whose anchors (paths, file:line, symbols of
the project they name) the project's git history changed since the commit
they were written at, and apart those whose anchors no longer exist.
--confirm ID records that one was checked against the code at HEAD.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withMemory(cmd.Context(), g, func(m *memory.Memory) error {
				if confirm != "" {
					p, err := anchor.Confirm(cmd.Context(), m, m.ItemRef(g.dir, confirm))
					if err == nil {
						fmt.Fprintf(g.stdout, "checked %s against the code at HEAD\n", ui.Escape(p))
					}
					return err
				}
				r, err := anchor.Check(cmd.Context(), m)
				switch {
				case err != nil:
					return err
				case asJSON:
					return ui.JSON(g.stdout, r)
				}
				return anchor.WriteText(g.stdout, r, ui.Escape)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&confirm, "confirm", "", "record that the memory ID was checked against the code at HEAD")
	return cmd
}
