package main

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/web"
	"github.com/spf13/cobra"
)

func newUICommand(g *globals) *cobra.Command {
	var print bool
	cmd := &cobra.Command{
		Use:   "ui",
		Short: "Open the web viewer of the memory, served by the daemon",
		Long: `Open the memory's web viewer in a browser, served by the daemon on 127.0.0.1
(started if none runs). The link holds a login code good once, for a minute.
Without a display, or with --print, ui prints the link instead.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error { return runUI(cmd.Context(), g, print) },
	}
	cmd.Flags().BoolVar(&print, "print", false, "print the login link instead of opening a browser")
	return cmd
}

func runUI(ctx context.Context, g *globals, print bool) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		if _, _, err := startDaemon(ctx, g, m); err != nil {
			return err
		}
		c, err := client.Discover(ctx, m.StatePath(""), 5*time.Second)
		if err != nil {
			return err
		}
		link, err := web.Launch(ctx, c, print, runtime.GOOS, g.getenv, g.warn)
		switch {
		case err != nil:
			return err
		case link == "":
			fmt.Fprintf(g.stdout, "ui: opened %s/ui/ in the browser\n", c.BaseURL)
		default:
			fmt.Fprintf(g.stdout, "%s\n(good once, for %s)\n", link, web.CodeTTL)
		}
		return nil
	})
}
