package main

import (
	"context"
	"fmt"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newForgetCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "forget ID",
		Short: "Delete a memory item (history keeps it)",
		Long:  "Delete a memory item and checkpoint the deletion. The item stays in history: cairn restore brings it back.",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runForget(cmd.Context(), g, args[0])
		},
	}
}

func runForget(ctx context.Context, g *globals, ref string) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		e, cp, err := m.Forget(ctx, m.ItemRef(g.dir, ref))
		if err != nil {
			return err
		}
		fmt.Fprintf(g.stdout, "forgot %s %q (%s)", e.Item.Kind, e.Item.Title, e.Path)
		if cp != nil {
			fmt.Fprintf(g.stdout, " in checkpoint %s", ui.Short(cp.Hash))
		}
		fmt.Fprintln(g.stdout)
		return nil
	})
}
