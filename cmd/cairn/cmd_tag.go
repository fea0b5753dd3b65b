package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type tagOptions struct{ json bool }

func newTagCommand(g *globals) *cobra.Command {
	var opts tagOptions
	cmd := &cobra.Command{
		Use:   "tag [NAME [REV]]",
		Short: "List named checkpoints, or name one",
		Long:  "With no NAME, list the named checkpoints. With NAME, name REV (HEAD by default).",
		Args:  rangeArgs(0, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTag(cmd.Context(), g, opts, args)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runTag(ctx context.Context, g *globals, opts tagOptions, args []string) error {
	if len(args) > 0 {
		if err := memory.ValidTagName(args[0]); err != nil {
			return usageError{err}
		}
	}
	return withMemory(ctx, g, func(m *memory.Memory) error {
		if len(args) == 0 {
			tags, err := m.History().Tags(ctx)
			if err != nil {
				return err
			}
			return ui.Print(g.stdout, opts.json, tags, ui.TagsJSON, ui.TagsText)
		}
		rev := "HEAD"
		if len(args) == 2 {
			rev = args[1]
		}
		return m.History().Tag(ctx, args[0], rev)
	})
}
