package ui

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/internal/recall"
)

// SearchJSON writes search results as cairn search --json prints them.
func SearchJSON(w io.Writer, res *recall.SearchResults) error { return JSON(w, res) }

// SearchText writes hits for people: a title line with the score and
// the match (marked faint under search.min_match), where
// the chunk is, and the snippet with the matched words marked (bold on a
// terminal, «like this» otherwise).
func SearchText(w io.Writer, res *recall.SearchResults, tty bool) error {
	if len(res.Hits) == 0 {
		_, err := fmt.Fprintf(w, "no matches for %q\n", res.Query)
		return err
	}
	marks := strings.NewReplacer()
	if tty {
		marks = strings.NewReplacer("«", "\x1b[1m", "»", "\x1b[0m")
	}
	for i, h := range res.Hits {
		if i > 0 {
			fmt.Fprintln(w)
		}
		meta := []string{Escape(h.Kind), Escape(h.Layer)}
		if h.Session != "" {
			meta = append(meta, "session "+Escape(short8(h.Session)))
		}
		if h.Created != nil {
			meta = append(meta, h.Created.Local().Format("2006-01-02"))
		}
		faint := ""
		if h.Faint {
			faint = ", faint"
		}
		fmt.Fprintf(w, "%d. %s  (%.2f, match %.2f%s)\n", i+1, Escape(OneLine(h.Title)), h.Score, h.Scores.Match, faint)
		fmt.Fprintf(w, "   %s:%d-%d  %s\n", Escape(h.Path), h.StartLine, h.EndLine, strings.Join(meta, " · "))
		if h.Snippet != "" {
			// Escaped first: the only escapes that reach the terminal
			// are the marks'.
			fmt.Fprintf(w, "   %s\n", marks.Replace(Escape(h.Snippet)))
		}
	}
	return nil
}

// ContextJSON writes a context pack as cairn context --format json prints
// it.
func ContextJSON(w io.Writer, p *recall.Pack) error { return JSON(w, p) }

// ContextText writes the pack's Markdown as the agent receives it; when
// nothing fits, it says so through warn instead.
func ContextText(w io.Writer, p *recall.Pack, warn func(string)) error {
	if p.Text == "" && len(p.LeftOut) == 0 {
		// A new memory: "nothing fits" read as a budget too small.
		warn("nothing to pack yet: the memory holds no item and no session with anything to show")
		return nil
	}
	if p.Text == "" {
		warn(fmt.Sprintf("nothing fits in %d tokens (%d memories left out)", p.BudgetTokens, len(p.LeftOut)))
		return nil
	}
	_, err := io.WriteString(w, p.Text)
	return err
}

// PrintContext is cairn context: the pack s makes for opts, recorded in
// the metrics of the memory find finds (when it finds one), its warnings
// through warn.
func PrintContext(ctx context.Context, w io.Writer, s recall.Searcher, opts recall.ContextOptions, find func() (string, error), asJSON bool, warn func(string)) error {
	start := time.Now()
	p, err := s.Context(ctx, opts)
	if err != nil {
		return err
	}
	if dir, err := find(); err == nil {
		metrics.Open(filepath.Join(dir, memory.StateDir)).Record(ctx, p.Metric("cli", time.Since(start)))
	}
	for _, msg := range p.Warnings {
		warn(msg)
	}
	if asJSON {
		return ContextJSON(w, p)
	}
	return ContextText(w, p, warn)
}
