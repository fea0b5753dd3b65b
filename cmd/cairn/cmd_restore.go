package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type restoreOptions struct {
	codeCommit string
	json       bool
}

func newRestoreCommand(g *globals) *cobra.Command {
	var opts restoreOptions
	cmd := &cobra.Command{
		Use:   "restore REV [-- PATH...] | restore --code-commit SHA",
		Short: "Bring back the memory as it was at a checkpoint, as a new checkpoint",
		Long: `Make the memory (or only PATHs of it) what it was at REV, and checkpoint the
result. History is never rewritten: the restore is a new commit, and changes
not yet checkpointed are checkpointed first, so nothing is lost.

--code-commit SHA restores the memory as it was when the project's code was
at SHA: the newest checkpoint made at SHA or at a commit in its history.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			revs, paths := splitDash(cmd, args)
			switch {
			case opts.codeCommit != "" && len(revs) > 0:
				return usagef("give either REV or --code-commit, not both")
			case opts.codeCommit == "" && len(revs) != 1:
				return usagef("restore needs one REV (or --code-commit SHA)")
			}
			rev := opts.codeCommit
			if len(revs) == 1 {
				rev = revs[0]
			}
			return runRestore(cmd.Context(), g, opts, rev, paths)
		},
	}
	cmd.Flags().StringVar(&opts.codeCommit, "code-commit", "", "restore the memory as it was when the code was at `SHA`")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runRestore(ctx context.Context, g *globals, opts restoreOptions, rev string, paths []string) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		return ui.Restore(ctx, g.stdout, m, rev, opts.codeCommit, g.dir, paths, opts.json)
	})
}
