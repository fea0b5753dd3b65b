package agents

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/client"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
	"github.com/cairn-mem/cairn/internal/transcript"
)

// HookRun is one run of cairn hook: its event, streams, and how it finds
// and opens the memory.
type HookRun struct {
	Event string
	// Agent is the agent the hook runs for, as cairn hook --agent names
	// it (model.HookAgent): claude when empty.
	Agent  string
	Stdin  io.Reader
	Stdout io.Writer
	// Warn says what went wrong, on stderr.
	Warn func(string)
	// Find finds the memory's folder; payload is nil for the capture
	// events, whose payload is not read first.
	Find func(payload []byte) (string, error)
	// Open opens the memory in a folder.
	Open func(context.Context, string) (*memory.Memory, error)
	// Self is the cairn binary, which session-start runs the daemon
	// with (cairn -C PROJECT daemon run) when none runs; "" runs none.
	Self string
}

// NoMemoryMsg is what a session start outside any memory tells the user
// when cairn is wired for every project (the plugin, init --global).
const NoMemoryMsg = "cairn: this project has no memory yet; run `cairn init` in it to start one (then its sessions are captured and recalled)"

// spawn is how h runs the daemon of the memory m, nil when it runs none.
func (h HookRun) spawn(m *memory.Memory) *client.Spawn {
	if h.Self == "" {
		return nil
	}
	project := filepath.Dir(m.Dir)
	return &client.Spawn{Command: []string{h.Self, "-C", project, "daemon", "run"}, Dir: project, Env: os.Environ()}
}

// RunHook does one run of cairn hook for the agent h.Agent names
// (model.HookAgent; an agent it does not know is taken for Claude Code,
// with a warning). It never fails: a problem is one line through Warn,
// and Stdout holds the hook's JSON or nothing. Gemini CLI's and Cursor's
// payloads are put into Claude Code's shape first (runNative); Claude
// Code's and Codex's are Claude Code's already: SessionStart and
// UserPromptSubmit read the payload and answer it, any other event is
// captured, dropped into the inbox as .cairn/hooks/capture.sh does.
func RunHook(ctx context.Context, h HookRun) {
	event := h.Event
	ev := model.HookEventName(event)
	agent, ok := model.HookAgent(h.Agent)
	if !ok {
		if h.Agent != "" {
			h.Warn(fmt.Sprintf("hook: unknown agent %q (claude, codex, gemini or cursor); taken as claude", h.Agent))
		}
		agent = model.AgentClaudeCode
	}
	if agent == model.AgentGemini || agent == model.AgentCursor {
		h.Agent = agent
		runNative(ctx, h)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, hooks.Deadline(ev))
	defer cancel()
	switch ev {
	case model.HookSessionStart, model.HookUserPromptSubmit:
		payload, err := io.ReadAll(io.LimitReader(h.Stdin, hooks.MaxPayload+1))
		if err != nil {
			h.Warn(fmt.Sprintf("hook %s: read stdin: %v", event, err))
		}
		if len(payload) > hooks.MaxPayload {
			h.Warn(fmt.Sprintf("hook %s: payload longer than %d bytes; ignored", event, hooks.MaxPayload))
			io.Copy(io.Discard, h.Stdin)
			payload = nil
		}
		mem, err := h.Find(payload)
		if err != nil {
			h.Warn("hook " + event + ": " + err.Error())
			if p, _ := transcript.ParseHook(payload); errors.Is(err, memory.ErrNoMemory) && ev == model.HookSessionStart && p != nil && p.Source == "startup" {
				// Wired for every project: say once per session how to
				// start one here.
				hooks.WriteOutput(h.Stdout, &hooks.Output{SystemMessage: NoMemoryMsg})
			}
			return
		}
		if len(payload) > 0 {
			// The session records the agent (see hooks.TagAgent).
			payload, _ = io.ReadAll(hooks.TagAgent(bytes.NewReader(payload), agent))
		}
		var out *hooks.Output
		if ev == model.HookSessionStart {
			out, err = hookSessionStart(ctx, h, mem, payload)
		} else {
			open := func(ctx context.Context) (*memory.Memory, error) { return h.Open(ctx, mem) }
			out, err = server.PromptContext(ctx, mem, open, payload)
		}
		if err != nil {
			h.Warn("hook " + event + ": " + err.Error())
		}
		if out != nil {
			if err := hooks.WriteOutput(h.Stdout, out); err != nil {
				h.Warn("hook: " + err.Error())
			}
		}
	default:
		if event == "" {
			h.Warn("hook: no event given (cairn hook session-start, user-prompt-submit, or another event to capture)")
		}
		// Capture, as the script does. The payload is not read first: the
		// memory is found from the environment.
		mem, err := h.Find(nil)
		if err != nil {
			io.Copy(io.Discard, h.Stdin)
			h.Warn("hook " + event + ": " + err.Error())
			return
		}
		head := &headKeeper{max: maxCheckedPayload}
		if err := hooks.DropPayload(filepath.Join(mem, "inbox"), io.TeeReader(h.Stdin, head), agent); err != nil {
			h.Warn(fmt.Sprintf("hook %s: %v; this event is not captured", event, err))
			return
		}
		if head.n > 0 && head.n <= maxCheckedPayload && !json.Valid(head.b) {
			// Kept: the queue moves it to its failed jobs with the reason.
			h.Warn(fmt.Sprintf("hook %s: the payload (%d bytes) is not JSON; it goes to the failed capture jobs (cairn queue list --state failed)", event, head.n))
		}
	}
}

