package ui

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/memory"
)

// EditItem is cairn edit: it opens the file of the item ref names in
// $VISUAL or $EDITOR (vi when neither is set), started in dir, and saves
// what changed in a checkpoint (memory.SaveEdit); w says what it did.
func EditItem(ctx context.Context, w io.Writer, m *memory.Memory, ref, dir string, getenv func(string) string) error {
	e, err := m.Get(ctx, ref)
	if err != nil {
		return err
	}
	name := filepath.Join(m.Dir, filepath.FromSlash(e.Path))
	before, err := m.ReadFile(e.Path) // never through a symbolic link
	if err != nil {
		return err
	}
	editor := getenv("VISUAL")
	if editor == "" {
		editor = getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	// Through the shell, so EDITOR="code --wait" works as it does for git.
	cmd := exec.CommandContext(ctx, "sh", "-c", editor+` "$1"`, "editor", name)
	cmd.Dir = dir // the editor starts where the user asked cairn to work (-C)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("editor %q: %w", editor, err)
	}
	cp, changed, err := m.SaveEdit(ctx, e, before)
	if err != nil {
		return err
	}
	if !changed {
		fmt.Fprintln(w, "no changes")
		return nil
	}
	fmt.Fprintf(w, "saved %s", e.Path)
	if cp != nil {
		fmt.Fprintf(w, " in checkpoint %s", Short(cp.Hash))
	}
	fmt.Fprintln(w)
	return nil
}
