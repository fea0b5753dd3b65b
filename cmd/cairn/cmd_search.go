package main

import (
	"context"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type searchOptions struct {
	server.SearchFlags
	json bool
}

func newSearchCommand(g *globals) *cobra.Command {
	var opts searchOptions
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Find the memory that matches a query",
		Long: `Search the memory: keyword (BM25) and vector search fused, then reranked by
relevance, recency, importance and how often a memory was packed into an
agent's context (weights in cairn.yaml, search.weights). Each hit is a chunk
of a memory file: its title, path:lines, a snippet with the matched words
marked, and its score. --json prints the whole chunk too.

The words of QUERY are just words: no query syntax. When a cairn daemon
runs, the search goes through it; otherwise cairn opens the index itself,
bringing it up to date with the last checkpoint first.`,
		Example: `  cairn search job queue
  cairn search --kind decision --since 30d "which database"
  cairn search --mode keyword --json ULID | jq '.hits[0].text'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(strings.Join(args, " ")) == "" {
				return usagef("search needs a QUERY: the words to look for")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSearch(cmd.Context(), g, opts, strings.Join(args, " "))
		},
	}
	f := cmd.Flags()
	f.IntVarP(&opts.K, "k", "k", 10, "show `N` hits")
	f.StringVar(&opts.Mode, "mode", "hybrid", "hybrid, keyword or vector")
	f.StringArrayVar(&opts.Kinds, "kind", nil, "only memories of this `KIND` (repeat for more): "+strings.Join(recall.SearchKinds(), ", "))
	f.StringArrayVar(&opts.Layers, "layer", nil, "only memories in this `LAYER` (repeat for more): core, active or archival")
	f.StringVar(&opts.Session, "session", "", "only memories of this session (an `ID` or a unique prefix)")
	f.StringArrayVar(&opts.Tags, "tag", nil, "only memories with this `TAG` (repeat: all of them)")
	f.StringVar(&opts.Since, "since", "", "only memories created at or after `TIME` (2026-11-30, an RFC 3339 time, or an age: 36h, 7d, 2w)")
	f.StringVar(&opts.Until, "until", "", "only memories created before `TIME`")
	f.BoolVar(&opts.All, "all", false, "show faint hits too (match under search.min_match), marked as such")
	f.BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runSearch(ctx context.Context, g *globals, opts searchOptions, query string) error {
	so, err := opts.Options(time.Now())
	if err != nil {
		return usageError{err}
	}
	if len(query) > server.MaxQueryBytes {
		// Longer queries are cut, as the index would cut them.
		query = strings.ToValidUTF8(query[:server.MaxQueryBytes], "")
	}
	s, done, err := g.searcher(ctx, false)
	if err != nil {
		return err
	}
	defer done()
	res, err := s.Search(ctx, query, so)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		g.warn(w)
	}
	if opts.json {
		return ui.SearchJSON(g.stdout, res)
	}
	return ui.SearchText(g.stdout, res, ui.IsTerminal(g.stdout))
}

// searcher returns what searches the memory (recall.Open decides: the
// daemon, or the index opened here); done releases what was opened.
func (g *globals) searcher(ctx context.Context, forContext bool) (s recall.Searcher, done func(), err error) {
	dir, err := g.memoryDir()
	if err != nil {
		return nil, nil, err
	}
	opts := g.openOptions(dir)
	opts.ForContext = forContext
	return recall.Open(ctx, dir, opts)
}

// openOptions are how commands open a searcher of the memory in dir.
func (g *globals) openOptions(dir string) recall.OpenOptions {
	return recall.OpenOptions{
		Open:       func(ctx context.Context) (*memory.Memory, error) { return g.openDir(ctx, dir) },
		IndexWait:  g.memoryOptions().LockTimeout, // CAIRN_LOCK_TIMEOUT
		DaemonWait: g.daemonWait(),
		Progress:   ui.Progress(g.stderr, "indexing"),
		Warn:       g.warn,
	}
}
