package main

import (
	"context"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type initOptions struct{ claude, codex, global, remove bool }

func newInitCommand(g *globals) *cobra.Command {
	var opts initOptions
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the memory repository (.cairn/) in this project",
		Long: `Create .cairn/ in the current folder (or -C DIR): a git repository of its own
with a README for people browsing, a commented cairn.yaml, .gitignore,
.gitattributes and a first commit. If the project is a git repository,
.cairn/ is added to its .git/info/exclude; tracked files are never touched.
Running it again changes nothing.

--claude wires the memory into Claude Code: the capture hook goes into
.cairn/hooks/, its hooks into .claude/settings.json (--global: the user's
~/.claude/settings.json) and the MCP server (cairn mcp) into .mcp.json.
The user's other settings and hooks stay as they are, a copy of each file
is kept (FILE.cairn-backup) before cairn first changes it, and a file that
is not valid JSON is left alone. --remove takes cairn out of them again.
--codex does the same for Codex: .codex/hooks.json (--global: the user's)
and the MCP server in ${CODEX_HOME:-~/.codex}/config.toml.`,
		Example: `  cairn init --claude
  cairn init --codex --global
  cairn init --claude --remove`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if (opts.global || opts.remove) && !opts.claude && !opts.codex {
				return usagef("--global and --remove go with --claude or --codex")
			}
			return runInit(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.claude, "claude", false, "wire the memory into Claude Code (hooks and MCP server)")
	f.BoolVar(&opts.codex, "codex", false, "wire the memory into Codex (hooks and MCP server)")
	f.BoolVar(&opts.global, "global", false, "with --claude or --codex: edit the user's hooks instead of the project's")
	f.BoolVar(&opts.remove, "remove", false, "with --claude or --codex: take cairn's hooks and MCP server out again")
	return cmd
}

func runInit(ctx context.Context, g *globals, opts initOptions) error {
	project := g.dir
	if d := g.getenv("CAIRN_DIR"); d != "" && g.chdir == "" {
		project = g.path(d)
		if filepath.Base(project) == memory.DirName {
			project = filepath.Dir(project)
		}
	}
	if opts.remove {
		return wire(ctx, g, project, nil, opts)
	}
	m, res, err := memory.Init(ctx, project, g.memoryOptions())
	if m != nil {
		recall.Follow(m)
	}
	if err != nil {
		return err
	}
	defer m.Close()
	ui.InitText(g.stdout, m.Dir, res.Created, res.Commit, res.Excluded)
	return wire(ctx, g, project, m, opts)
}
