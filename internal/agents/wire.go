package agents

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/cairn-mem/cairn/hooks"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/server"
)

// Wire says which agents cairn init wires the memory into, and where.
type Wire struct {
	Claude, Gemini, Cursor bool
	// Global edits the user's settings (~/.claude, ~/.gemini) instead of
	// the project's; Cursor has none of its own here.
	Global bool
	// Remove takes cairn out of the agents' files again.
	Remove     bool
	Project    string // the project's folder
	Home       string // the user's home folder, for Global
	ConfigHome string // $XDG_CONFIG_HOME, for Global
}

// Wired is what Run did, agent by agent (nil for one not named, or not
// reached).
type Wired struct {
	Remove bool
	Claude *hooks.ClaudeResult
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
		c := hooks.Claude{Project: w.Project, MemoryDir: filepath.Join(w.Project, memory.DirName), Global: w.Global, Home: w.Home, ConfigHome: w.ConfigHome}
		var err error
		if w.Remove {
			res.Claude, err = c.Remove()
		} else {
			res.Claude, err = server.InstallClaude(ctx, m, c)
		}
		errs = append(errs, err)
	}
	if w.Gemini {
		var err error
		res.Gemini, err = w.gemini(m)
		errs = append(errs, err)
	}
	if w.Cursor {
		var err error
		res.Cursor, err = w.cursor(ctx, m)
		errs = append(errs, err)
	}
	return res, errors.Join(errs...)
}

func (w Wire) gemini(m *memory.Memory) (*hooks.GeminiResult, error) {
	g := hooks.Gemini{Project: w.Project, Global: w.Global, Home: w.Home}
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
