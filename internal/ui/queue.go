package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"time"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/watcher"
)

// QueueStatusJSON writes the count of jobs in each state (cairn queue
// status --json).
func QueueStatusJSON(w io.Writer, st watcher.Status) error { return JSON(w, st) }

// QueueStatusText writes the counts in one line, and where to look when
// jobs failed.
func QueueStatusText(w io.Writer, st watcher.Status) error {
	fmt.Fprintf(w, "pending %d, processing %d, failed %d, dropped %d", st.Pending, st.Processing, st.Failed, st.Dropped)
	if !st.Oldest.IsZero() {
		fmt.Fprintf(w, "; oldest waiting %s", st.OldestAge.Round(time.Second))
	}
	fmt.Fprintln(w)
	if st.Failed > 0 {
		_, err := fmt.Fprintln(w, "see the failed jobs with: cairn queue list --state failed")
		return err
	}
	return nil
}

// Job is how queue list prints a job under --json.
type Job struct {
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

// JobsJSON writes jobs (cairn queue list --json).
func JobsJSON(w io.Writer, all []*watcher.Job) error {
	out := make([]Job, 0, len(all))
	for _, j := range all {
		out = append(out, Job{ID: j.ID, State: string(j.State), Kind: j.Kind, AgentSession: j.AgentSession,
			Attempts: j.Attempts, Abandoned: j.Abandoned, LastError: j.LastError, Origin: j.Origin, Pointer: j.Pointer,
			NotBefore: j.NotBefore, Created: j.Created, Updated: j.Updated})
	}
	return JSON(w, out)
}

// JobsText writes one line per job: state, id, kind, tries, when, what,
// and the last error cut to 120 characters.
func JobsText(w io.Writer, all []*watcher.Job) error {
	tw := table(w)
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
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", j.State, Escape(id), Escape(j.Kind), tries, j.Created.Local().Format("2006-01-02 15:04:05"), Escape(what))
		if j.LastError != "" {
			line += "\t" + Escape(cutLine(OneLine(j.LastError), 120))
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}

// DrainText says what cairn queue run did: a line per commit, the
// failures through warn, the counts, the inbox files it cleaned up, and
// the jobs it left with why (served: a daemon runs the claimed ones).
func DrainText(w io.Writer, res *capture.DrainResult, served bool, warn func(string)) error {
	for _, r := range res.Results {
		if r.Commit != "" {
			fmt.Fprintf(w, "session %s: %s; commit %s\n", r.Session, CountOf(r.Events, "event", "events"), Short(r.Commit))
		}
	}
	for _, e := range res.Errors {
		warn(e.Error())
	}
	fmt.Fprintf(w, "%d job(s) done, %d failed\n", res.Done, res.Failed)
	if n := res.Swept.Removed; n > 0 {
		fmt.Fprintf(w, "removed %s that hooks killed before they finished left in the inbox\n", CountOf(n, "empty or cut-short payload file", "empty or cut-short payload files"))
	}
	if n := res.Swept.Rescued; n > 0 {
		fmt.Fprintf(w, "recovered %s that hooks killed before their rename left in the inbox\n", CountOf(n, "complete payload", "complete payloads"))
	}
	if len(res.Waiting) == 0 {
		return nil
	}
	fmt.Fprintf(w, "%s left:\n", CountOf(len(res.Waiting), "job", "jobs"))
	for _, q := range res.Waiting {
		fmt.Fprintf(w, "  %s\n", q)
	}
	var err error
	if served {
		_, err = fmt.Fprintln(w, "a cairn daemon serves this memory: it runs the jobs it holds, and takes new ones as they arrive")
	}
	return err
}

// QueueRetry is cairn queue retry: the failed jobs ids, or all of them,
// back in the queue with their attempts reset.
func QueueRetry(ctx context.Context, w io.Writer, q *watcher.Queue, ids []string, all bool) error {
	if all {
		n, err := q.RetryAll(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%d job(s) back in the queue\n", n)
		return nil
	}
	for _, id := range ids {
		if err := q.Retry(id); err != nil {
			return queueErr(err)
		}
		fmt.Fprintf(w, "%s back in the queue\n", id)
	}
	return nil
}

// QueueDrop is cairn queue drop: the failed jobs ids, or all of them,
// given up on and kept in the dropped folder.
func QueueDrop(ctx context.Context, w io.Writer, q *watcher.Queue, ids []string, all bool) error {
	if all {
		n, err := q.DropAll(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%d job(s) dropped (kept in %s)\n", n, q.Dir(watcher.Dropped))
		return nil
	}
	for _, id := range ids {
		if err := q.Drop(id); err != nil {
			return queueErr(err)
		}
		fmt.Fprintf(w, "%s dropped (kept in %s)\n", id, q.Dir(watcher.Dropped))
	}
	return nil
}

// queueErr words a queue error about a job that is not where it was
// looked for.
func queueErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w (see cairn queue list --state failed)", err)
	}
	return err
}

// Drain is cairn queue run: it does up to max due jobs of m's queue
// (capture.Drain) and says what it did (DrainText); a job another worker
// holds is the daemon's when one answers. Failed jobs make an error.
func Drain(ctx context.Context, w io.Writer, m *memory.Memory, max int, warn func(string)) error {
	res, err := capture.Drain(ctx, m, watcher.QueueOptions{}, max)
	if err != nil {
		return err
	}
	served := false
	if slices.ContainsFunc(res.Waiting, func(w watcher.Wait) bool { return w.Reason == watcher.WaitClaimed }) {
		_, err := client.Discover(ctx, m.StatePath(""), 200*time.Millisecond)
		served = err == nil
	}
	DrainText(w, res, served, warn)
	if res.Failed > 0 {
		return fmt.Errorf("%d job(s) failed (cairn queue list)", res.Failed)
	}
	return nil
}
