package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/memory"
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
	c.MemoryDir, c.PromptContext = m.Dir, m.Config.Hooks.PromptContext
	if c.Self, err = hooks.SelfCommand(); err != nil {
		return err
	}
	paths, err := hooks.IgnoreScripts(m.Dir, func(p string) bool {
		_, err := m.History().ReadFileAt(ctx, "HEAD", p)
		return err == nil
	})
	if err != nil {
		return err
	}
	if len(paths) > 0 {
		_, err = m.Checkpoint(ctx, memory.CheckpointOptions{Message: "hooks: keep the agent hook scripts out of the memory's history", Event: "init", Paths: paths})
		if err != nil && !errors.Is(err, memory.ErrNothingToDo) {
			return err
		}
	}
	res, err := c.Install()
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
