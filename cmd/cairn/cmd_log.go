package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type logOptions struct {
	n             int
	session, code string
	json          bool
}

func newLogCommand(g *globals) *cobra.Command {
	var opts logOptions
	cmd := &cobra.Command{
		Use:   "log",
		Short: "List checkpoints, newest first",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLog(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.IntVarP(&opts.n, "max-count", "n", 0, "show at most `N` checkpoints")
	f.StringVar(&opts.session, "session", "", "only checkpoints of this session")
	f.StringVar(&opts.code, "code", "", "only checkpoints made while the project's code was at commit `SHA`")
	f.BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runLog(ctx context.Context, g *globals, opts logOptions) error {
	if opts.n < 0 {
		return usagef("-n must not be negative")
	}
	return withMemory(ctx, g, func(m *memory.Memory) error {
		entries, err := m.History().Log(ctx, memory.LogOptions{N: opts.n, Session: opts.session, Code: opts.code, Files: true})
		if err != nil {
			return err
		}
		return ui.Print(g.stdout, opts.json, entries, ui.LogJSON, ui.LogText)
	})
}
