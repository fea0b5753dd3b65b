package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-mem/cairn/fsview"
	"github.com/spf13/cobra"
)

func newUmountCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "umount DIR",
		Short: "Unmount a memory view mounted with cairn mount",
		Long: `Unmount the cairn view at DIR, whichever process serves it; the serving
cairn mount then exits. A view whose process was killed is cleaned up.
When programs still use the view, it is detached: gone from DIR at once,
released when they let go.`,
		Example: `  cairn umount ~/mem`,
		Args:    exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runUmount(cmd.Context(), g, args[0])
		},
	}
}

func runUmount(ctx context.Context, g *globals, dir string) error {
	abs := g.path(dir)
	stale := fsview.Stale(abs)
	if err := fsview.Unmount(abs); err != nil {
		if errors.Is(err, fsview.ErrNotMounted) {
			return fmt.Errorf("%s: no cairn view is mounted there", dir)
		}
		return err
	}
	if stale {
		fmt.Fprintf(g.stderr, "cairn: cleaned up the stale mount at %s\n", abs)
	}
	return nil
}
