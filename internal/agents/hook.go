package agents

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
)

// maxPayload is the most of a Gemini CLI or Cursor payload read: it is
// read whole to be put into Claude Code's shape, and a tool's output can
// be long.
const maxPayload = 64 << 20

// RunHook does one run of cairn hook for the agent h.Agent names: Claude
// Code's and Codex's payloads go to server.RunHook as they are, Gemini
// CLI's and Cursor's once put into Claude Code's shape. An agent it does
// not know is taken for Claude Code, with a warning. Like server.RunHook,
// it never fails: a problem is one line through h.Warn.
func RunHook(ctx context.Context, h server.HookRun) {
	switch h.Agent {
	case hooks.AgentGemini, hooks.AgentCursor:
		runHook(ctx, h)
		return
	case "", hooks.AgentClaude, hooks.AgentCodex:
	default:
		h.Warn(fmt.Sprintf("hook: unknown agent %q (claude, codex, gemini or cursor); taken as claude", h.Agent))
		h.Agent = hooks.AgentClaude
	}
	server.RunHook(ctx, h)
}

// runHook is RunHook for Gemini CLI and Cursor. Gemini's SessionStart is
// a session start; its BeforeAgent is captured and answered with the
// memories relevant to the prompt (when cairn.yaml asks for them);
// Cursor's stop writes the rules file again; every other event is
// captured into the inbox. Cursor gets JSON on stdout whatever happens.
func runHook(ctx context.Context, h server.HookRun) {
	payload, err := io.ReadAll(io.LimitReader(h.Stdin, maxPayload+1))
	if err != nil {
		h.Warn(fmt.Sprintf("hook %s: read stdin: %v", h.Event, err))
	}
	native := h.Event
	defer func() {
		if h.Agent == hooks.AgentCursor {
			h.Stdout.Write(hooks.CursorAnswer(native))
		}
	}()
	if len(payload) > maxPayload {
		h.Warn(fmt.Sprintf("hook %s: payload longer than %d bytes; not captured", h.Event, maxPayload))
		io.Copy(io.Discard, h.Stdin)
		return
	}
	n, err := hooks.Normalize(h.Agent, payload)
	if err != nil {
		h.Warn("hook " + h.Event + ": " + err.Error())
		return
	}
	native = n.Native
	ctx, cancel := context.WithTimeout(ctx, hooks.Deadline(n.Event))
	defer cancel()
	find := n.Payload
	if find == nil { // Cursor's stop, which is not captured
		find, _ = json.Marshal(map[string]string{"cwd": n.CWD})
	}
	mem, err := h.Find(find)
	if err != nil {
		h.Warn("hook " + native + ": " + err.Error())
		return
	}
	open := func(ctx context.Context) (*memory.Memory, error) { return h.Open(ctx, mem) }
	var out *hooks.Output
	switch {
	case h.Agent == hooks.AgentGemini && n.Event == model.HookSessionStart:
		out, err = sessionStart(ctx, open, n.Payload)
	case h.Agent == hooks.AgentCursor && native == hooks.CursorStop:
		err = cursorStop(ctx, open, n.Session)
	default:
		if err := hooks.DropPayload(filepath.Join(mem, "inbox"), bytes.NewReader(n.Payload)); err != nil {
			h.Warn(fmt.Sprintf("hook %s: %v; this event is not captured", native, err))
		}
		if h.Agent == hooks.AgentGemini && n.Event == model.HookUserPromptSubmit {
			out, err = server.PromptContext(ctx, mem, open, n.Payload)
		}
	}
	if err != nil {
		h.Warn("hook " + native + ": " + err.Error())
	}
	if out != nil {
		if out.Specific != nil {
			out.Specific.HookEventName = native // Gemini's name for it
		}
		if err := hooks.WriteOutput(h.Stdout, out); err != nil {
			h.Warn("hook: " + err.Error())
		}
	}
}

type opener func(context.Context) (*memory.Memory, error)

// sessionStart is server.SessionStart on the memory open opens.
func sessionStart(ctx context.Context, open opener, payload []byte) (*hooks.Output, error) {
	m, err := open(ctx)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	return server.SessionStart(ctx, m, payload)
}

// cursorStop writes the rules file again at the end of a Cursor turn of
// the conversation session.
func cursorStop(ctx context.Context, open opener, session string) error {
	m, err := open(ctx)
	if err != nil {
		return err
	}
	defer m.Close()
	_, err = CursorRules(ctx, m, session)
	return err
}

// CursorRules writes the context pack into the project's Cursor rules
// file (hooks.WriteCursorRules), after capturing what the conversations
// other than except left, as a session start does. It reports whether
// the file changed.
func CursorRules(ctx context.Context, m *memory.Memory, except string) (bool, error) {
	text, _, errs := server.StartPack(ctx, m, recall.StartOptions{Source: "startup", Session: except})
	changed, err := hooks.WriteCursorRules(m.Project, recall.CapChars(text, hooks.MaxContextChars))
	return changed, errors.Join(append(errs, err)...)
}
