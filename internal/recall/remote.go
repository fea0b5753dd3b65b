package recall

import (
	"context"
	"net/url"
	"strconv"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
)

// Remote searches and packs context through a running daemon: it holds
// the index, which one process at a time may have open.
type Remote struct{ *client.Client }

var (
	_ Searcher = Remote{}
	_ Searcher = (*Index)(nil)
)

// Search asks the daemon to search.
func (c Remote) Search(ctx context.Context, query string, opts SearchOptions) (*SearchResults, error) {
	q := url.Values{"q": {query}}
	if opts.K > 0 {
		q.Set("k", strconv.Itoa(opts.K))
	}
	if opts.Mode != "" {
		q.Set("mode", string(opts.Mode))
	}
	q["kind"], q["layer"], q["tag"] = opts.Kinds, opts.Layers, opts.Tags
	if opts.Session != "" {
		q.Set("session", opts.Session)
	}
	if !opts.Since.IsZero() {
		q.Set("since", opts.Since.Format(time.RFC3339Nano))
	}
	if !opts.Until.IsZero() {
		q.Set("until", opts.Until.Format(time.RFC3339Nano))
	}
	if opts.All {
		q.Set("all", "true")
	}
	var r struct {
		SearchResults
		Warnings []string `json:"warnings"`
	}
	if err := c.Get(ctx, "/api/search", q, &r); err != nil {
		return nil, err
	}
	r.SearchResults.Warnings = r.Warnings
	if r.Hits == nil {
		r.Hits = []SearchHit{}
	}
	return &r.SearchResults, nil
}

// Context asks the daemon for a context pack.
func (c Remote) Context(ctx context.Context, opts ContextOptions) (*Pack, error) {
	q := url.Values{}
	if opts.Query != "" {
		q.Set("q", opts.Query)
	}
	if opts.Budget != 0 {
		q.Set("budget_tokens", strconv.Itoa(opts.Budget))
	}
	if opts.Session != "" {
		q.Set("session", opts.Session)
	}
	var r struct {
		Pack
		Warnings []string `json:"warnings"`
	}
	if err := c.Get(ctx, "/api/context", q, &r); err != nil {
		return nil, err
	}
	r.Pack.Warnings = r.Warnings
	return &r.Pack, nil
}

// Searcher answers searches and packs context: a *Index, which
// the process serving the API has open, or a *Client of another one.
type Searcher interface {
	Search(ctx context.Context, query string, opts SearchOptions) (*SearchResults, error)
	Context(ctx context.Context, opts ContextOptions) (*Pack, error)
}
