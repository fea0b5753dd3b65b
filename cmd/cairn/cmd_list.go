package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
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
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	items, problems, err := m.List(ctx, filter)
	if err != nil {
		return err
	}
	for _, p := range problems {
		g.warn("skipped " + p.Error())
	}
	if opts.json {
		out := make([]jsonItem, 0, len(items))
		for _, e := range items {
			j := itemJSON(e.Item, e.Path)
			j.Body = ""
			out = append(out, j)
		}
		return g.printJSON(out)
	}
	tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
	for _, e := range items {
		it := e.Item
		pin := ""
		if it.Pinned {
			pin = " [pinned]"
		}
		tags := ""
		if len(it.Tags) > 0 {
			tags = " #" + strings.Join(it.Tags, " #")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s%s%s\n", it.ID, it.Kind, it.Updated.Local().Format("2006-01-02 15:04"), it.Title, pin, tags)
	}
	return tw.Flush()
}
