package capture

import (
	"cmp"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/internal/summarize"
	"github.com/cairn-mem/cairn/internal/summarize/llm"
	"github.com/cairn-mem/cairn/watcher"
)

// recordSummary keeps what one summary cost in the metrics log: who
// wrote it, with which model, its tokens and time; none of its text.
// The tokens of a provider's failed tries are in its daily budget
// (.state/summarize/usage.json), not here: the fallback's result is.
func recordSummary(ctx context.Context, m *memory.Memory, res summarize.Result, took time.Duration) {
	ev := metrics.Event{Kind: metrics.KindSummary, Provider: res.Provider, TokensIn: res.Usage.InputTokens,
		TokensOut: res.Usage.OutputTokens, Fallback: res.FallbackReason != "", MS: metrics.Millis(took)}
	if res.Provider != "extractive" {
		ev.Model = cmp.Or(m.Config.Summarize.Model, llm.DefaultModel)
	}
	metrics.Open(m.StatePath("")).Record(ctx, ev)
}

// recordCapture keeps a job done in the metrics log: its kind, the
// events it captured, its bytes, and the time from its creation (the
// hook, or the transcript's growth) to now, its commit.
func recordCapture(ctx context.Context, m *memory.Memory, j *watcher.Job, size int64, res *CaptureResult) {
	ev := metrics.Event{Kind: metrics.KindCapture, Name: j.Kind, Bytes: size}
	if res != nil {
		ev.Events = res.Events
	}
	if !j.Created.IsZero() {
		ev.MS = metrics.Millis(time.Since(j.Created))
	}
	metrics.Open(m.StatePath("")).Record(ctx, ev)
}

// jobBytes is the size of what a job captures: its payload, its
// transcript range or its inbox file.
func jobBytes(q *watcher.Queue, j *watcher.Job) int64 {
	n := int64(len(j.Payload))
	if j.Pointer != nil {
		n += max(j.Pointer.To-j.Pointer.From, 0)
	}
	if att := q.Attachment(j); att != "" {
		if fi, err := os.Lstat(att); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// Gauges samples the sizes the daemon's metrics follow: jobs pending or
// in progress, the search index's and the repository's bytes on disk,
// and the checkpoints on HEAD's first-parent line.
func Gauges(ctx context.Context, m *memory.Memory) (metrics.Event, error) {
	ev := metrics.Event{Kind: metrics.KindGauge}
	q, err := Queue(m, watcher.QueueOptions{})
	if err != nil {
		return ev, err
	}
	st, err := q.Status(ctx)
	if err != nil {
		return ev, err
	}
	ev.Queue = st.Pending + st.Processing
	log, err := m.History().Log(ctx, memory.LogOptions{})
	if err != nil {
		return ev, err
	}
	ev.Commits = len(log)
	ev.IndexBytes = du(m.StatePath("index"))
	ev.RepoBytes = du(filepath.Join(m.Dir, ".git"))
	return ev, nil
}

// du is the bytes of the regular files under dir; what cannot be read
// counts nothing.
func du(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
