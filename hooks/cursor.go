package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/internal/codegit"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// Cursor says where cairn is wired into Cursor (cairn init --cursor):
// its hooks into the project's .cursor/hooks.json, and the context as the
// rules file .cursor/rules/cairn.mdc, which Cursor includes in every
// conversation (its hooks cannot add context).
type Cursor struct {
	Project string // the project's folder
	Self    string // how a hook command names the cairn binary (SelfCommand)
}

// CursorFiles are the files cairn init --cursor edits or writes.
type CursorFiles struct {
	Hooks string // .cursor/hooks.json
	MCP   string // .cursor/mcp.json
	Rules string // .cursor/rules/cairn.mdc
}

// Files are the files c edits.
func (c Cursor) Files() CursorFiles {
	return CursorFiles{
		Hooks: filepath.Join(c.Project, ".cursor", "hooks.json"),
		MCP:   filepath.Join(c.Project, ".cursor", "mcp.json"),
		Rules: CursorRulesFile(c.Project),
	}
}

// CursorRulesFile is the rules file cairn keeps for Cursor in project.
func CursorRulesFile(project string) string {
	return filepath.Join(project, ".cursor", "rules", "cairn.mdc")
}

// CursorEvents are the Cursor hook events cairn registers: what a
// conversation did, and its stop, after which the rules file is written
// again for the next turn and conversation.
func CursorEvents() []string {
	return []string{CursorBeforeSubmitPrompt, CursorAfterShellExecution, CursorAfterFileEdit,
		CursorAfterMCPExecution, CursorAfterAgentResponse, CursorStop}
}

// command is the hook command c registers for event.
func (c Cursor) command(event string) string {
	return ShellQuote(c.Self) + " hook --agent cursor " + event
}

// CursorResult is what Cursor.Install or Remove did.
type CursorResult struct {
	Hooks, MCP *Edit
	// Rules says whether the rules file was written or removed.
	Rules bool
}

// Install merges cairn's hooks into .cursor/hooks.json and its MCP server
// into .cursor/mcp.json (the user's other hooks and servers stay, and a
// copy of each file goes to FILE.cairn-backup before the first change),
// and keeps the rules file, written later by the hooks, out of the
// project's git through .git/info/exclude.
func (c Cursor) Install() (*CursorResult, error) {
	t := c.Files()
	res := &CursorResult{}
	e, err := EditJSON(t.Hooks, func(data []byte) ([]byte, bool, error) { return mergeCursor(data, c) })
	if err != nil {
		return res, err
	}
	res.Hooks = &e
	m, err := EditJSON(t.MCP, func(data []byte) ([]byte, bool, error) {
		return mergeMCP(data, geminiMCP{Command: c.Self, Args: []string{"mcp"}})
	})
	if err != nil {
		return res, err
	}
	res.MCP = &m
	if _, err := codegit.Exclude(c.Project, []string{"/.cursor/rules/cairn.mdc"}, "# cairn's context for Cursor, written by cairn (cairn init --cursor)"); err != nil {
		return res, err
	}
	return res, excludeBackups(c.Project, res.Hooks, res.MCP)
}

// Remove takes cairn's hooks and MCP server out of .cursor/ and deletes
// the rules file; .cursor/rules/ and .cursor/ go too when that leaves
// them empty.
func (c Cursor) Remove() (*CursorResult, error) {
	t := c.Files()
	res := &CursorResult{}
	e, err := EditJSON(t.Hooks, removeCursor)
	if err != nil {
		return res, err
	}
	res.Hooks = &e
	m, err := EditJSON(t.MCP, RemoveMCP)
	if err != nil {
		return res, err
	}
	res.MCP = &m
	if err := os.Remove(t.Rules); err == nil {
		res.Rules = true
	} else if !errors.Is(err, fs.ErrNotExist) {
		return res, err
	}
	// Only empty folders are removed; anything else in them stays.
	os.Remove(filepath.Dir(t.Rules))
	os.Remove(filepath.Dir(t.Hooks))
	return res, nil
}

// openCursor parses a hooks.json and its "hooks" object.
func openCursor(data []byte) (top object, hooks *object, err error) {
	return openSettings(data)
}

