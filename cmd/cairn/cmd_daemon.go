package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type daemonOptions struct{ json bool }

func newDaemonCommand(g *globals) *cobra.Command {
	var opts daemonOptions
	cmd := &cobra.Command{
		Use:   "daemon [run|start|stop|status]",
		Short: "Run the sidecar: watch the memory and serve the HTTP API on loopback",
		Long: `The sidecar. "run" (the default) runs it in the foreground until Ctrl-C;
"start" runs it in the background, logging to .cairn/.state/daemon.log; "stop"
stops it; "status" says whether it runs. One daemon per memory: a second one
refuses to start.

While it runs, checkpoints in any process find hand edits by asking it what
changed instead of looking at every file.`,
		Args:      rangeArgs(0, 1),
		ValidArgs: []string{"run", "start", "stop", "status"},
		RunE: func(cmd *cobra.Command, args []string) error {
			action := "run"
			if len(args) == 1 {
				action = args[0]
			}
			switch action {
			case "run":
				return runDaemon(cmd.Context(), g)
			case "start":
				return runDaemonStart(cmd.Context(), g)
			case "stop":
				return runDaemonStop(cmd.Context(), g)
			case "status":
				return runDaemonStatus(cmd.Context(), g, opts)
			}
			return usagef("unknown daemon action %q: want run, start, stop or status", action)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print status as JSON")
	return cmd
}

func runDaemon(ctx context.Context, g *globals) error {
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	d := &server.Daemon{Mem: m, Log: slog.New(slog.NewTextHandler(g.stderr, nil))}
	d.Log.Info("memory", "limit_mib", server.DaemonGC(m.Config.Daemon.MemoryLimit(), g.getenv)>>20)
	d.Parts = append(d.Parts, server.SyncPart(m.Dir, g.memoryOptions(), d.Log))
	return d.Serve(ctx)
}

func runDaemonStatus(ctx context.Context, g *globals, opts daemonOptions) error {
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	s := client.Status(ctx, m.StatePath(""))
	if opts.json {
		return ui.DaemonJSON(g.stdout, s)
	}
	return ui.DaemonText(g.stdout, s)
}

func runDaemonStart(ctx context.Context, g *globals) error {
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	s, started, err := server.Start(ctx, m, client.Spawn{
		Command: []string{exe, "-C", filepath.Dir(m.Dir), "daemon", "run"},
		Dir:     g.dir, // -C names the folder cairn works in, its children included
		Env:     os.Environ(),
	})
	if err != nil {
		return err
	}
	if !started {
		fmt.Fprintf(g.stdout, "daemon: already running, pid %d, %s\n", s.PID, s.URL)
		return nil
	}
	fmt.Fprintf(g.stdout, "daemon: started, pid %d, %s\n", s.PID, s.URL)
	return nil
}

func runDaemonStop(ctx context.Context, g *globals) error {
	m, err := g.open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	s, err := server.Stop(m)
	switch {
	case err != nil:
		return err
	case s.Stale:
		fmt.Fprintf(g.stdout, "daemon: not running; removed the stale %s (pid %d is not this memory's daemon)\n", m.StatePath(client.PIDFile), s.PID)
	case s.PID == 0:
		fmt.Fprintln(g.stdout, "daemon: not running")
	default:
		fmt.Fprintf(g.stdout, "daemon: stopped (pid %d)\n", s.PID)
	}
	return nil
}
