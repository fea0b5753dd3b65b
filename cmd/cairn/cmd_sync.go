package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type syncOptions struct {
	noPush    bool
	unrelated bool
	json      bool
	user      bool
}

func newSyncCommand(g *globals) *cobra.Command {
	var opts syncOptions
	cmd := &cobra.Command{
		Use:   "sync [REMOTE]",
		Short: "Fetch, merge and push the memory through its git remotes",
		Long: `sync fetches from REMOTE (every remote when none is named), fast-forwards
when it can and otherwise merges inside cairn, so that nothing is lost:
a file changed on one side takes that side; session logs take the union
of both; session.yaml merges field by field; an item changed on both sides
keeps this machine's version and writes the other beside it as
<name>.conflict-<host>-<time>.md (see cairn resolve). Then it pushes,
merging again when the remote moved meanwhile. It never forces a push
and refuses a remote whose history was rewritten.`,
		Args: rangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSync(cmd.Context(), g, opts, args)
		},
	}
	cmd.Flags().BoolVar(&opts.noPush, "no-push", false, "fetch and merge only")
	cmd.Flags().BoolVar(&opts.unrelated, "allow-unrelated", false, "merge a remote memory that shares no history with this one")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	cmd.Flags().BoolVar(&opts.user, "user", false, "sync the user memory through its own remotes (cairn remote add --user)")
	return cmd
}

func runSync(ctx context.Context, g *globals, opts syncOptions, args []string) error {
	return withMemoryOf(ctx, g, opts.user, func(m *memory.Memory) error {
		so := memsync.SyncOptions{NoPush: opts.noPush, AllowUnrelated: opts.unrelated, Getenv: g.getenv}
		if len(args) == 1 {
			so.Remote = args[0]
		}
		return ui.Sync(ctx, g.stdout, m, so, opts.json)
	})
}
