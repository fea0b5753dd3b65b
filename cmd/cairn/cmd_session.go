package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memsync"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

func newSessionCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "session",
		Short: "List, show, resume and manage agent sessions",
		Long: `Agent sessions live in sessions/<id>/ (session.yaml, prompts.md,
transcript.md, observations.md, summary.md) and move to
archive/<yyyy>/<mm>/<id>/ after capture.archive_after of inactivity.
A session ID may be given as a unique prefix of four characters or more.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSessionList(cmd.Context(), g, sessionListOptions{})
		},
	}
	cmd.AddCommand(
		newSessionListCommand(g),
		newSessionShowCommand(g),
		newSessionResumeCommand(g),
		newSessionStatusCommand(g, "suspend", model.StatusSuspended, "Mark a session suspended (paused)"),
		newSessionStatusCommand(g, "archive", model.StatusArchived, "Move a session to archive/ now"),
		newSessionSetCommand(g),
		newSessionProgressCommand(g),
		newSessionShareCommand(g),
	)
	return cmd
}

type sessionListOptions struct {
	status string
	json   bool
}

func newSessionListCommand(g *globals) *cobra.Command {
	var opts sessionListOptions
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List sessions, most recently active first",
		Long: `List sessions, live and archived, most recently active first. Sessions
inactive for longer than capture.archive_after are archived first.`,
		Args: exactArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSessionList(cmd.Context(), g, opts)
		},
	}
	cmd.Flags().StringVar(&opts.status, "status", "", "only sessions with this `STATUS`: active, suspended or archived")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runSessionList(ctx context.Context, g *globals, opts sessionListOptions) error {
	var f memory.SessionFilter
	if opts.status != "" {
		st, err := model.ParseSessionStatus(opts.status)
		if err != nil {
			return usageError{err}
		}
		f.Status = st
	}
	return withMemory(ctx, g, func(m *memory.Memory) error {
		return ui.ListSessions(ctx, g.stdout, m, f, opts.json, g.warn)
	})
}

func newSessionShowCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Print a session's session.yaml and summary",
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withMemory(cmd.Context(), g, func(m *memory.Memory) error {
				return ui.ShowSession(cmd.Context(), g.stdout, m, args[0], asJSON)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newSessionResumeCommand(g *globals) *cobra.Command {
	var activate bool
	cmd := &cobra.Command{
		Use:   "resume ID",
		Short: "Print a session's context as Markdown, to carry on with it",
		Long: `Print what an agent needs to carry on with a session: its summary, progress,
variables, last prompts and the core items that came from it, as Markdown
under 8,000 characters. Printing changes nothing; with --activate a
suspended or archived session also becomes active again (and moves back
to sessions/), in one commit.`,
		Args: exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withMemory(cmd.Context(), g, func(m *memory.Memory) error {
				// The context goes to stdout alone; what changed is a note.
				return ui.ResumeSession(cmd.Context(), g.stdout, g.stderr, m, args[0], activate)
			})
		},
	}
	cmd.Flags().BoolVar(&activate, "activate", false, "make the session active again (a suspended or archived one moves back to sessions/)")
	return cmd
}

func newSessionStatusCommand(g *globals, name string, st model.SessionStatus, short string) *cobra.Command {
	return &cobra.Command{
		Use:   name + " ID",
		Short: short,
		Args:  exactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withMemory(cmd.Context(), g, func(m *memory.Memory) error {
				ch, err := m.Sessions().SetStatus(cmd.Context(), args[0], st)
				if err != nil {
					return err
				}
				return ui.SessionChangeText(g.stdout, ch, fmt.Sprintf("%s (%s)", st, ch.Session.Dir))
			})
		},
	}
}

// defaultSession is the session a command means when it names none:
// $CAIRN_SESSION, else the most recently active live session.
func defaultSession(ctx context.Context, g *globals, m *memory.Memory) (string, error) {
	if id := g.getenv("CAIRN_SESSION"); id != "" {
		return id, nil
	}
	id, err := m.Sessions().Latest(ctx)
	if err != nil {
		return "", err
	}
	if id == "" {
		return "", usagef("no active session: name one (cairn session list)")
	}
	g.warn("session " + id + " (the latest active one)")
	return id, nil
}

func newSessionSetCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "set [ID] KEY=VALUE...",
		Short: "Set a session's variables (KEY= removes one)",
		Long: `Set variables of a session, for long-running workflows. KEY= removes a
