package main

import (
	"context"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/internal/ui"
)

// wire wires the memory m of project into the agents opts names, or with
// --remove (m is nil then) takes it out of them: hooks owns the files and
// how they are edited.
func wire(ctx context.Context, g *globals, project string, m *memory.Memory, opts initOptions) error {
	if opts.claude {
		c, err := hooks.NewClaude(project, opts.global, g.getenv)
		if err != nil {
			return err
		}
		if opts.remove {
			res, err := c.Remove()
			ui.ClaudeRemoved(g.stdout, project, res)
			if err != nil {
				return err
			}
		} else {
			// Keeps the hook scripts out of the memory's history first.
			res, err := server.InstallClaude(ctx, m, c)
			ui.ClaudeInstalled(g.stdout, project, res)
			if err != nil {
				return err
			}
		}
	}
	if !opts.codex {
		return nil
	}
	c, err := hooks.NewCodex(project, opts.global, m != nil && m.Config.Hooks.PromptContext, g.getenv)
	if err != nil {
		return err
	}
	if opts.remove {
		res, err := c.Remove()
		ui.CodexRemoved(g.stdout, project, res)
		return err
	}
	res, err := c.Install()
	ui.CodexInstalled(g.stdout, project, res)
	return err
}
