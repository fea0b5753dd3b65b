package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
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
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	if opts.tag == "" {
		// A running daemon has the stat cache in memory and knows what
		// changed: let it checkpoint.
		// A daemon that went away mid-request (the error wraps
		// client.ErrNoDaemon) leaves the work to this process; an error
		// it answered is its answer.
		if c, err := client.Discover(ctx, m.StatePath(""), daemonWait); err == nil {
			resp, err := c.Checkpoint(ctx, client.CheckpointRequest{Message: opts.message, Session: opts.session, Event: opts.event})
			if err == nil {
				return printCheckpoint(g, opts, resp.Commit, resp.Subject, resp.Changes)
			}
			if !errors.Is(err, client.ErrNoDaemon) {
				return err
			}
			g.warn(fmt.Sprintf("the cairn daemon went away (%v); checkpointing here", err))
		}
	}
	cp, err := m.Checkpoint(ctx, memory.CheckpointOptions{
		Message: opts.message, Tag: opts.tag, Session: opts.session, Event: opts.event,
	})
	if errors.Is(err, memory.ErrNothingToDo) && opts.tag != "" {
		// Naming the current state is still worth doing.
		if err := m.History().Tag(ctx, opts.tag, "HEAD"); err != nil {
			return err
		}
		head, err := m.History().Resolve("HEAD")
		if err != nil {
			return err
		}
		if opts.json {
			return ui.TaggedHeadJSON(g.stdout, head, opts.tag)
		}
		return ui.TaggedHeadText(g.stdout, head, opts.tag)
	}
	if errors.Is(err, memory.ErrNothingToDo) {
		return printCheckpoint(g, opts, "", "", nil)
	}
	if err != nil {
		return err
	}
	return printCheckpoint(g, opts, cp.Hash, cp.Subject, cp.Changes)
}

func printCheckpoint(g *globals, opts checkpointOptions, commit, subject string, changes []memory.FileChange) error {
	if opts.json {
		return ui.CheckpointJSON(g.stdout, commit, subject, changes)
	}
	return ui.CheckpointText(g.stdout, commit)
}
