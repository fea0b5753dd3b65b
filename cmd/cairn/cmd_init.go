package main

import (
	"context"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/agents"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newInitCommand(g *globals) *cobra.Command {
	var opts agents.Wire
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
and the MCP server in ${CODEX_HOME:-~/.codex}/config.toml. --gemini does it
in .gemini/settings.json (hooks and MCP server); --cursor puts hooks in
.cursor/hooks.json and the context in .cursor/rules/cairn.mdc, which cairn
keeps current (out of git). Several agents may be named at once.`,
		Example: `  cairn init --claude --codex
  cairn init --gemini --global
  cairn init --cursor --remove`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if (opts.Global || opts.Remove) && !opts.Claude && !opts.Codex && !opts.Gemini && !opts.Cursor || opts.Global && opts.Cursor {
				return usagef("--global and --remove go with --claude, --codex, --gemini or --cursor (--global not with --cursor)")
			}
			return runInit(cmd.Context(), g, opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.Claude, "claude", false, "wire the memory into Claude Code (hooks and MCP server)")
	f.BoolVar(&opts.Codex, "codex", false, "wire the memory into Codex (hooks and MCP server)")
	f.BoolVar(&opts.Gemini, "gemini", false, "wire the memory into Gemini CLI (hooks and MCP server)")
	f.BoolVar(&opts.Cursor, "cursor", false, "wire the memory into Cursor (hooks and a rules file)")
	f.BoolVar(&opts.Global, "global", false, "edit the user's settings (~/.claude, ~/.codex, ~/.gemini) instead of the project's")
	f.BoolVar(&opts.Remove, "remove", false, "take cairn's hooks and MCP server out of the agents named again")
	return cmd
}

func runInit(ctx context.Context, g *globals, opts agents.Wire) error {
	project := g.dir
	if d := g.getenv("CAIRN_DIR"); d != "" && g.chdir == "" {
		project = g.path(d)
		if filepath.Base(project) == memory.DirName {
			project = filepath.Dir(project)
		}
	}
	opts.Project, opts.Getenv = project, g.getenv
	if opts.Remove {
		return wire(ctx, g, nil, opts)
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
	return wire(ctx, g, m, opts)
}

// wire wires the memory m into the agents opts names (agents.Wire).
func wire(ctx context.Context, g *globals, m *memory.Memory, opts agents.Wire) error {
	res, err := opts.Run(ctx, m)
	ui.Wired(g.stdout, opts.Project, opts.Remove, res.Claude, res.Codex, res.Gemini, res.Cursor)
	return err
}
