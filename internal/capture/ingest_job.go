package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/internal/capture/follow"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/watcher"
)

// JobHook is the kind of queue job that carries a Claude Code hook
// payload: {"kind": "hook", "payload": <the hook's stdin JSON>}. A hook
// payload dropped into the inbox as a file of its own works too (it
// becomes an inbox-file job).
const JobHook = "hook"

// Queue opens the memory's job queue: pending jobs in <memory>/inbox (also
// the drop folder), the others under .state/queue.
// The capture hook's payloads (hooks/capture.sh writes them in place,
// cairn hook and older scripts rename them there) are taken as soon as
// they are whole.
func Queue(m *memory.Memory, opts watcher.QueueOptions) (*watcher.Queue, error) {
	if opts.Document == nil {
		opts.Document = HookFileName
	}
	if opts.Staged == nil {
		opts.Staged = stagedHookFile
	}
	return watcher.OpenQueue(filepath.Join(m.Dir, "inbox"), m.StatePath("queue"), opts)
}

// HookFileName reports whether name is one the capture hook gives a
// payload in the inbox, hook-<nanoseconds>-<pid>.json: one JSON document.
func HookFileName(name string) bool {
	stem, ok := strings.CutPrefix(name, "hook-")
	if !ok {
		return false
	}
	stem, ok = strings.CutSuffix(stem, ".json")
	if !ok {
		return false
	}
	ts, pid, ok := strings.Cut(stem, "-")
	return ok && digits(ts) && digits(pid)
}

// stagedHookFile maps the capture script's temporary name,
// .hook-<nanoseconds>-<pid>.tmp, to the name it renames it to.
func stagedHookFile(name string) (string, bool) {
	stem, ok := strings.CutPrefix(name, ".hook-")
	if !ok {
		return "", false
	}
	if stem, ok = strings.CutSuffix(stem, ".tmp"); !ok {
		return "", false
	}
	final := "hook-" + stem + ".json"
	return final, HookFileName(final)
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// Cursors opens the transcript cursors in .state/cursors.
func Cursors(m *memory.Memory) (*watcher.Cursors, error) {
	return watcher.OpenCursors(m.StatePath("cursors"))
}

// RunJob does one job claimed from q and marks it done once its effect is
// committed, or failed (back to pending with a backoff, or to failed/
// when out of attempts or when it can never succeed). Jobs:
//
//   - watcher.KindTranscriptDelta: a range of a transcript that grew. The
//     path must be a transcript the configuration lets cairn read. It is
//     captured from where the session's capture of that file stopped, which
//     may be before the range's start (lines held back as unfinished), up
//     to the range's end; then cursors (if not nil) records the range.
//   - JobHook: a hook payload, see CaptureHook.
//   - watcher.KindInboxFile: a file dropped into the inbox: a hook payload,
//     or a transcript in any format Ingest reads.
//
// Doing a job twice has the effect of once. The daemon's worker calls
// RunJob for each job it claims; Drain does it until the queue is empty.
func RunJob(ctx context.Context, m *memory.Memory, q *watcher.Queue, cursors *watcher.Cursors, j *watcher.Job) (*CaptureResult, error) {
	size := jobBytes(q, j)
	res, err := guarded(j.ID, func() (*CaptureResult, error) { return doJob(ctx, m, q, cursors, j) })
	if err != nil {
		fail := q.Fail
		if IsPermanent(err) {
			fail = q.GiveUp // to failed/ now: trying again changes nothing
		}
		if ferr := fail(j, err); ferr != nil {
			// One line: what failed, then that it stays where it is.
			return nil, fmt.Errorf("%w (and its failure could not be recorded: %v)", err, ferr)
		}
		return nil, err
	}
	if err := q.Done(j); err != nil {
		return res, err
	}
	recordCapture(ctx, m, j, size, res)
	return res, nil
}

// guarded runs do, a job's work, and turns a panic in it into the job's
// permanent failure: the job goes to failed/ with what went wrong, its
// payload kept, and the jobs after it run. One sentence the summarizer
// could not read stopped every capture of a project after it, and with
// them every pack.
func guarded(id string, do func() (*CaptureResult, error)) (res *CaptureResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, permanent(fmt.Errorf("job %s: internal error: %v (kept in the queue's failed/)", id, r))
		}
	}()
	return do()
}

