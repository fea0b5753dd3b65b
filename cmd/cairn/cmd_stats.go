package main

import (
	"path/filepath"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newStatsCommand(g *globals) *cobra.Command {
	var since string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Print what summaries, context packs, searches and captures cost",
		Long: `Print totals and percentiles (p50, p95, max) per kind of event of the
metrics log (.cairn/.state/metrics/, local, never committed), and the
daemon's latest gauges.`,
		Example: "  cairn stats --since 7d\n  cairn stats --since 2026-11-01 --json",
		Args:    exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			now, from := time.Now(), time.Time{}
			if since != "" {
				var err error
				if from, err = model.ParseSince(since, now); err != nil {
					return usagef("--since: %v", err)
				}
			}
			dir, err := g.memoryDir()
			if err != nil {
				return err
			}
			st, err := metrics.Load(cmd.Context(), filepath.Join(dir, memory.StateDir), from, now)
			if err != nil {
				return err
			}
			return ui.Print(g.stdout, asJSON, st, ui.StatsJSON, ui.StatsText)
		},
	}
	cmd.Flags().StringVar(&since, "since", "", "only events since `T`: an age (24h, 7d, 2w), a date or an RFC 3339 time")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