variable. Without ID, the session is $CAIRN_SESSION or the latest active
one. Values are redacted like everything cairn stores.`,
		Example: `  cairn session set 3f1c9a52 ticket=OPS-42 stage=backfill`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSessionSet(cmd.Context(), g, args)
		},
	}
}

func runSessionSet(ctx context.Context, g *globals, args []string) error {
	if len(args) == 0 {
		return usagef("session set needs KEY=VALUE")
	}
	return withMemory(ctx, g, func(m *memory.Memory) (err error) {
		ref := ""
		if !strings.Contains(args[0], "=") {
			ref, args = args[0], args[1:]
		}
		if len(args) == 0 {
			return usagef("session set needs KEY=VALUE")
		}
		vars, bad, ok := model.ParseVariables(args)
		if !ok {
			return usagef("session set: %q is not KEY=VALUE", bad)
		}
		if ref == "" {
			if ref, err = defaultSession(ctx, g, m); err != nil {
				return err
			}
		}
		ch, err := m.Sessions().SetVariables(ctx, ref, vars)
		if err != nil {
			return err
		}
		return ui.SessionChangeText(g.stdout, ch, fmt.Sprintf("%d variable(s)", len(ch.Session.Variables)))
	})
}

func newSessionProgressCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:     "progress [ID] DONE/TOTAL",
		Short:   "Record how many steps of a session's task are done",
		Example: `  cairn session progress 3f1c9a52 3/7`,
		Args:    rangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSessionProgress(cmd.Context(), g, args)
		},
	}
}

func runSessionProgress(ctx context.Context, g *globals, args []string) error {
	spec := args[len(args)-1]
	p, ok := model.ParseProgress(spec)
	if !ok {
		return usagef("session progress: %q is not DONE/TOTAL with 0 ≤ DONE ≤ TOTAL", spec)
	}
	return withMemory(ctx, g, func(m *memory.Memory) (err error) {
		ref := ""
		if len(args) == 2 {
			ref = args[0]
		} else if ref, err = defaultSession(ctx, g, m); err != nil {
			return err
		}
		ch, err := m.Sessions().SetProgress(ctx, ref, p)
		if err != nil {
			return err
		}
		return ui.SessionChangeText(g.stdout, ch, fmt.Sprintf("progress %d/%d", p.Done, p.Total))
	})
}

func newSessionShareCommand(g *globals) *cobra.Command {
	var what string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "share FROM TO",
		Short: "Copy a session's decisions, patterns or all its items to another",
		Long: `Copy the core items that came from session FROM to session TO, as new items
of TO with confidence × 0.8 and their provenance (shared_from, shared_item).
Items shared before are not copied again.`,
		Args: exactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch what {
			case memsync.ShareDecisions, memsync.SharePatterns, memsync.ShareFull:
			default:
				return usagef("--what %q: want decisions, patterns or full", what)
			}
			return withMemory(cmd.Context(), g, func(m *memory.Memory) error {
				res, err := memsync.Share(cmd.Context(), m, args[0], args[1], what)
				if err != nil {
					return err
				}
				return ui.Print(g.stdout, asJSON, res, ui.SessionShareJSON, ui.SessionShareText)
			})
		},
	}
	cmd.Flags().StringVar(&what, "what", memsync.ShareDecisions, "what to copy: decisions, patterns or full")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
