package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/capture"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/transcript"
	"github.com/cairn-mem/cairn/internal/ui"
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

// How long session-start works on the queue when no daemon runs.
const (
	// drainBudget is how long session-start works through a backlog the
	// capture hooks left when no daemon runs; what is left waits for the
	// next start (or the daemon). Claude Code's timeout for it is
	// hooks.SessionStartTimeout.
	drainBudget = 8 * time.Second
	// drainGrace is how long a job still running at drainBudget may take
	// before it is cut.
	drainGrace = 4 * time.Second
)

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

// hookSessionStart is SessionStart: with no daemon, process what the
// capture hooks queued; pack the context; queue the session's record.
func hookSessionStart(ctx context.Context, g *globals, mem string, payload []byte) (*hooks.Output, error) {
	m, err := g.openDir(ctx, mem)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	var errs []error
	// The capture script is not synced (a script from a remote would run
	// here): it is written from this binary, and put back if it is gone
	// or was changed.
	if _, err := hooks.Install(filepath.Join(m.Dir, "hooks")); err != nil {
		errs = append(errs, err)
	}
	h, perr := transcript.ParseHook(payload)
	if perr != nil {
		// The context is still worth giving; the session is not recorded.
		errs = append(errs, fmt.Errorf("payload not recorded: %w", perr))
		h = nil
	}
	// One look for the daemon, under the hook's deadline: it also makes
	// the pack.
	var daemon recall.Searcher
	var notes []string
	if c, err := client.Discover(ctx, m.StatePath(""), daemonWait); err == nil {
		daemon = recall.Remote{Client: c}
	} else {
		n, err := capture.WorkFor(ctx, m, drainBudget, drainGrace)
		if err != nil {
			errs = append(errs, err)
		}
		what := "nothing was waiting"
		if n.Done+n.Failed > 0 {
			what = fmt.Sprintf("%s processed now", ui.CountOf(n.Done+n.Failed, "queued event", "queued events"))
		}
		if n.Left {
			what += ", more left for later"
		}
		notes = append(notes, fmt.Sprintf("cairn: the memory sidecar is not running, so captured events wait for the next session start (%s). Start it with: cairn daemon start", what))
	}
	if failed, err := capture.FailedJobs(ctx, m); err == nil && failed > 0 {
		notes = append(notes, fmt.Sprintf("cairn: %s failed; see cairn queue list --state failed, or run cairn doctor", ui.CountOf(failed, "capture job", "capture jobs")))
	}

	var so recall.StartOptions
	if h != nil {
		so = recall.StartOptions{Source: h.Source, Session: h.SessionID}
	}
	text, err := recall.StartPack(ctx, m, daemon, so)
	if err != nil {
		errs = append(errs, err)
	}

	// The session is recorded through the queue, after the pack is made
	// (so that a new session's pack shows the one before it as the
	// latest): a commit here would cost more than the rest of the hook.
	if h != nil {
		if err := capture.EnqueueHook(ctx, m, h.SessionID, payload); err != nil {
			errs = append(errs, fmt.Errorf("record session %s: %w", h.SessionID, err))
		}
	}

	out := &hooks.Output{SystemMessage: strings.Join(notes, "\n")}
	if text != "" {
		out.Specific = &hooks.Specific{HookEventName: model.HookSessionStart, AdditionalContext: recall.CapChars(text, hooks.MaxContextChars)}
	}
	if out.Specific == nil && out.SystemMessage == "" {
		return nil, errors.Join(errs...)
	}
	return out, errors.Join(errs...)
}

// hookPromptContext is UserPromptSubmit: the memories most relevant to
// the prompt, when cairn.yaml asks for them.
func hookPromptContext(ctx context.Context, g *globals, mem string, payload []byte) (*hooks.Output, error) {
	m, err := g.openDir(ctx, mem)
	if err != nil {
		return nil, err
	}
	cfg := m.Config.Hooks
	m.Close()
	if !cfg.PromptContext {
		return nil, nil
	}
	h, err := transcript.ParseHook(payload)
	if err != nil {
		return nil, err
	}
	s, done, err := recall.Open(ctx, mem, recall.OpenOptions{
		Open: func(ctx context.Context) (*memory.Memory, error) { return g.openDir(ctx, mem) },
	})
	if err != nil {
		return nil, err
	}
	defer done()
	text, err := recall.PromptMemories(ctx, s, h.Prompt, cfg.Memories())
	if err != nil || text == "" {
		return nil, err
	}
	return &hooks.Output{Specific: &hooks.Specific{HookEventName: model.HookUserPromptSubmit, AdditionalContext: recall.CapChars(text, hooks.MaxPromptContextChars)}}, nil
}
