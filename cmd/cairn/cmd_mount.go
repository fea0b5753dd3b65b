package main

import (
	"context"
	"fmt"
	"os"

	"github.com/cairn-mem/cairn/fsview"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/spf13/cobra"
)

type mountOptions struct {
	background bool
	debug      bool
}

func newMountCommand(g *globals) *cobra.Command {
	var opts mountOptions
	cmd := &cobra.Command{
		Use:   "mount DIR",
		Short: "Show the memory and its whole history as a read-only folder",
		Long: `Mount the memory at DIR, an empty folder, through FUSE, read-only and
visible to you only:

  CONTEXT.md                 the context pack an agent would receive now
  core/ sessions/ archive/   the memory as of the latest checkpoint
  checkpoints/<time>-<hash>-<subject>/   every checkpoint, as it was
  checkpoints/latest         the newest checkpoint
  tags/<name>                named checkpoints
  search/<query>/            looking a query up runs it: NN-<title>.md hits
  kinds/<kind>/ tagged/<tag>/   items by kind and by tag

New checkpoints show up while it is mounted. cairn mount stays in the
foreground until Ctrl-C, SIGTERM or cairn umount DIR; --background returns
once the folder is mounted. A mount left behind by a killed cairn is
cleaned up by the next cairn mount or cairn umount.

FUSE must be available: on Debian and Ubuntu, apt-get install fuse3;
macOS needs macFUSE.`,
		Example: `  mkdir -p ~/mem && cairn mount ~/mem
  cairn mount --background ~/mem && grep -r postgres ~/mem/core
  diff -r ~/mem/tags/v1 ~/mem/checkpoints/latest
  cat ~/mem/search/"why postgres"/01-*.md`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMount(cmd.Context(), g, opts, args[0])
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.background, "background", false, "return once mounted and keep serving in the background")
	f.BoolVar(&opts.debug, "debug", false, "log every FUSE request on stderr")
	f.MarkHidden("debug")
	return cmd
}

func runMount(ctx context.Context, g *globals, opts mountOptions, dir string) error {
	if err := fsview.Available(); err != nil {
		return err
	}
	abs := g.path(dir)
	if opts.background {
		return mountBackground(ctx, g, abs)
	}
	mem, err := g.memoryDir()
	if err != nil {
		return err
	}
	m, err := g.openDir(ctx, mem)
	if err != nil {
		return err
	}
	defer m.Close()
	v, err := fsview.New(ctx, m.Store(), fsview.Options{Searcher: recall.OnDemand{Dir: mem, Opts: g.openOptions(mem)}, Warn: g.warn, Catalog: m.Catalog})
	if err != nil {
		return err
	}
	srv, err := fsview.Mount(ctx, abs, v, fsview.MountOptions{Debug: opts.debug})
	if err != nil {
		return err
	}
	fmt.Fprintf(g.stderr, "cairn: "+server.MountedMsg+" %s; Ctrl-C or cairn umount %s unmounts it\n", abs, dir)
	if stopped, err := srv.Serve(ctx); err != nil || !stopped {
		return err
	}
	fmt.Fprintf(g.stderr, "cairn: unmounted %s\n", abs)
	return nil
}

// mountBackground starts cairn mount in the background
// (server.MountBackground) and returns once the folder is mounted.
func mountBackground(ctx context.Context, g *globals, dir string) error {
	mem, err := g.memoryDir()
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("mount: find the cairn program: %w", err)
	}
	pid, err := server.MountBackground(ctx, exe, mem, dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.stderr, "cairn: memory mounted at %s by process %d; cairn umount %s unmounts it\n", dir, pid, dir)
	return nil
}
