package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newEditCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "edit ID",
		Short: "Edit a memory item in $VISUAL or $EDITOR",
		Long: `Open a memory item's file in $VISUAL or $EDITOR (vi when neither is set),
check it when the editor exits, and checkpoint it. A file left invalid stays
as you wrote it, uncommitted, and the error names the line at fault.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEdit(cmd.Context(), g, args[0])
		},
	}
}

func runEdit(ctx context.Context, g *globals, ref string) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		e, err := m.Get(ctx, itemRef(g, m, ref))
		if err != nil {
			return err
		}
		name := filepath.Join(m.Dir, filepath.FromSlash(e.Path))
		before, err := m.ReadFile(e.Path) // never through a symbolic link
		if err != nil {
			return err
		}
		editor := g.getenv("VISUAL")
		if editor == "" {
			editor = g.getenv("EDITOR")
		}
		if editor == "" {
			editor = "vi"
		}
		// Through the shell, so EDITOR="code --wait" works as it does for git.
		cmd := exec.CommandContext(ctx, "sh", "-c", editor+` "$1"`, "editor", name)
		cmd.Dir = g.dir // the editor starts where the user asked cairn to work (-C)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("editor %q: %w", editor, err)
		}
		cp, changed, err := m.SaveEdit(ctx, e, before)
		if err != nil {
			return err
		}
		if !changed {
			fmt.Fprintln(g.stdout, "no changes")
			return nil
		}
		fmt.Fprintf(g.stdout, "saved %s", e.Path)
		if cp != nil {
			fmt.Fprintf(g.stdout, " in checkpoint %s", ui.Short(cp.Hash))
		}
		fmt.Fprintln(g.stdout)
		return nil
	})
}
