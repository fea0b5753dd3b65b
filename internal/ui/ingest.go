package ui

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/memory"
)

// IngestJSON writes the results of cairn ingest --json, one per file
// ingested.
func IngestJSON(w io.Writer, out []*capture.IngestResult) error { return JSON(w, NonNil(out)) }

// IngestText writes in one line what ingesting the file name did.
func IngestText(w io.Writer, name string, r *capture.IngestResult) error {
	_, err := fmt.Fprintln(w, IngestLine(name, r))
	return err
}

// IngestLine says in one line what ingesting a file did.
func IngestLine(name string, r *capture.IngestResult) string {
	head := fmt.Sprintf("%s: session %s (%s, %s)", Escape(name), Escape(r.Session), r.Format, Escape(r.Agent))
	if n := len(r.Sessions); n > 1 {
		head = fmt.Sprintf("%s: %d sessions %s … %s (%s, %s)", Escape(name), n, Escape(r.Session), Escape(r.Sessions[n-1].Session), r.Format, Escape(r.Agent))
	}
	if r.Ignored != "" {
		return head + ": ignored, " + r.Ignored
	}
	if r.Commit == "" {
		return fmt.Sprintf("%s: nothing new (%d events captured before)", head, r.Skipped)
	}
	parts := []string{CountOf(r.Events, "event", "events")}
	if r.Prompts > 0 {
		parts = append(parts, CountOf(r.Prompts, "prompt", "prompts"))
	}
	if r.Segments > 0 {
		s := CountOf(r.Segments, "summary", "summaries")
		if r.Fallback != "" {
			s += " (built-in summarizer: " + Escape(OneLine(r.Fallback)) + ")"
		}
		parts = append(parts, s)
	}
	if n := len(r.Items); n > 0 {
		parts = append(parts, CountOf(n, "item", "items"))
	}
	if r.Redactions > 0 {
		parts = append(parts, CountOf(r.Redactions, "secret redacted", "secrets redacted"))
	}
	verb := "updated"
	if r.Created {
		verb = "new"
	}
	return fmt.Sprintf("%s: %s, %s; commit %s", head, verb, strings.Join(parts, ", "), Short(r.Commit))
}

// Ingest is cairn ingest: it captures files into m (capture.IngestFiles)
// with a line per file, or their results as JSON at the end; a file not
// ingested is said through warn and makes an error.
func Ingest(ctx context.Context, w io.Writer, m *memory.Memory, files []string, opts capture.IngestOptions, asJSON bool, warn func(string)) error {
	var out []*capture.IngestResult
	failed, err := capture.IngestFiles(ctx, m, files, opts, warn, func(name string, res *capture.IngestResult) {
		if asJSON {
			out = append(out, res)
		} else {
			IngestText(w, name, res)
		}
	})
	if err != nil {
		return err
	}
	if asJSON {
		if err := IngestJSON(w, out); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d file(s) not ingested", failed, len(files))
	}
	return nil
}
