package main

import (
	"context"
	"fmt"

	"github.com/cairn-mem/cairn/internal/agents"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/spf13/cobra"
)

func newHookCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "hook [-C DIR] [--agent NAME] EVENT",
		Short: "Run as an agent's hook: read the hook's JSON on stdin",
		Long: `Run as a hook of Claude Code or another agent (cairn init --claude,
--codex, --gemini or --cursor registers it; --agent claude, codex, gemini
or cursor, claude when not given, is recorded on the session). The hook's
JSON comes on stdin; Gemini CLI's and Cursor's are put into Claude Code's
shape first, and answered in their agent's.

  session-start       print the context pack as the session's additional
                      context; with no daemon running, first process what the
                      capture hooks queued; queue the session's record
  user-prompt-submit  add the memories most relevant to the prompt, when
                      hooks.prompt_context is on in cairn.yaml
  any other EVENT     capture the payload, like .cairn/hooks/capture.sh

A hook must never get in the agent's way: cairn hook always exits 0, prints
nothing but the hook's JSON on stdout, and says what went wrong on stderr.
The memory is found from -C, CAIRN_DIR, CLAUDE_PROJECT_DIR, the payload's
cwd or the current folder, in that order.`,
		Example: `  echo '{"session_id":"s1","hook_event_name":"SessionStart","source":"startup"}' | cairn hook session-start`,
		// Claude Code takes exit code 2 for "block": a mistyped flag must
		// not become one, so arguments are read here, never refused.
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, a := range args {
				if a == "-h" || a == "--help" {
					return cmd.Help()
				}
			}
			runHook(cmd.Context(), g, args)
			return nil
		},
	}
}

// runHook does one hook. It never fails: a problem is one line on
// stderr, and stdout holds the hook's JSON or nothing.
func runHook(ctx context.Context, g *globals, args []string) {
	defer func() {
		if r := recover(); r != nil {
			g.warn(fmt.Sprintf("hook: internal error: %v", r))
		}
	}()
	chdir, agent, event := agents.ParseHookArgs(args, g.warn)
	agents.RunHook(ctx, agents.HookRun{
		Event: event, Agent: agent, Stdin: g.stdin, Stdout: g.stdout, Warn: g.warn,
		Find: func(payload []byte) (string, error) {
			if chdir != "" {
				return memory.Find(g.path(chdir))
			}
			if g.getenv("CAIRN_DIR") != "" {
				return g.memoryDir()
			}
			return agents.HookMemoryDir(g.getenv("CLAUDE_PROJECT_DIR"), payload, g.dir)
		},
		Open: g.openDir, Self: g.self,
	})
}