// mergeCursor puts c's hooks into a hooks.json: cairn's old ones out,
// one entry per event of CursorEvents appended after the user's, and
// "version": 1 when the file has none.
func mergeCursor(data []byte, c Cursor) ([]byte, bool, error) {
	top, hooks, err := openCursor(data)
	if err != nil {
		return nil, false, err
	}
	if err := stripCursor(hooks); err != nil {
		return nil, false, err
	}
	if _, ok := top.get("version"); !ok {
		top = append(object{{"version", json.RawMessage("1")}}, top...)
	}
	for _, ev := range CursorEvents() {
		var list []json.RawMessage
		if raw, ok := hooks.get(ev); ok {
			if err := json.Unmarshal(raw, &list); err != nil {
				return nil, false, fmt.Errorf("hooks.%s is not a list: %w", ev, err)
			}
		}
		list = append(list, encode(map[string]string{"command": c.command(ev)}))
		hooks.set(ev, encode(list))
	}
	top.set("hooks", hooks.marshal())
	return finish(data, top)
}

// removeCursor takes cairn's hooks out of a hooks.json; an event left
// with none goes, and "hooks" and "version" when cairn's were all the
// file held.
func removeCursor(data []byte) ([]byte, bool, error) {
	top, hooks, err := openCursor(data)
	if err != nil {
		return nil, false, err
	}
	before := hooks.marshal()
	if err := stripCursor(hooks); err != nil {
		return nil, false, err
	}
	if bytes.Equal(before, hooks.marshal()) {
		return data, false, nil
	}
	if len(*hooks) == 0 {
		top.del("hooks")
		if v, ok := top.get("version"); ok && string(v) == "1" && len(top) == 1 {
			top.del("version")
		}
	} else {
		top.set("hooks", hooks.marshal())
	}
	return finish(data, top)
}

// stripCursor takes cairn's entries ({"command": "cairn hook ..."}) out
// of every event's list.
func stripCursor(hooks *object) error {
	for _, m := range append(object(nil), *hooks...) {
		var list []json.RawMessage
		if json.Unmarshal(m.val, &list) != nil {
			if bytes.HasPrefix(m.val, []byte("[")) {
				return fmt.Errorf("hooks.%s is not a list of hooks", m.key)
			}
			continue
		}
		kept := make([]json.RawMessage, 0, len(list))
		for _, h := range list {
			var e struct {
				Command string `json:"command"`
			}
			if json.Unmarshal(h, &e) == nil && IsCairn(e.Command) {
				continue
			}
			kept = append(kept, h)
		}
		switch {
		case len(kept) == len(list):
		case len(kept) == 0:
			hooks.del(m.key)
		default:
			hooks.set(m.key, encode(kept))
		}
	}
	return nil
}

// cursorRulesHeader opens the rules file: Cursor's front matter (always
// applied) and the line that says who writes it.
const cursorRulesHeader = `---
description: What cairn remembers of this project (generated by cairn; do not edit)
alwaysApply: true
---
<!-- Generated by cairn (cairn init --cursor) from the memory in .cairn/, and
rewritten at the end of every agent turn: edits here are lost. -->

`

// WriteCursorRules writes the context pack text into the project's rules
// file, when it changed; it reports whether it wrote. An empty pack says
// that the memory holds nothing yet.
func WriteCursorRules(project, text string) (bool, error) {
	if strings.TrimSpace(text) == "" {
		text = "cairn's memory of this project is empty so far: nothing to recall yet."
	}
	name := CursorRulesFile(project)
	data := []byte(cursorRulesHeader + strings.TrimRight(text, "\n") + "\n")
	if old, err := os.ReadFile(name); err == nil && bytes.Equal(old, data) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return false, fmt.Errorf("cursor rules: %w", err)
	}
	if err := safefile.Write(name, data, 0o644); err != nil {
		return false, fmt.Errorf("cursor rules: %w", err)
	}
	return true, nil
}

// CursorAnswer is what a Cursor hook prints: beforeSubmitPrompt is told
// to go on, the others get an empty object (Cursor reads no context from
// them).
func CursorAnswer(event string) []byte {
	if event == CursorBeforeSubmitPrompt {
		return []byte(`{"continue":true}` + "\n")
	}
	return []byte("{}\n")
}
