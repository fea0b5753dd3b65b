package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/doctor"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newDoctorCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the whole setup and say how to fix what is wrong",
		Long: `Check the memory and everything around it: the Claude Code hooks (installed,
and pointing at scripts and a cairn binary that exist), the MCP server, the
daemon, the capture queue (backlog and failed jobs), the search index
against HEAD, FUSE for cairn mount, and the git remotes of the memory.
Each problem comes with the command that fixes it.

Exit 0 when nothing is wrong (warnings allowed), 1 otherwise.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDoctor(cmd.Context(), g, asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func runDoctor(ctx context.Context, g *globals, asJSON bool) error {
	return ui.Doctor(ctx, g.stdout, doctor.Options{Find: g.memoryDir, Open: g.openDir, Getenv: g.getenv}, asJSON)
}
