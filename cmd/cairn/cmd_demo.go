package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/internal/demo"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
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

func runDemo(ctx context.Context, parent *globals, opts demoOptions) (err error) {
	items, err := demo.Items()
	if err != nil {
		return err
	}
	p, err := demo.Create()
	if err != nil {
		return err
	}
	if !opts.keep {
		defer p.Remove()
	}
	project := p.Dir
	// The commands run as if started in the project, with no CAIRN_DIR
	// pointing elsewhere and checkpoints by the demo's author; the
	// process's directory and environment stay as they are.
	g := *parent
	g.chdir, g.dir = "", project
	g.getenv = func(name string) string {
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
	return demoSteps(ctx, &g, opts, p, items)
}

// demoSteps runs the demo's commands in g, which works in the demo's
// project p.
func demoSteps(ctx context.Context, g *globals, opts demoOptions, p *demo.Project, items []demo.Item) error {
	project := p.Dir

	step := func(title, cmdline string) {
		fmt.Fprintf(g.stdout, "\n== %s\n$ %s\n", title, cmdline)
	}
	fmt.Fprintf(g.stdout, "A temporary project with a git repository (code at %s): %s\n", ui.Short(p.Commit), project)

	step("Create the memory repository", "cairn init")
	if err := runInit(ctx, g, initOptions{}); err != nil {
		return err
	}
	step("Remember what the agent learned", "cairn remember --kind KIND --tag TAG ... TEXT")
	var ids []string
	for _, it := range items {
		ro := rememberOptions{kind: it.Kind, title: it.Title, importance: it.Importance, tags: it.Tags}
		fmt.Fprintf(g.stdout, "%-10s %q -> ", it.Kind, it.Title)
		before := g.stdout
		var idb strings.Builder
		g.stdout = &idb
		err := runRemember(ctx, g, ro, []string{it.Body})
		g.stdout = before
		if err != nil {
			return err
		}
		id := strings.TrimSpace(idb.String())
		ids = append(ids, id)
		fmt.Fprintln(g.stdout, id)
	}
	step("List the memory", "cairn list")
	if err := runList(ctx, g, listOptions{}); err != nil {
		return err
	}
	step("Name this point in time", "cairn tag baseline")
	if err := runTag(ctx, g, tagOptions{}, []string{"baseline"}); err != nil {
		return err
	}
	fmt.Fprintln(g.stdout, "tagged HEAD as baseline")

	step("A person edits a file by hand, and forgets another item", "$EDITOR .cairn/core/facts/...; cairn forget ID")
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	e, err := m.Get(ctx, ids[1])
	m.Close()
	if err != nil {
		return err
	}
	if err := demo.EditByHand(filepath.Join(project, memory.DirName, filepath.FromSlash(e.Path))); err != nil {
		return err
	}
	if err := runForget(ctx, g, ids[3]); err != nil {
		return err
	}
	step("What the next checkpoint will commit", "cairn status")
	if err := runStatus(ctx, g, statusOptions{}); err != nil {
		return err
	}
	step("Checkpoint it", `cairn checkpoint -m "note: integration database moved"`)
	if err := runCheckpoint(ctx, g, checkpointOptions{message: "note: integration database moved", event: "checkpoint"}); err != nil {
		return err
	}
	step("The history, with the code commit of each checkpoint", "cairn log")
	if err := runLog(ctx, g, logOptions{}); err != nil {
		return err
	}
	step("What changed since the baseline", "cairn diff baseline --stat && cairn diff baseline")
	if err := runDiff(ctx, g, diffOptions{stat: true, color: "never"}, []string{"baseline"}, nil); err != nil {
		return err
	}
	if err := runDiff(ctx, g, diffOptions{color: "never"}, []string{"baseline"}, nil); err != nil {
		return err
	}
	step("Bring the baseline back, as a new checkpoint", "cairn restore baseline")
	if err := runRestore(ctx, g, restoreOptions{}, "baseline", nil); err != nil {
		return err
	}
	if err := runLog(ctx, g, logOptions{n: 2}); err != nil {
		return err
	}
	step("An agent session is captured: prompts, transcript, observations, summary, decisions", "cairn ingest ~/.claude/projects/.../3f1c9a52-....jsonl")
	if err := runIngest(ctx, g, ingestOptions{}, []string{p.Transcript}); err != nil {
		return err
	}
	step("Search the whole memory", `cairn search "why was the retry test flaky"`)
	if err := runSearch(ctx, g, searchOptions{k: 3, mode: "hybrid"}, "why was the retry test flaky"); err != nil {
		return err
	}
	step("What an agent receives when its next session starts", "cairn context --budget-tokens 800")
	if err := runContext(ctx, g, contextOptions{budget: 800, format: "markdown"}); err != nil {
		return err
	}
	step("Any git client reads it", "git -C .cairn log --oneline && git -C .cairn status --short")
	if gitPath, err := exec.LookPath("git"); err == nil {
		cmd := exec.CommandContext(ctx, gitPath, "-C", memory.DirName, "log", "--oneline")
		cmd.Dir = project
		cmd.Stdout, cmd.Stderr = g.stdout, g.stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("git log: %w", err)
		}
		cmd = exec.CommandContext(ctx, gitPath, "-C", memory.DirName, "status", "--short")
		cmd.Dir = project
		cmd.Stdout, cmd.Stderr = g.stdout, g.stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("git status: %w", err)
		}
		fmt.Fprintln(g.stdout, "(git status: clean)")
	} else {
		fmt.Fprintln(g.stdout, "(git is not installed here; the memory is a plain git repository all the same)")
	}
	if opts.keep {
		fmt.Fprintf(g.stdout, "\nThe demo project is kept at %s\n", project)
	} else {
		fmt.Fprintln(g.stdout, "\nDone. Run `cairn demo --keep` to keep the project and explore it with git.")
	}
	return nil
}
