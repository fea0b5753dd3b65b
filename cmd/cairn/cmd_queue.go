package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/memory"
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
		return g.printJSON(st)
	}
	fmt.Fprintf(g.stdout, "pending %d, processing %d, failed %d, dropped %d", st.Pending, st.Processing, st.Failed, st.Dropped)
	if !st.Oldest.IsZero() {
		fmt.Fprintf(g.stdout, "; oldest waiting %s", st.OldestAge.Round(time.Second))
	}
	fmt.Fprintln(g.stdout)
	if st.Failed > 0 {
		fmt.Fprintln(g.stdout, "see the failed jobs with: cairn queue list --state failed")
	}
	return nil
}

// jsonJob is how queue list prints a job under --json.
type jsonJob struct {
	ID           string         `json:"id"`
	State        string         `json:"state"`
	Kind         string         `json:"kind"`
	AgentSession string         `json:"agent_session,omitempty"`
	Attempts     int            `json:"attempts"`
	Abandoned    int            `json:"abandoned,omitempty"`
	LastError    string         `json:"last_error,omitempty"`
	Origin       string         `json:"origin,omitempty"`
	Pointer      *watcher.Range `json:"pointer,omitempty"`
	NotBefore    time.Time      `json:"not_before,omitzero"`
	Created      time.Time      `json:"created"`
	Updated      time.Time      `json:"updated"`
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
		s := watcher.State(strings.ToLower(state))
		found := false
		for _, k := range states {
			found = found || k == s
		}
		if !found {
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
		out := make([]jsonJob, 0, len(all))
		for _, j := range all {
			out = append(out, jsonJob{ID: j.ID, State: string(j.State), Kind: j.Kind, AgentSession: j.AgentSession,
				Attempts: j.Attempts, Abandoned: j.Abandoned, LastError: j.LastError, Origin: j.Origin, Pointer: j.Pointer,
				NotBefore: j.NotBefore, Created: j.Created, Updated: j.Updated})
		}
		return g.printJSON(out)
	}
	tw := tabwriter.NewWriter(g.stdout, 0, 4, 2, ' ', 0)
	for _, j := range all {
		id := j.ID
		if id == "" {
			id = "(not taken yet)"
		}
		what := j.Origin
		if j.Pointer != nil && what == "" {
			what = fmt.Sprintf("%s [%d, %d)", j.Pointer.Path, j.Pointer.From, j.Pointer.To)
		}
		tries := fmt.Sprintf("%d tries", j.Attempts)
		if j.Abandoned > 0 {
			tries += fmt.Sprintf(", %d abandoned", j.Abandoned)
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", j.State, id, j.Kind, tries, j.Created.Local().Format("2006-01-02 15:04:05"), what)
		if j.LastError != "" {
			line += "\t" + cutLine(oneLine(j.LastError), 120)
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}

func cutLine(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
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
	return &cobra.Command{
		Use:   "drop ID...",
		Short: "Give up on failed jobs (they are kept in .state/queue/dropped/)",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("queue drop needs a job ID")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			m, q, err := openQueue(cmd.Context(), g)
			if err != nil {
				return err
			}
			defer m.Close()
			for _, id := range args {
				if err := q.Drop(id); err != nil {
					return queueErr(err)
				}
				fmt.Fprintf(g.stdout, "%s dropped (kept in %s)\n", id, q.Dir(watcher.Dropped))
			}
			return nil
		},
	}
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
			m, err := g.open(cmd.Context())
			if err != nil {
				return err
			}
			defer m.Close()
			res, err := capture.Drain(cmd.Context(), m, watcher.QueueOptions{}, max)
			if err != nil {
				return err
			}
			for _, r := range res.Results {
				if r.Commit != "" {
					fmt.Fprintf(g.stdout, "session %s: %s; commit %s\n", r.Session, countOf(r.Events, "event", "events"), short(r.Commit))
				}
			}
			for _, e := range res.Errors {
				g.warn(e.Error())
			}
			fmt.Fprintf(g.stdout, "%d job(s) done, %d failed\n", res.Done, res.Failed)
			if res.Failed > 0 {
				return fmt.Errorf("%d job(s) failed (cairn queue list)", res.Failed)
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&max, "max", 0, "do at most `N` jobs (0: all that are due)")
	return cmd
}
