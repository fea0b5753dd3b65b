package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/spf13/cobra"
)

func newHookCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "hook EVENT",
		Short: "Run as a Claude Code hook: read the hook's JSON on stdin",
		Long: `Run as a Claude Code hook (cairn init --claude registers it). The hook's
JSON comes on stdin.

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
	chdir, event := "", ""
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case (a == "-C" || a == "--dir") && i+1 < len(args):
			chdir = args[i+1]
			i++
		case strings.HasPrefix(a, "--dir="):
			chdir = strings.TrimPrefix(a, "--dir=")
		case strings.HasPrefix(a, "-C") && len(a) > 2:
			chdir = a[2:]
		case strings.HasPrefix(a, "-"):
			g.warn(fmt.Sprintf("hook: ignoring unknown flag %s", a))
		case event == "":
			event = a
		}
	}
	ev := model.HookEventName(event)
	ctx, cancel := context.WithTimeout(ctx, hooks.Deadline(ev))
	defer cancel()
	switch ev {
	case model.HookSessionStart, model.HookUserPromptSubmit:
		payload, err := io.ReadAll(io.LimitReader(g.stdin, hooks.MaxPayload+1))
		if err != nil {
			g.warn(fmt.Sprintf("hook %s: read stdin: %v", event, err))
		}
		if len(payload) > hooks.MaxPayload {
			g.warn(fmt.Sprintf("hook %s: payload longer than %d bytes; ignored", event, hooks.MaxPayload))
			io.Copy(io.Discard, g.stdin)
			payload = nil
		}
		mem, err := hookMemoryDir(g, chdir, payload)
		if err != nil {
			g.warn("hook " + event + ": " + err.Error())
			return
		}
		var out *hooks.Output
		if ev == model.HookSessionStart {
			out, err = hookSessionStart(ctx, g, mem, payload)
		} else {
			out, err = hookPromptContext(ctx, g, mem, payload)
		}
		if err != nil {
			g.warn("hook " + event + ": " + err.Error())
		}
		if out != nil {
			writeHookOutput(g, out)
		}
	default:
		if event == "" {
			g.warn("hook: no event given (cairn hook session-start, user-prompt-submit, or another event to capture)")
		}
		// Capture, as the script does. The payload is not read first: the
		// memory is found from the environment.
		mem, err := hookMemoryDir(g, chdir, nil)
		if err != nil {
			io.Copy(io.Discard, g.stdin)
			g.warn("hook " + event + ": " + err.Error())
			return
		}
		if err := hooks.DropPayload(filepath.Join(mem, "inbox"), g.stdin); err != nil {
			g.warn(fmt.Sprintf("hook %s: %v; this event is not captured", event, err))
		}
	}
}

func writeHookOutput(g *globals, out *hooks.Output) {
	if err := hooks.WriteOutput(g.stdout, out); err != nil {
		g.warn("hook: " + err.Error())
	}
}

// hookMemoryDir finds the memory for a hook: -C, CAIRN_DIR,
// CLAUDE_PROJECT_DIR, the payload's cwd, then the current folder.
func hookMemoryDir(g *globals, chdir string, payload []byte) (string, error) {
	if chdir != "" {
		return memory.Find(g.path(chdir))
	}
	if g.getenv("CAIRN_DIR") != "" {
		return g.memoryDir()
	}
	var probe struct {
		CWD string `json:"cwd"`
	}
	if len(payload) > 0 {
		_ = json.Unmarshal(payload, &probe)
	}
	for _, d := range []string{g.getenv("CLAUDE_PROJECT_DIR"), probe.CWD} {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		if dir, err := memory.Find(d); err == nil {
			return dir, nil
		}
	}
	return memory.Find(g.dir)
}

// hookSessionStart is SessionStart (server.SessionStart) on the memory
// in mem.
func hookSessionStart(ctx context.Context, g *globals, mem string, payload []byte) (*hooks.Output, error) {
	m, err := g.openDir(ctx, mem)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	return server.SessionStart(ctx, m, payload)
}

// hookPromptContext is UserPromptSubmit (server.PromptContext).
func hookPromptContext(ctx context.Context, g *globals, mem string, payload []byte) (*hooks.Output, error) {
	open := func(ctx context.Context) (*memory.Memory, error) { return g.openDir(ctx, mem) }
	return server.PromptContext(ctx, mem, open, payload)
}
