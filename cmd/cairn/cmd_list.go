package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type listOptions struct {
	kind, layer, session, tag string
	json                      bool
}

func newListCommand(g *globals) *cobra.Command {
	var opts listOptions
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List memory items, newest first",
		Long: `List memory items, newest first. Files that cannot be read as items are
named on standard error with the line at fault; the rest are listed.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runList(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.kind, "kind", "", "only items of this `KIND`")
	f.StringVar(&opts.layer, "layer", "", "only items in this `LAYER`: core, active or archival")
	f.StringVar(&opts.session, "session", "", "only items from this session")
	f.StringVar(&opts.tag, "tag", "", "only items with this tag")
	f.BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runList(ctx context.Context, g *globals, opts listOptions) error {
	var filter memory.Filter
	var err error
	if opts.kind != "" {
		if filter.Kind, err = model.ParseKind(opts.kind); err != nil {
			return usageError{err}
		}
	}
	if opts.layer != "" {
		if filter.Layer, err = model.ParseLayer(opts.layer); err != nil {
			return usageError{err}
		}
	}
	filter.Session, filter.Tag = opts.session, opts.tag
	return withMemory(ctx, g, func(m *memory.Memory) error {
		return ui.ListItems(ctx, g.stdout, m, filter, opts.json, g.warn)
	})
}
