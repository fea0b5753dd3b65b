package main

import (
	"context"
	"io"

	"github.com/cairn-mem/cairn/internal/demo"
	"github.com/spf13/cobra"
)

type demoOptions struct{ keep bool }

func newDemoCommand(g *globals) *cobra.Command {
	var opts demoOptions
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Show cairn at work on sample data in a temporary project",
		Long: `Create a temporary project with a git repository, and run cairn's main
job on bundled sample memory: init, remember, checkpoint, a hand edit, log,
diff and restore; then the capture of a Claude Code session (ingest), a
search, and the context an agent's next session would receive. Nothing
outside the temporary folder is touched.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDemo(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.keep, "keep", false, "keep the temporary project to explore it afterwards")
	return cmd
}

func runDemo(ctx context.Context, parent *globals, opts demoOptions) error {
	p, err := demo.Create()
	if err != nil {
		return err
	}
	if !opts.keep {
		defer p.Remove()
	}
	// The commands run as if started in the project, with no CAIRN_DIR
	// pointing elsewhere and checkpoints by the demo's author; the
	// process's directory and environment stay as they are.
	getenv := func(name string) string {
		switch name {
		case "CAIRN_DIR":
			return ""
		case "CAIRN_AUTHOR_NAME":
			return "cairn demo"
		case "CAIRN_AUTHOR_EMAIL":
			return "demo@cairn.invalid"
		}
		return parent.getenv(name)
	}
	cairn := func(ctx context.Context, stdout io.Writer, args ...string) error {
		g := *parent
		g.getwd = func() (string, error) { return p.Dir, nil }
		g.getenv, g.stdout = getenv, stdout
		root := newRootCommand(&g)
		root.SetArgs(args)
		root.SetIn(g.stdin)
		root.SetOut(stdout)
		root.SetErr(g.stderr)
		return root.ExecuteContext(ctx)
	}
	return demo.Run(ctx, p, demo.Options{Stdout: parent.stdout, Stderr: parent.stderr, Cairn: cairn, Keep: opts.keep})
}
