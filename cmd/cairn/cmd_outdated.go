package main

import (
	"context"
	"errors"
	"strings"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/outdate"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newOutdatedCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "outdated TEXT",
		Short: "Take back a statement that no longer holds: later packs stop showing it",
		Long: `Take back what an older session said and no longer holds, whatever its wording:
TEXT is a line of a context pack as shown (its "- Decision: " label and its
"(session …)" tail may stay), a session's bullet or a core item's title. The
statements it names are quoted under "**No longer true**" in the summary.md of
the session changed last, later packs stop showing them, and the core items
they title are retired; one checkpoint. The agent does the same through the
MCP tool "outdated".`,
		Example: `  cairn outdated "- Environment: Deploys go out every Monday at 09:00. (session 3f1c9a52)"
  cairn outdated "The API listens on 8080"`,
		Args: rangeArgs(1, 1<<10),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runOutdated(cmd.Context(), g, strings.Join(args, " "), asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func runOutdated(ctx context.Context, g *globals, text string, asJSON bool) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		res, err := outdate.Mark(ctx, m, text)
		if errors.Is(err, outdate.ErrNoStatement) || errors.Is(err, outdate.ErrOwnStatement) {
			return usageError{err}
		}
		if err != nil {
			return err
		}
		if asJSON {
			return ui.JSON(g.stdout, res)
		}
		return outdate.WriteText(g.stdout, res, ui.Escape)
	})
}