func doJob(ctx context.Context, m *memory.Memory, q *watcher.Queue, cursors *watcher.Cursors, j *watcher.Job) (*CaptureResult, error) {
	jobs := []string{j.ID}
	switch j.Kind {
	case watcher.KindTranscriptDelta:
		r := j.Pointer
		if r == nil {
			return nil, permanent(fmt.Errorf("job %s: a transcript delta without a pointer", j.ID))
		}
		session := ""
		if j.AgentSession != "" && memory.CheckSessionID(j.AgentSession) == nil {
			session = j.AgentSession
		}
		res, err := catchUp(ctx, m, r.Path, session, catchUpOptions{trigger: "transcript", jobs: jobs, from: r.From, to: r.To})
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, follow.ErrRefused) {
			// Refused: another project's, a symbolic link (follow.Open).
			return nil, permanent(fmt.Errorf("job %s: %w", j.ID, err))
		}
		if err != nil {
			return nil, err
		}
		if cursors != nil {
			if err := cursors.Commit(*r); err != nil && !errors.Is(err, watcher.ErrStale) {
				return res, err
			}
		}
		return res, nil
	case JobHook:
		if len(j.Payload) == 0 {
			return nil, permanent(fmt.Errorf("job %s: a hook job without a payload", j.ID))
		}
		return CaptureHook(ctx, m, j.Payload)
	case watcher.KindInboxFile:
		att := q.Attachment(j)
		if att == "" {
			return nil, permanent(fmt.Errorf("job %s: its file is not one the queue keeps", j.ID))
		}
		data, err := os.ReadFile(att)
		if errors.Is(err, fs.ErrNotExist) {
			// Its file is gone, and no retry brings it back: the job
			// has nothing left to do. A daemon's start-up (Recover)
			// put the file back into the inbox while another worker (a
			// session start beside a daemon starting, a queue run) was
			// between moving it here and writing this job, and it is
			// taken again from there; or a worker that ran this job
			// too removed it when done.
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if isHookPayload(data) {
			return CaptureHook(ctx, m, data)
		}
		name := j.Origin
		if name == "" {
			name = filepath.Base(att)
		}
		ir, err := Ingest(ctx, m, att, IngestOptions{Name: filepath.Base(name), Trigger: "inbox", Jobs: jobs})
		if err != nil {
			return nil, permanent(fmt.Errorf("inbox file %s is neither a hook payload nor a transcript cairn reads: %w", name, err))
		}
		return ir.CaptureResult, nil
	}
	return nil, permanent(fmt.Errorf("job %s: unknown kind %q", j.ID, j.Kind))
}

// CatchUpTranscript captures a transcript cairn follows (see
// follow.Globs) from where its session's capture of it stopped to its
// end. With final, what a parse holds back while the writer may still be
// busy (an assistant message whose lines may continue, a tool call without
// its result) is taken too: the daemon passes it for a file that has been
// idle for a while, so that the end of a session without hooks is not left
// waiting. Pending turns are summarised as segments fill up, not because
// the file went quiet: the session's end (SessionEnd, CatchUpEnded)
// summarises the rest.
func CatchUpTranscript(ctx context.Context, m *memory.Memory, path string, final bool) (*CaptureResult, error) {
	path = filepath.Clean(path) // catchUp refuses what is not the project's (follow.Open)
	trigger := "transcript"
	if final {
		trigger = "transcript-idle"
	}
	return catchUp(ctx, m, path, "", catchUpOptions{final: final, trigger: trigger})
}

// isHookPayload reports whether data is one JSON object with a
// hook_event_name.
func isHookPayload(data []byte) bool {
	t := bytes.TrimSpace(data)
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	var probe struct {
		Event *string `json:"hook_event_name"`
	}
	return json.Unmarshal(t, &probe) == nil && probe.Event != nil
}

