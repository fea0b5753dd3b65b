package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/spf13/cobra"
)

type verifyOptions struct {
	repair  bool
	noIndex bool
	json    bool
}

func newVerifyCommand(g *globals) *cobra.Command {
	var opts verifyOptions
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check the memory's history and search index; fetch damaged objects from a remote",
		Long: `verify reads every object of the memory's history and checks that it is
there and hashes to its name (as git fsck does), lists conflict copies left
by syncs, and opens the search index (which repairs or rebuilds it when it
is damaged). With --repair, missing or corrupt objects are fetched from the
remotes.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runVerify(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.repair, "repair", false, "fetch missing or corrupt objects from the remotes")
	cmd.Flags().BoolVar(&opts.noIndex, "no-index", false, "leave the search index alone")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runVerify(ctx context.Context, g *globals, opts verifyOptions) error {
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	rep, verr := memsync.Verify(ctx, m, memsync.VerifyOptions{Repair: opts.repair})
	if rep == nil {
		return verr
	}
	if !opts.noIndex && verr == nil {
		rep.IndexDocs, rep.IndexNote = recall.CheckIndex(ctx, m)
	}
	if opts.json {
		if err := g.printJSON(rep); err != nil {
			return err
		}
		return verr
	}
	fmt.Fprintf(g.stdout, "history: %d objects checked\n", rep.Objects)
	for _, p := range rep.Problems {
		state := ""
		if p.Fixed {
			state = " (repaired)"
		}
		where := ""
		if p.Path != "" {
			where = " at " + p.Path
		}
		fmt.Fprintf(g.stdout, "  %s %s %s%s%s\n", p.Kind, p.Type, p.Object, where, state)
	}
	if rep.Repaired > 0 {
		fmt.Fprintf(g.stdout, "repaired %d objects from %v\n", rep.Repaired, rep.Remotes)
	}
	for _, p := range rep.Links {
		fmt.Fprintf(g.stdout, "  link      %s (a symbolic link in the work tree; cairn does not follow it: rm %s)\n", p, filepath.Join(m.Dir, filepath.FromSlash(p)))
	}
	for _, p := range rep.CommittedLinks {
		fmt.Fprintf(g.stdout, "  link      %s (a symbolic link HEAD records; remove it and cairn checkpoint)\n", p)
	}
	for _, c := range rep.Conflicts {
		fmt.Fprintf(g.stdout, "  conflict  %s (beside %s; settle with cairn resolve)\n", c.Path, c.Original)
	}
	switch {
	case opts.noIndex, verr != nil:
	case rep.IndexNote != "":
		fmt.Fprintf(g.stdout, "search index: %s\n", rep.IndexNote)
	default:
		fmt.Fprintf(g.stdout, "search index: %d documents, up to date\n", rep.IndexDocs)
	}
	if verr == nil {
		fmt.Fprintln(g.stdout, "ok")
	}
	return verr
}
