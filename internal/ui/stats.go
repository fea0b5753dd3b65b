package ui

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/metrics"
)

// StatsJSON writes the metrics' totals and percentiles (cairn stats
// --json; README documents the shape).
func StatsJSON(w io.Writer, st metrics.Stats) error { return JSON(w, st) }

// StatsText writes one row per kind of event: how many, the time each
// took (p50, p95, max), and its totals; then the latest gauges.
func StatsText(w io.Writer, st metrics.Stats) error {
	since := "all the log keeps"
	if !st.Since.IsZero() {
		since = "since " + st.Since.Local().Format("2006-01-02 15:04")
	}
	fmt.Fprintf(w, "%s: %s\n", since, plural(st.Events, "event", "events"))
	if st.Events == 0 {
		_, err := fmt.Fprintln(w, "nothing recorded yet: summaries, context packs, searches and captures are recorded as they happen")
		return err
	}
	tw := table(w)
	fmt.Fprintln(tw, "\tcount\tp50\tp95\tmax\ttotals")
	row := func(name string, n int, d metrics.Dist, totals string) {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", name, n, millis(d.P50), millis(d.P95), millis(d.Max), totals)
	}
	s := st.Summaries
	row("summaries", s.Count, s.MS, fmt.Sprintf("%s tokens in, %s out; %s", thousands(s.TokensIn), thousands(s.TokensOut), plural(s.Fallbacks, "fallback", "fallbacks")))
	for _, p := range s.Providers {
		fmt.Fprintf(tw, "  %s\t%d\t\t\t\t%s in, %s out\n", Escape(strings.TrimSpace(p.Provider+" "+p.Model)), p.Count, thousands(p.TokensIn), thousands(p.TokensOut))
	}
	p := st.Packs
	row("context packs", p.Count, p.MS, fmt.Sprintf("%s tokens (p50 %s, p95 %s a pack; budget %.0f%% full at p50); %s, %d left out",
		thousands(p.Tokens), thousands(int64(p.PerPack.P50)), thousands(int64(p.PerPack.P95)), 100*p.Fill.P50, plural(p.Items, "memory", "memories"), p.LeftOut))
	for _, e := range slices.Sorted(maps.Keys(p.ByEvent)) {
		fmt.Fprintf(tw, "  %s\t%d\t\t\t\t%s of packs\n", Escape(e), p.ByEvent[e], percent(p.ByEvent[e], p.Count))
	}
	q := st.Searches
	row("searches", q.Count, q.MS, fmt.Sprintf("hits p50 %.0f, max %.0f", q.Hits.P50, q.Hits.Max))
	for _, m := range slices.Sorted(maps.Keys(q.ByMode)) {
		fmt.Fprintf(tw, "  %s\t%d\t\t\t\t%s of searches\n", Escape(m), q.ByMode[m], percent(q.ByMode[m], q.Count))
	}
	c := st.Captures
	row("captures", c.Count, c.MS, fmt.Sprintf("%s, %s (time from hook to commit)", plural(int(c.Events), "event", "events"), humanBytes(c.Bytes)))
	if err := tw.Flush(); err != nil {
		return err
	}
	if g := st.Gauge; g != nil {
		fmt.Fprintf(w, "at %s: %s queued, index %s, repository %s, %s\n", g.Time.Local().Format("2006-01-02 15:04"),
			plural(g.Queue, "job", "jobs"), humanBytes(g.IndexBytes), humanBytes(g.RepoBytes), plural(g.Commits, "checkpoint", "checkpoints"))
	}
	return nil
}

// millis writes a time in milliseconds short: 0.4ms, 12ms, 3.4s, 2m05s.
func millis(ms float64) string {
	d := time.Duration(ms * float64(time.Millisecond))
	switch {
	case ms == 0:
		return "-"
	case ms < 10:
		return fmt.Sprintf("%.1fms", ms)
	case d < time.Second:
		return fmt.Sprintf("%.0fms", ms)
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// thousands writes n with commas: 12,345.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// plural writes n and the noun that goes with it: 1 event, 3 events.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(int64(n)) + " " + many
}

// percent writes n of total as a whole percentage.
func percent(n, total int) string {
	if total == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(total))
}
