package main

import (
	"context"
	"log/slog"
	"runtime/debug"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/server/mcpserve"
	"github.com/spf13/cobra"
)

func newMCPCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve the memory's tools to an agent over MCP on stdio",
		Long: `Serve the Model Context Protocol on standard input and output, for an agent
such as Claude Code (cairn init --claude registers it in .mcp.json). Tools:
search, get, timeline, remember, checkpoint, context and session_status.

When a cairn daemon runs, searches and writes go through it; otherwise this
process opens the search index itself while calls come, and lets it go when
they stop. Standard output carries only the protocol; notices go to
standard error.`,
		Example: `  claude mcp add cairn -- cairn mcp
  cairn -C ~/src/project mcp`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMCP(cmd.Context(), g)
		},
	}
}

func runMCP(ctx context.Context, g *globals) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		v := "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			v = bi.Main.Version
		}
		s := &mcpserve.MCP{
			Mem:     m,
			Version: v,
			Log:     slog.New(slog.NewTextHandler(g.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		}
		// A line that is not a JSON-RPC message is answered with an error;
		// the session goes on.
		return s.Run(ctx, mcpserve.StdioTransport(g.stdin, g.stdout))
	})
}
