package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type showOptions struct{ json bool }

func newShowCommand(g *globals) *cobra.Command {
	var opts showOptions
	cmd := &cobra.Command{
		Use:   "show ID|PATH",
		Short: "Print a memory item",
		Long:  "Print a memory item's file. ID may be the id, a unique prefix or suffix of it (6 characters or more), or the file's path.",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runShow(cmd.Context(), g, opts, args[0])
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the item as JSON")
	return cmd
}

func runShow(ctx context.Context, g *globals, opts showOptions, ref string) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		e, err := m.Get(ctx, m.ItemRef(g.dir, ref))
		if err != nil {
			return err
		}
		if opts.json {
			return ui.ItemJSON(g.stdout, e.Item, e.Path)
		}
		data, err := m.ReadFile(e.Path)
		if err != nil {
			return err
		}
		_, err = g.stdout.Write(data)
		return err
	})
}
