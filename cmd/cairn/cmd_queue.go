package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
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

// openQueue opens the memory and its queue.
func openQueue(ctx context.Context, g *globals) (*memory.Memory, *watcher.Queue, error) {
	m, err := g.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	q, err := capture.Queue(m, watcher.QueueOptions{})
	if err != nil {
		m.Close()
		return nil, nil, err
	}
	return m, q, nil
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
	m, q, err := openQueue(ctx, g)
	if err != nil {
		return err
	}
	defer m.Close()
	st, err := q.Status(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		return ui.QueueStatusJSON(g.stdout, st)
	}
	return ui.QueueStatusText(g.stdout, st)
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
	m, q, err := openQueue(ctx, g)
	if err != nil {
		return err
	}
	defer m.Close()
	var all []*watcher.Job
	for _, s := range states {
		jobs, err := q.List(ctx, s)
		if err != nil {
			return err
		}
		all = append(all, jobs...)
	}
	if asJSON {
		return ui.JobsJSON(g.stdout, all)
	}
	return ui.JobsText(g.stdout, all)
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
			m, q, err := openQueue(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer m.Close()
			if all {
				n, err := q.RetryAll(cmd.Context())
				if err != nil {
					return err
				}
				fmt.Fprintf(g.stdout, "%d job(s) back in the queue\n", n)
				return nil
			}
			for _, id := range args {
				if err := q.Retry(id); err != nil {
					return queueErr(err)
				}
				fmt.Fprintf(g.stdout, "%s back in the queue\n", id)
			}
			return nil
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
			m, q, err := openQueue(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer m.Close()
			if all {
				n, err := q.DropAll(cmd.Context())
				if err != nil {
					return err
				}
				fmt.Fprintf(g.stdout, "%d job(s) dropped (kept in %s)\n", n, q.Dir(watcher.Dropped))
				return nil
			}
			for _, id := range args {
				if err := q.Drop(id); err != nil {
					return queueErr(err)
				}
				fmt.Fprintf(g.stdout, "%s dropped (kept in %s)\n", id, q.Dir(watcher.Dropped))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "drop every failed job")
	return cmd
}

// queueErr words a queue error about a job that is not where it was
// looked for.
func queueErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w (see cairn queue list --state failed)", err)
	}
	return err
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
				res, err := capture.Drain(cmd.Context(), m, watcher.QueueOptions{}, max)
				if err != nil {
					return err
				}
				// A job another worker runs is the daemon's when one answers.
				served := false
				if slices.ContainsFunc(res.Waiting, func(w watcher.Wait) bool { return w.Reason == watcher.WaitClaimed }) {
					_, err := client.Discover(cmd.Context(), m.StatePath(""), 200*time.Millisecond)
					served = err == nil
				}
				ui.DrainText(g.stdout, res, served, g.warn)
				if res.Failed > 0 {
					return fmt.Errorf("%d job(s) failed (cairn queue list)", res.Failed)
				}
				return nil
			})
		},
	}
	cmd.Flags().IntVar(&max, "max", 0, "do at most `N` jobs (0: all that are due)")
	return cmd
}
