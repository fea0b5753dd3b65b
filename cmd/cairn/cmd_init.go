package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/memory"
	"github.com/spf13/cobra"
)

type initOptions struct{}

func newInitCommand(g *globals) *cobra.Command {
	var opts initOptions
	return &cobra.Command{
		Use:   "init",
		Short: "Create the memory repository (.cairn/) in this project",
		Long: `Create .cairn/ in the current folder (or -C DIR): a git repository of its own
with a README for people browsing, a commented cairn.yaml, .gitignore,
.gitattributes and a first commit. If the project is a git repository,
.cairn/ is added to its .git/info/exclude; tracked files are never touched.
Running it again changes nothing.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInit(cmd.Context(), g, opts)
		},
	}
}

func runInit(ctx context.Context, g *globals, _ initOptions) error {
	project := "."
	if d := os.Getenv("CAIRN_DIR"); d != "" && g.chdir == "" {
		project = d
		if filepath.Base(filepath.Clean(d)) == memory.DirName {
			project = filepath.Dir(filepath.Clean(d))
		}
	}
	m, res, err := memory.Init(ctx, project, g.memoryOptions())
	if err != nil {
		return err
	}
	defer m.Close()
	if !res.Created {
		fmt.Fprintf(g.stdout, "cairn memory already initialised in %s; nothing changed\n", m.Dir)
		if res.Excluded != "" {
			fmt.Fprintf(g.stdout, "added /.cairn/ to %s\n", res.Excluded)
		}
		return nil
	}
	fmt.Fprintf(g.stdout, "Initialised cairn memory in %s (commit %s)\n", m.Dir, short(res.Commit))
	if res.Excluded != "" {
		fmt.Fprintf(g.stdout, "added /.cairn/ to %s so the project's git ignores it\n", res.Excluded)
	}
	return nil
}

func short(h string) string {
	if len(h) > 10 {
		return h[:10]
	}
	return h
}
