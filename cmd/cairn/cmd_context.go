package main

import (
	"context"
	"strings"

	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type contextOptions struct {
	query, session, format string
	budget                 int
}

func newContextCommand(g *globals) *cobra.Command {
	var opts contextOptions
	cmd := &cobra.Command{
		Use:   "context",
		Short: "Print the memory an agent should receive, within a token budget",
		Long: `Print the context pack an agent receives at the start of a session or with
a prompt: pinned and core memories first (most important first), then the
current session's state and summary (the latest session's, without
--session), then what --query retrieves from the rest of the memory. No
memory appears twice, the text never exceeds the budget, and it ends with
what was left out and how to fetch it (cairn show ID).

The default budget, search.context_budget in cairn.yaml (2000 tokens),
keeps the pack well under the 10,000 characters at which Claude Code cuts
a hook's output. Memories the query retrieved count as referenced, which
ranks them higher in later searches.`,
		Example: `  cairn context
  cairn context --query "flaky checkout tests" --budget-tokens 800
  cairn context --format json | jq .left_out`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("budget-tokens") && opts.budget < 1 {
				return usagef("--budget-tokens %d: want a positive number of tokens", opts.budget)
			}
			return runContext(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.query, "query", "q", "", "retrieve memory related to `QUERY`")
	f.IntVar(&opts.budget, "budget-tokens", 0, "most tokens the pack may have `N` (default search.context_budget)")
	f.StringVar(&opts.session, "session", "", "the current session (an `ID` or a unique prefix)")
	f.StringVar(&opts.format, "format", "markdown", "markdown or json")
	return cmd
}

func runContext(ctx context.Context, g *globals, opts contextOptions) error {
	if opts.format != "markdown" && opts.format != "md" && opts.format != "json" {
		return usagef("--format %q: want markdown or json", opts.format)
	}
	if opts.budget > server.MaxBudget {
		return usagef("--budget-tokens %d: at most %d", opts.budget, server.MaxBudget)
	}
	if len(opts.query) > server.MaxQueryBytes {
		return usagef("--query is longer than %d bytes", server.MaxQueryBytes)
	}
	var s recall.Searcher
	if strings.TrimSpace(opts.query) == "" {
		// Nothing to retrieve: the pack needs the files, not the index,
		// whose opening costs more than the rest.
		m, err := g.open(ctx)
		if err != nil {
			return err
		}
		defer m.Close()
		s = recall.ContextOnly{M: m}
	} else {
		var done func()
		var err error
		if s, done, err = g.searcher(ctx, true); err != nil {
			return err
		}
		defer done()
	}
	copts := recall.ContextOptions{Query: opts.query, Budget: opts.budget, Session: opts.session}
	return ui.PrintContext(ctx, g.stdout, s, copts, g.memoryDir, opts.format == "json", g.warn)
}
