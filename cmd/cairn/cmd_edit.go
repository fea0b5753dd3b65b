package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newEditCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "edit ID",
		Short: "Edit a memory item in $VISUAL or $EDITOR",
		Long: `Open a memory item's file in $VISUAL or $EDITOR (vi when neither is set),
check it when the editor exits, and checkpoint it. A file left invalid stays
as you wrote it, uncommitted, and the error names the line at fault.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEdit(cmd.Context(), g, args[0])
		},
	}
}

func runEdit(ctx context.Context, g *globals, ref string) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		return ui.EditItem(ctx, g.stdout, m, m.ItemRef(g.dir, ref), g.dir, g.getenv)
	})
}
