package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type checkpointOptions struct {
	message, tag, session, event string
	json                         bool
}

func newCheckpointCommand(g *globals) *cobra.Command {
	var opts checkpointOptions
	cmd := &cobra.Command{
		Use:   "checkpoint",
		Short: "Commit what changed in the memory",
		Long: `Commit everything that changed in the memory since the last checkpoint,
hand edits included, as one commit, and print its id. Says so, and exits 0,
when there is nothing to checkpoint.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheckpoint(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.message, "message", "m", "", "the checkpoint's subject line")
	f.StringVar(&opts.tag, "tag", "", "name the checkpoint `NAME` (a git tag)")
	f.StringVar(&opts.session, "session", "", "the agent session it belongs to")
	f.StringVar(&opts.event, "event", "checkpoint", "what caused it (recorded as Cairn-Event)")
	f.BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runCheckpoint(ctx context.Context, g *globals, opts checkpointOptions) error {
	if opts.tag != "" {
		if err := memory.ValidTagName(opts.tag); err != nil {
			return usageError{err}
		}
	}
	return withMemory(ctx, g, func(m *memory.Memory) error {
		req := client.CheckpointRequest{Message: opts.message, Tag: opts.tag, Session: opts.session, Event: opts.event}
		res, err := server.CheckpointVia(ctx, m, req, g.daemonWait(), g.warn)
		if err != nil {
			return err
		}
		if res.Commit == "" && res.Tagged != "" {
			if opts.json {
				return ui.TaggedHeadJSON(g.stdout, res.Tagged, res.Tag)
			}
			return ui.TaggedHeadText(g.stdout, res.Tagged, res.Tag)
		}
		if opts.json {
			return ui.CheckpointJSON(g.stdout, res.Commit, res.Subject, res.Changes)
		}
		return ui.CheckpointText(g.stdout, res.Commit)
	})
}
