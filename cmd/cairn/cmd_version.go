package main

import (
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newVersionCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print cairn's version, commit and Go version",
		Args:  exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return ui.VersionText(g.stdout)
		},
	}
}