// maxCheckedPayload is the largest payload whose JSON a capture checks
// as it passes: the commonest, small ones, where a bad one is said at
// once rather than found in the failed jobs later.
const maxCheckedPayload = 64 << 10

// headKeeper keeps the first max bytes written to it and counts them all.
type headKeeper struct {
	b   []byte
	n   int
	max int
}

func (k *headKeeper) Write(p []byte) (int, error) {
	if room := k.max - len(k.b); room > 0 {
		k.b = append(k.b, p[:min(room, len(p))]...)
	}
	k.n += len(p)
	return len(p), nil
}

// hookSessionStart is server.SessionStart on the memory in mem.
func hookSessionStart(ctx context.Context, h HookRun, mem string, payload []byte) (*hooks.Output, error) {
	m, err := h.Open(ctx, mem)
	if err != nil {
		return nil, err
	}
	defer m.Close()
	return server.SessionStart(ctx, m, payload, h.spawn(m))
}

// HookMemoryDir finds the memory for a hook when neither -C nor CAIRN_DIR
// names it: CLAUDE_PROJECT_DIR (projectDir), the payload's cwd, then wd.
func HookMemoryDir(projectDir string, payload []byte, wd string) (string, error) {
	var probe struct {
		CWD string `json:"cwd"`
	}
	if len(payload) > 0 {
		_ = json.Unmarshal(payload, &probe)
	}
	for _, d := range []string{projectDir, probe.CWD} {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		if dir, err := memory.Find(d); err == nil {
			return dir, nil
		}
	}
	return memory.Find(wd)
}

// maxPayload is the most of a Gemini CLI or Cursor payload read: it is
// read whole to be put into Claude Code's shape, and a tool's output can
// be long.
const maxPayload = 64 << 20

// runNative is RunHook for Gemini CLI and Cursor. Gemini's SessionStart is
// a session start; its BeforeAgent is captured and answered with the
// memories relevant to the prompt (when cairn.yaml asks for them);
// Cursor's stop writes the rules file again; every other event is
// captured into the inbox. Cursor gets JSON on stdout whatever happens.
func runNative(ctx context.Context, h HookRun) {
	payload, err := io.ReadAll(io.LimitReader(h.Stdin, maxPayload+1))
	if err != nil {
		h.Warn(fmt.Sprintf("hook %s: read stdin: %v", h.Event, err))
	}
	native := h.Event
	defer func() {
		if h.Agent == model.AgentCursor {
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
	case h.Agent == model.AgentGemini && n.Event == model.HookSessionStart:
		out, err = hookSessionStart(ctx, h, mem, n.Payload)
	case h.Agent == model.AgentCursor && native == hooks.CursorStop:
		err = cursorStop(ctx, h, mem, n.Session)
	default:
		// Normalize named the agent in the payload already.
		if err := hooks.DropPayload(filepath.Join(mem, "inbox"), bytes.NewReader(n.Payload), ""); err != nil {
			h.Warn(fmt.Sprintf("hook %s: %v; this event is not captured", native, err))
		}
		if h.Agent == model.AgentGemini && n.Event == model.HookUserPromptSubmit {
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

// cursorStop writes the rules file again at the end of a Cursor turn of
// the conversation session.
func cursorStop(ctx context.Context, h HookRun, mem, session string) error {
	m, err := h.Open(ctx, mem)
	if err != nil {
		return err
	}
	defer m.Close()
	_, err = CursorRules(ctx, m, session, h.spawn(m))
	return err
}

// CursorRules writes the context pack into the project's Cursor rules
// file (hooks.WriteCursorRules), after capturing what the conversations
// other than except left, as a session start does. It reports whether
// the file changed.
func CursorRules(ctx context.Context, m *memory.Memory, except string, run *client.Spawn) (bool, error) {
	text, _, errs := server.StartPack(ctx, m, recall.StartOptions{Source: "startup", Session: except}, run)
	changed, err := hooks.WriteCursorRules(m.Project, recall.CapChars(text, hooks.MaxContextChars))
	return changed, errors.Join(append(errs, err)...)
}
