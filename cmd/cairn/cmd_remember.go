package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/ui"
	"github.com/spf13/cobra"
)

type rememberOptions struct {
	kind       string
	title      string
	importance float64
	tags       []string
	pin        bool
	session    string
	json       bool
	user       bool
}

func newRememberCommand(g *globals) *cobra.Command {
	var opts rememberOptions
	cmd := &cobra.Command{
		Use:   "remember [TEXT|-]",
		Short: "Add a memory item and print its id",
		Long: `Add a memory item: a Markdown file under core/<kind>s/ with YAML front
matter. The text comes from the arguments, or from standard input when it is
"-" or not given. The title defaults to the text's first line.`,
		Example: `  cairn remember --kind decision --tag db "Use PostgreSQL for the job queue: it is already deployed"
  git log -1 | cairn remember --kind note -`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRemember(cmd.Context(), g, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.kind, "kind", "k", "note", "`KIND` of item: decision, fact, pattern, preference or note")
	f.StringVarP(&opts.title, "title", "t", "", "title (default: the text's first line)")
	f.Float64Var(&opts.importance, "importance", model.DefaultImportance, "importance from 0 to 1")
	f.StringArrayVar(&opts.tags, "tag", nil, "a tag (repeat for more)")
	f.BoolVar(&opts.pin, "pin", false, "always give this item to the agent")
	f.StringVar(&opts.session, "session", "", "the agent session this came from")
	f.BoolVar(&opts.json, "json", false, "print the item as JSON")
	f.BoolVar(&opts.user, "user", false, "write it to the user memory, which every project's context gets (cairn promote)")
	return cmd
}

func runRemember(ctx context.Context, g *globals, opts rememberOptions, args []string) error {
	kind, err := model.ParseKind(opts.kind)
	if err != nil {
		return usageError{err}
	}
	text := strings.Join(args, " ")
	if len(args) == 0 || text == "-" {
		if len(args) == 0 && ui.IsTerminal(g.stdin) {
			return usagef("remember needs TEXT, or - to read it from standard input")
		}
		b, err := io.ReadAll(io.LimitReader(g.stdin, 1<<20))
		if err != nil {
			return fmt.Errorf("read standard input: %w", err)
		}
		text = string(b)
	}
	text = strings.TrimSpace(text)
	if text == "" && opts.title == "" {
		return usagef("remember: nothing to remember (empty text)")
	}
	title, body := opts.title, text
	if title == "" {
		title, body = model.SplitTitle(text)
	}
	return withMemoryOf(ctx, g, opts.user, func(m *memory.Memory) error {
		it := model.NewItem(kind, title, time.Now())
		it.Body, it.Importance, it.Tags = body, opts.importance, opts.tags
		it.Pinned, it.Session = opts.pin, opts.session
		if _, err := m.Remember(ctx, it); err != nil {
			return err
		}
		if opts.json {
			return ui.ItemJSON(g.stdout, it, it.Path())
		}
		fmt.Fprintln(g.stdout, it.ID)
		return nil
	})
}
