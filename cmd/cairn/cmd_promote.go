package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/usermem"
	"github.com/spf13/cobra"
)

func newPromoteCommand(g *globals) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "promote ID",
		Short: "Copy a preference or pattern to the user memory, for every project",
		Long: `Copy a project's item to the user memory ($CAIRN_USER_DIR, else
$XDG_DATA_HOME/cairn, else ~/.local/share/cairn), whose preferences and
patterns every project's context pack shows under its own. The copy names
the project and the item's id; the project's item is tagged "promoted".
One checkpoint in each memory; nothing is rewritten.`,
		Example: `  cairn promote 01JB8ZK3
  cairn promote --force 01JB8ZK3   # a decision or fact, when it holds everywhere`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPromote(cmd.Context(), g, args[0], force)
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "promote an item that is not a preference or a pattern")
	return cmd
}

func runPromote(ctx context.Context, g *globals, ref string, force bool) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		u, err := g.openMemory(ctx, true)
		if err != nil {
			return err
		}
		defer u.Close()
		p, err := usermem.Promote(ctx, m, u, m.ItemRef(g.dir, ref), force)
		if errors.Is(err, usermem.ErrKind) {
			return usageError{err}
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(g.stdout, "promoted %s %q to the user memory as %s (%s)\n", p.To.Kind, p.To.Title, p.To.ID, u.Dir)
		return nil
	})
}
