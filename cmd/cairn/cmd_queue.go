package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/cairn-mem/cairn/watcher"
	"github.com/spf13/cobra"
)

func newQueueCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "queue",
		Short: "Show and manage the capture queue",
		Long: `The capture queue holds work not yet done: transcript ranges, hook payloads
and files dropped into .cairn/inbox/. Pending jobs wait in inbox/; claimed
ones in .state/queue/processing/; jobs that failed too often, and inbox files
that are not transcripts, in .state/queue/failed/ with the reason. Without
a subcommand, queue prints its status.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runQueueStatus(cmd.Context(), g, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.AddCommand(newQueueStatusCommand(g), newQueueListCommand(g), newQueueRetryCommand(g),
		newQueueDropCommand(g), newQueueRunCommand(g))
	return cmd
}

// withQueue opens the memory, hands its queue to fn and closes it.
func withQueue(ctx context.Context, g *globals, fn func(*watcher.Queue) error) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		q, err := capture.Queue(m, watcher.QueueOptions{})
		if err != nil {
			return err
		}
		return fn(q)
	})
}

func newQueueStatusCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Count the jobs in each state",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runQueueStatus(cmd.Context(), g, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func runQueueStatus(ctx context.Context, g *globals, asJSON bool) error {
	return withQueue(ctx, g, func(q *watcher.Queue) error {
		st, err := q.Status(ctx)
		if err != nil {
			return err
		}
		return ui.Print(g.stdout, asJSON, st, ui.QueueStatusJSON, ui.QueueStatusText)
	})
}

func newQueueListCommand(g *globals) *cobra.Command {
	var state string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the jobs, oldest first",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runQueueList(cmd.Context(), g, state, asJSON)
		},
	}
	cmd.Flags().StringVar(&state, "state", "", "only jobs in `STATE`: pending, processing, failed or dropped")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func runQueueList(ctx context.Context, g *globals, state string, asJSON bool) error {
	states := []watcher.State{watcher.Pending, watcher.Processing, watcher.Failed, watcher.Dropped}
	if state != "" {
		s, ok := watcher.ParseState(state)
		if !ok {
			return usagef("--state %q: want pending, processing, failed or dropped", state)
		}
		states = []watcher.State{s}
	}
	return withQueue(ctx, g, func(q *watcher.Queue) error {
		var all []*watcher.Job
		for _, s := range states {
			jobs, err := q.List(ctx, s)
			if err != nil {
				return err
			}
			all = append(all, jobs...)
		}
		return ui.Print(g.stdout, asJSON, all, ui.JobsJSON, ui.JobsText)
	})
}

func newQueueRetryCommand(g *globals) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "retry ID... | --all",
		Short: "Put failed jobs back in the queue, their attempts reset",
		RunE: func(cmd *cobra.Command, args []string) error {
			if all == (len(args) > 0) {
				return usagef("queue retry takes job ids or --all")
			}
			return withQueue(cmd.Context(), g, func(q *watcher.Queue) error {
				return ui.QueueRetry(cmd.Context(), g.stdout, q, args, all)
			})
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "retry every failed job")
	return cmd
}

func newQueueDropCommand(g *globals) *cobra.Command {
	var all bool
	cmd := &cobra.Command{
		Use:   "drop ID... | --all",
		Short: "Give up on failed jobs (they are kept in .state/queue/dropped/)",
		RunE: func(cmd *cobra.Command, args []string) error {
			if all == (len(args) > 0) {
				return usagef("queue drop takes job ids or --all")
			}
			return withQueue(cmd.Context(), g, func(q *watcher.Queue) error {
				return ui.QueueDrop(cmd.Context(), g.stdout, q, args, all)
			})
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "drop every failed job")
	return cmd
}

func newQueueRunCommand(g *globals) *cobra.Command {
	var max int
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Do the queued jobs now, without a daemon",
		Long: `Claim and do the due jobs of the queue until none is left (or --max ran),
as the daemon's worker would: each job's effect is one checkpoint. A job
that fails goes back to the queue with a backoff, or to failed/.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withMemory(cmd.Context(), g, func(m *memory.Memory) error {
				return ui.Drain(cmd.Context(), g.stdout, m, max, g.warn)
			})
		},
	}
	cmd.Flags().IntVar(&max, "max", 0, "do at most `N` jobs (0: all that are due)")
	return cmd
}
