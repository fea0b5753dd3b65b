package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/ui"
)

type remoteOptions struct{ json, user bool }

func newRemoteCommand(g *globals) *cobra.Command {
	var opts remoteOptions
	cmd := &cobra.Command{
		Use:   "remote",
		Short: "Add, list and remove the git remotes cairn sync uses",
		Long: `Remotes are git repositories the memory syncs with: a primary and any
number of backups; cairn sync pushes to every one. They live in .cairn/.git/config,
so plain git sees them too. URLs: ssh (user@host:path, ssh://; the ssh agent or
~/.ssh keys), https (a token from CAIRN_GIT_TOKEN or .cairn/.state/credentials,
mode 600, lines "HOST TOKEN"; a line without a host is ignored), http (no token
is ever sent over it), git:// and local paths. Passwords in URLs are never
printed.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRemoteList(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	cmd.PersistentFlags().BoolVar(&opts.user, "user", false, "the user memory's remotes (cairn sync --user)")
	list := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the remotes",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRemoteList(cmd.Context(), g, opts)
		},
	}
	list.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	cmd.AddCommand(list,
		&cobra.Command{
			Use:   "add NAME URL",
			Short: "Add a remote",
			Args:  exactArgs(2),
			RunE: func(cmd *cobra.Command, args []string) error {
				return runRemoteAdd(cmd.Context(), g, opts, args)
			},
		},
		&cobra.Command{
			Use:     "remove NAME",
			Aliases: []string{"rm"},
			Short:   "Remove a remote (the remote itself is not touched)",
			Args:    exactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				return runRemoteRemove(cmd.Context(), g, opts, args)
			},
		},
	)
	return cmd
}

func runRemoteList(ctx context.Context, g *globals, opts remoteOptions) error {
	return withMemoryOf(ctx, g, opts.user, func(m *memory.Memory) error {
		rs, err := memsync.RedactedRemotes(m) // never a password, here or in JSON
		if err != nil {
			return err
		}
		return ui.Print(g.stdout, opts.json, rs, ui.RemotesJSON, ui.RemotesText)
	})
}

func runRemoteAdd(ctx context.Context, g *globals, opts remoteOptions, args []string) error {
	return withMemoryOf(ctx, g, opts.user, func(m *memory.Memory) error {
		r, err := memsync.AddRemote(ctx, m, args[0], args[1], g.dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(g.stdout, "added remote %s (%s)\n", r.Name, memory.RedactURL(r.URL))
		return nil
	})
}

func runRemoteRemove(ctx context.Context, g *globals, opts remoteOptions, args []string) error {
	return withMemoryOf(ctx, g, opts.user, func(m *memory.Memory) error {
		if err := memsync.RemoveRemote(ctx, m, args[0]); err != nil {
			return err
		}
		fmt.Fprintf(g.stdout, "removed remote %s\n", args[0])
		return nil
	})
}
