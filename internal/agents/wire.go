package agents

import (
	"context"
	"errors"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
)

// Wire says which agents cairn init wires the memory into, and where.
type Wire struct {
	Claude, Codex, Gemini, Cursor bool
	// Global edits the user's settings (~/.claude, ~/.codex, ~/.gemini)
	// instead of the project's; Cursor has none of its own here.
	Global bool
	// Remove takes cairn out of the agents' files again.
	Remove  bool
	Project string // the project's folder
	// Getenv reads $HOME, $XDG_CONFIG_HOME and $CODEX_HOME.
	Getenv func(string) string
}

// Wired is what Run did, agent by agent (nil for one not named, or not
// reached).
type Wired struct {
	Remove bool
	Claude *hooks.ClaudeResult
	Codex  *hooks.CodexResult
	Gemini *hooks.GeminiResult
	Cursor *hooks.CursorResult
}

// Run wires the memory m into the agents w names, or with Remove takes it
// out of their files (m may then be nil). Each agent is done even when
// one before it failed; the errors are joined.
func (w Wire) Run(ctx context.Context, m *memory.Memory) (*Wired, error) {
	res := &Wired{Remove: w.Remove}
	var errs []error
	if w.Claude {
		var err error
		res.Claude, err = w.claude(ctx, m)
		errs = append(errs, err)
	}
	if w.Codex {
		var err error
		res.Codex, err = w.codex(m)
		errs = append(errs, err)
	}
	if w.Gemini {
		var err error
		res.Gemini, err = w.gemini()
		errs = append(errs, err)
	}
	if w.Cursor {
		var err error
		res.Cursor, err = w.cursor(ctx, m)
		errs = append(errs, err)
	}
	return res, errors.Join(errs...)
}

// claude wires Claude Code (installClaude), or takes it out.
func (w Wire) claude(ctx context.Context, m *memory.Memory) (*hooks.ClaudeResult, error) {
	c, err := hooks.NewClaude(w.Project, w.Global, w.Getenv)
	if err != nil {
		return nil, err
	}
	if w.Remove {
		return c.Remove()
	}
	return installClaude(ctx, m, c)
}

func (w Wire) codex(m *memory.Memory) (*hooks.CodexResult, error) {
	c, err := hooks.NewCodex(w.Project, w.Global, m != nil && m.Config.Hooks.PromptContext, w.Getenv)
	if err != nil {
		return nil, err
	}
	if w.Remove {
		return c.Remove()
	}
	return c.Install()
}

func (w Wire) gemini() (*hooks.GeminiResult, error) {
	g := hooks.Gemini{Project: w.Project, Global: w.Global}
	if g.Global {
		if g.Home = w.Getenv("HOME"); g.Home == "" {
			return nil, errors.New("--global: $HOME is not defined")
		}
	}
	if w.Remove {
		return g.Remove()
	}
	var err error
	if g.Self, err = hooks.SelfCommand(); err != nil {
		return nil, err
	}
	return g.Install()
}

// cursor wires Cursor, and writes the rules file from the memory as it
// stands.
func (w Wire) cursor(ctx context.Context, m *memory.Memory) (*hooks.CursorResult, error) {
	c := hooks.Cursor{Project: w.Project}
	if w.Remove {
		return c.Remove()
	}
	var err error
	if c.Self, err = hooks.SelfCommand(); err != nil {
		return nil, err
	}
	res, err := c.Install()
	if err != nil {
		return res, err
	}
	text, err := recall.StartPack(ctx, m, nil, recall.StartOptions{Source: "startup"})
	if err != nil {
		return res, err
	}
	res.Rules, err = hooks.WriteCursorRules(w.Project, recall.CapChars(text, hooks.MaxContextChars))
	return res, err
}

// installClaude wires the memory m into Claude Code (hooks.Claude.Install)
// after keeping the hook scripts out of the memory's history: scripts
// committed before are ignored from now on, in one checkpoint.
func installClaude(ctx context.Context, m *memory.Memory, c hooks.Claude) (*hooks.ClaudeResult, error) {
	c.MemoryDir, c.PromptContext = m.Dir, m.Config.Hooks.PromptContext
	var err error
	if c.Self, err = hooks.SelfCommand(); err != nil {
		return nil, err
	}
	paths, err := hooks.IgnoreScripts(m.Dir, func(p string) bool {
		_, err := m.History().ReadFileAt(ctx, "HEAD", p)
		return err == nil
	})
	if err != nil {
		return nil, err
	}
	if len(paths) > 0 {
		_, err = m.Checkpoint(ctx, memory.CheckpointOptions{Message: "hooks: keep the agent hook scripts out of the memory's history", Event: "init", Paths: paths})
		if err != nil && !errors.Is(err, memory.ErrNothingToDo) {
			return nil, err
		}
	}
	return c.Install()
}