// DrainResult counts what Drain did.
type DrainResult struct {
	Done    int
	Failed  int
	Results []*CaptureResult
	Errors  []error // of the jobs that failed, each saying which
	// Waiting are the unfinished jobs left in the queue, and why: due
	// later, settling, held by another worker.
	Waiting []watcher.Wait
	// Swept counts the temporary files of killed hooks cleaned up first.
	Swept watcher.Swept
}

// Drain runs the queue's due jobs until none is left or max jobs ran (max
// ≤ 0 means no limit): what a daemon's worker does, once, for commands
// that run without a daemon. It opens the queue and cursors itself,
// sweeps the temporary files of killed hooks first, and says what it
// left and why (DrainResult.Waiting).
// It returns an error only when the queue cannot be used; a failed job is
// counted and reported in Errors, and stays in the queue.
func Drain(ctx context.Context, m *memory.Memory, opts watcher.QueueOptions, max int) (*DrainResult, error) {
	w, err := newWorker(ctx, m, opts)
	if err != nil {
		return nil, err
	}
	swept, serr := w.q.Sweep(ctx)
	if serr != nil {
		m.Warn(serr.Error())
	}
	res, err := w.drain(ctx, max)
	if err != nil {
		return res, err
	}
	res.Swept = swept
	if res.Waiting, err = w.q.Waiting(ctx); err != nil {
		return res, err
	}
	return res, nil
}

// worker is a queue and the cursors, opened once for a run of jobs.
type worker struct {
	m       *memory.Memory
	q       *watcher.Queue
	cursors *watcher.Cursors
	// rejected are the inbox files Claim sent straight to failed/ since
	// the last drain: failures of the run as much as a job's.
	rejected []*watcher.Job
}

// newWorker opens the queue and the cursors and, as a worker starting up
// does, puts back what workers that stopped left in processing/
// (watcher.RecoverAfter): a job held that long, a job file cut short.
func newWorker(ctx context.Context, m *memory.Memory, opts watcher.QueueOptions) (*worker, error) {
	return openWorker(ctx, m, opts, true)
}

// openWorker opens the queue and the cursors, and recovers what stopped
// workers left when recover is set.
func openWorker(ctx context.Context, m *memory.Memory, opts watcher.QueueOptions, recoverJobs bool) (*worker, error) {
	w := &worker{m: m}
	onReject := opts.OnReject
	opts.OnReject = func(j *watcher.Job) {
		w.rejected = append(w.rejected, j)
		if onReject != nil {
			onReject(j)
		}
	}
	q, err := Queue(m, opts)
	if err != nil {
		return nil, err
	}
	cursors, err := Cursors(m)
	if err != nil {
		return nil, err
	}
	if !recoverJobs {
		w.q, w.cursors = q, cursors
		return w, nil
	}
	if _, err := q.Recover(ctx, watcher.RecoverAfter); err != nil && ctx.Err() == nil {
		m.Warn(err.Error())
	}
	w.q, w.cursors = q, cursors
	return w, nil
}

func (w *worker) drain(ctx context.Context, max int) (*DrainResult, error) {
	m, q, cursors := w.m, w.q, w.cursors
	res := &DrainResult{}
	defer w.countRejected(res)
	for max <= 0 || res.Done+res.Failed < max {
		j, err := q.Claim(ctx)
		if errors.Is(err, watcher.ErrEmpty) {
			break
		}
		if err != nil {
			return res, err
		}
		r, err := RunJob(ctx, m, q, cursors, j)
		if err != nil {
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			res.Failed++
			res.Errors = append(res.Errors, fmt.Errorf("job %s (%s): %w", j.ID, j.Kind, err))
			continue
		}
		res.Done++
		if r != nil {
			res.Results = append(res.Results, r)
		}
	}
	return res, nil
}

// countRejected adds the inbox files rejected since the last call to res
// as failures, each with its reason.
func (w *worker) countRejected(res *DrainResult) {
	for _, j := range w.rejected {
		res.Failed++
		res.Errors = append(res.Errors, fmt.Errorf("job %s (%s): %s", j.ID, j.Kind, j.LastError))
	}
	w.rejected = nil
}
