package main

import (
	"context"

	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type ingestOptions struct {
	session string
	json    bool
}

func newIngestCommand(g *globals) *cobra.Command {
	var opts ingestOptions
	cmd := &cobra.Command{
		Use:   "ingest FILE...",
		Short: "Capture agent transcripts into the memory now",
		Long: `Capture agent transcripts now: Claude Code session JSONL, Codex CLI rollout
JSONL, chat JSONL ({"role","content","timestamp"} per line) and Markdown
transcripts; and chat logs between people, as Markdown ("**Maya:** text" or
"Maya: text" lines under "## Session 3 — 2025-03-09" or "## March 9, 2025"
headings) or JSONL ({"speaker","text","session","date"} per line), each of
whose sessions becomes a session of its own (<folder>-<file>-s03, or
--session's ID with -s03), dated by its heading, its turns naming their
speaker. Each file becomes (or adds to) a session under sessions/: its
prompts, a condensed and redacted transcript, observations, a summary, and
the decisions, facts, patterns and preferences it yields in core/. Each
file is one checkpoint. Ingesting a file again captures only what it gained
since. Prints one line per file; a file that cannot be ingested gets one
line on standard error, nothing of it is committed, and the exit status
is 1.`,
		Example: `  cairn ingest ~/.claude/projects/-home-me-src-app/*.jsonl
  cairn ingest --session standup-0312 notes/standup.md
  cairn ingest chats/maya-tom.md`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("ingest needs at least one FILE")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runIngest(cmd.Context(), g, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.session, "session", "", "put the files into session `ID` instead of the one they name")
	f.BoolVar(&opts.json, "json", false, "print JSON")
	return cmd
}

func runIngest(ctx context.Context, g *globals, opts ingestOptions, files []string) error {
	return withMemory(ctx, g, func(m *memory.Memory) error {
		return ui.Ingest(ctx, g.stdout, m, files, capture.IngestOptions{Session: opts.session, Dir: g.dir}, opts.json, g.warn)
	})
}
