package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/internal/ui"
)

// claude is what cairn init --claude wires for the project: hooks owns
// the files and how they are edited.
func claude(g *globals, project string, global bool) (hooks.Claude, error) {
	c := hooks.Claude{Project: project, MemoryDir: filepath.Join(project, memory.DirName), Global: global}
	if global {
		home, err := g.home()
		if err != nil {
			return c, fmt.Errorf("--global: %w", err)
		}
		c.Home, c.ConfigHome = home, g.getenv("XDG_CONFIG_HOME")
	}
	return c, nil
}

// initClaude wires the memory m into Claude Code (hooks.Claude.Install),
// after keeping the hook scripts out of the memory's history.
func initClaude(ctx context.Context, g *globals, m *memory.Memory, global bool) error {
	project := filepath.Dir(m.Dir)
	c, err := claude(g, project, global)
	if err != nil {
		return err
	}
	res, err := server.InstallClaude(ctx, m, c)
	ui.ClaudeInstalled(g.stdout, project, res)
	return err
}

// removeClaude takes cairn's hooks and MCP server out of Claude Code's
// files (hooks.Claude.Remove).
func removeClaude(g *globals, project string, global bool) error {
	c, err := claude(g, project, global)
	if err != nil {
		return err
	}
	res, err := c.Remove()
	ui.ClaudeRemoved(g.stdout, project, res)
	return err
}
