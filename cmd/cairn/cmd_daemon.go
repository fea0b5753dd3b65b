package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/doctor"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/internal/service"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/cairn-mem/cairn/internal/web"
	"github.com/spf13/cobra"
)

type daemonOptions struct{ json bool }

func newDaemonCommand(g *globals) *cobra.Command {
	var opts daemonOptions
	cmd := &cobra.Command{
		Use:   "daemon [run|start|stop|status|install|uninstall]",
		Short: "Run the sidecar: watch the memory and serve the HTTP API on loopback",
		Long: `The sidecar. "run" (the default) runs it in the foreground until Ctrl-C;
"start" runs it in the background, logging to .cairn/.state/daemon.log; "stop"
stops it; "status" says whether it runs; "install" makes it a user service
(systemd, launchd), "uninstall" removes that. A session start runs it unless
daemon.autostart is false. One daemon per memory: a second exits (status 3).

While it runs, checkpoints in any process find hand edits by asking it what
changed instead of looking at every file.`,
		Args:      rangeArgs(0, 1),
		ValidArgs: []string{"run", "start", "stop", "status", "install", "uninstall"},
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
			case "install", "uninstall":
				return runDaemonService(cmd.Context(), g, action == "install")
			}
			return usagef("unknown daemon action %q: want run, start, stop, status, install or uninstall", action)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print status as JSON")
	return cmd
}

func runDaemon(ctx context.Context, g *globals) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		d := &server.Daemon{Mem: m, Log: slog.New(slog.NewTextHandler(g.stderr, nil)), BuildGC: g.buildGC}
		if exe, err := os.Executable(); err == nil {
			d.Exe = exe // stop once an upgrade replaced it
		}
		v, err := web.New(web.Options{Mem: m, Log: d.Log, Doctor: &doctor.Options{Find: g.memoryDir, Open: g.openDir, Getenv: g.getenv}})
		if err != nil {
			return err
		}
		d.UI = v.Mount
		d.Parts = append(d.Parts, server.Part{Name: "ui", Service: v})
		d.Log.Info("memory", "limit_mib", server.DaemonGC(m.Config.Daemon.MemoryLimit(), g.getenv)>>20)
		d.Parts = append(d.Parts, server.SyncPart(m.Dir, g.memoryOptions(), d.Log))
		return d.Serve(ctx)
	})
}

func runDaemonStatus(ctx context.Context, g *globals, opts daemonOptions) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		s := client.Status(ctx, m.StatePath(""))
		return ui.Print(g.stdout, opts.json, s, ui.DaemonJSON, ui.DaemonText)
	})
}

func runDaemonStart(ctx context.Context, g *globals) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		s, started, err := startDaemon(ctx, g, m)
		if err != nil {
			return err
		}
		return ui.DaemonStarted(g.stdout, s, started)
	})
}

// startDaemon runs m's daemon in the background unless one runs.
func startDaemon(ctx context.Context, g *globals, m *memory.Memory) (client.DaemonState, bool, error) {
	return server.Start(ctx, m, client.Spawn{
		Command: []string{g.self, "-C", filepath.Dir(m.Dir), "daemon", "run"},
		Dir:     g.dir, // -C names the folder cairn works in, its children included
		Env:     os.Environ(),
	})
}

func runDaemonStop(ctx context.Context, g *globals) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		s, err := server.Stop(m)
		if err != nil {
			return err
		}
		return ui.DaemonStopped(g.stdout, s.PID, s.Stale, m.StatePath(client.PIDFile))
	})
}

// runDaemonService is cairn daemon install (install) or uninstall.
func runDaemonService(ctx context.Context, g *globals, install bool) error {
	mem, err := g.memoryDir()
	if err != nil {
		return err
	}
	s, err := service.New(g.self, filepath.Dir(mem), g.getenv)
	if err != nil {
		return err
	}
	r, err := service.Apply(ctx, s, install, g.getenv("PATH"))
	if err != nil {
		return err
	}
	return ui.ServiceText(g.stdout, r)
}
