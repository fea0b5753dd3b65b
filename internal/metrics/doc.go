// Package metrics keeps a memory's local event log: what summaries,
// context packs, searches and captures cost, and the daemon's gauges,
// one JSON line per event under .cairn/.state/metrics/ (0600 files in a
// 0700 folder, never committed: .state is not part of the memory).
//
// The log holds numbers, kinds and names only (provider, model, the
// event that asked for a pack, a search mode, a job kind), never text of
// the memory: Record turns any string field that is not a short name
// into "other".
//
// Recording:
//
//	metrics.Open(m.StatePath("")).Record(ctx, metrics.Event{Kind: metrics.KindSearch, Mode: "hybrid", Hits: 8, MS: 3.2})
//
// Open does no I/O. Record appends one line with one write(2) to
// events.jsonl opened O_APPEND, so processes appending at once never
// interleave; it never returns an error (an event that cannot be
// written is dropped, with one debug line per Log) and costs a few
// microseconds (BenchmarkRecord; docs/benchmarks.md). When the file
// passes MaxBytes it is renamed aside (events-<time>.jsonl) under a lock,
// and the oldest rotated files beyond MaxFiles are removed: the log
// never holds more than (MaxFiles+1)×MaxBytes and a line.
//
// Reading: Read returns the events since a time; a line a crash cut
// short, or anything else that is not an event, is skipped. Summarize
// makes the totals and percentiles `cairn stats` prints; Stats is its
// JSON shape.
//
// Plots, for the viewer's Metrics page:
//
//	events, err := metrics.Read(ctx, m.StatePath(""), time.Now().AddDate(0, 0, -30))
//	plots := metrics.Plots(events, time.Local)
//	for _, p := range plots {
//		// p.Name, p.Title, p.XLabel, p.YLabel, p.Series (the data, for
//		// JSON) and p.SVG, a template.HTML to put in the page as it is.
//	}
//
// The plots are summary-tokens (tokens spent summarising per day, one
// series per provider), pack-tokens (tokens injected per session start,
// and the budget), search-latency (p50 and p95 per day), repo-size and
// commits (the memory's growth, from the gauges). Their SVG draws text
// and axes in currentColor and each series in var(--cairn-plot-1) to
// var(--cairn-plot-6), with mid-tone fallbacks, so that it reads in a
// light and a dark theme; the page may set those variables.
//
// Sampler is the daemon's part that records the gauges (queue depth,
// index size, repository size, commit count) every few minutes.
package metrics
