package hooks

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Gemini says where cairn is wired into Gemini CLI (cairn init --gemini):
// its hooks and its MCP server into one settings.json, the project's
// .gemini/settings.json or, Global, the user's ~/.gemini/settings.json.
type Gemini struct {
	Project string // the project's folder
	Global  bool
	Home    string // the user's home folder, for Global
	Self    string // how a hook command names the cairn binary (SelfCommand)
}

// Settings is the settings.json g edits.
func (g Gemini) Settings() string {
	if g.Global {
		return filepath.Join(g.Home, ".gemini", "settings.json")
	}
	return filepath.Join(g.Project, ".gemini", "settings.json")
}

// GeminiEvents are the Gemini CLI events cairn registers, in the order a
// session fires them.
func GeminiEvents() []string {
	return []string{GeminiSessionStart, GeminiBeforeAgent, GeminiAfterTool, GeminiAfterAgent, GeminiPreCompress, GeminiSessionEnd}
}

// geminiTimeout is the timeout of cairn's hook for a Gemini event, in
// milliseconds (Gemini's unit): those of the Claude Code hooks the events
// stand for, so that Deadline holds for both.
func geminiTimeout(event string) int {
	switch event {
	case GeminiSessionStart:
		return SessionStartTimeout * 1000
	case GeminiBeforeAgent:
		return PromptTimeout * 1000
	}
	return CaptureTimeout * 1000
}

// geminiHook is one hook of Gemini's settings.json.
type geminiHook struct {
	Type    string `json:"type"`
	Name    string `json:"name,omitempty"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

// geminiGroups are the groups g adds, by event: one hook each, for every
// tool (no matcher).
func (g Gemini) groups() map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for _, ev := range GeminiEvents() {
		h := geminiHook{Type: "command", Name: "cairn", Command: ShellQuote(g.Self) + " hook --agent gemini " + ev, Timeout: geminiTimeout(ev)}
		out[ev] = encode(struct {
			Hooks []geminiHook `json:"hooks"`
		}{[]geminiHook{h}})
	}
	return out
}

// geminiMCP is an entry of Gemini's "mcpServers".
type geminiMCP struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// GeminiResult is what Gemini.Install or Remove did to settings.json.
type GeminiResult struct {
	Settings *Edit
}

// Install merges cairn's hooks and MCP server into settings.json: the
// user's other keys, hooks and servers stay as they were and in their
// order, a copy of the file goes to settings.json.cairn-backup before the
// first change, and a file that is not JSON (Gemini reads comments too,
// which cairn cannot keep) is refused with its line and column.
func (g Gemini) Install() (*GeminiResult, error) {
	res := &GeminiResult{}
	e, err := EditJSON(g.Settings(), g.merge)
	if err != nil {
		return res, err
	}
	res.Settings = &e
	return res, excludeBackups(g.Project, res.Settings)
}

// Remove takes cairn's hooks and MCP server out of settings.json; a
// project's .gemini/ that cairn made and that this leaves empty goes too.
func (g Gemini) Remove() (*GeminiResult, error) {
	res := &GeminiResult{}
	e, err := EditJSON(g.Settings(), removeGemini)
	if err != nil {
		return res, err
	}
	res.Settings = &e
	if !g.Global && e.Changed {
		if _, err := os.Lstat(g.Settings()); errors.Is(err, fs.ErrNotExist) {
			os.Remove(filepath.Dir(g.Settings()))
		}
	}
	return res, excludeBackups(g.Project, res.Settings)
}

// merge puts g's hooks and server into a settings.json.
func (g Gemini) merge(data []byte) ([]byte, bool, error) {
	top, hooks, err := openSettings(data)
	if err != nil {
		return nil, false, err
	}
	if _, err := strip(hooks); err != nil {
		return nil, false, err
	}
	groups := g.groups()
	for _, ev := range GeminiEvents() {
		var list []json.RawMessage
		if raw, ok := hooks.get(ev); ok {
			if err := json.Unmarshal(raw, &list); err != nil {
				return nil, false, fmt.Errorf("hooks.%s is not a list: %w", ev, err)
			}
		}
		list = append(list, groups[ev])
		hooks.set(ev, encode(list))
	}
	top.set("hooks", hooks.marshal())
	_, servers, err := openMCP(top.marshal())
	if err != nil {
		return nil, false, err
	}
	servers.set(MCPName, encode(geminiMCP{Command: g.Self, Args: []string{"mcp"}}))
	top.set("mcpServers", servers.marshal())
	return finish(data, top)
}

// removeGemini takes cairn's hooks and server out of a settings.json.
func removeGemini(data []byte) ([]byte, bool, error) {
	out, hooksChanged, err := Remove(data)
	if err != nil {
		return nil, false, err
	}
	out2, mcpChanged, err := RemoveMCP(out)
	if err != nil {
		return nil, false, err
	}
	if !hooksChanged && !mcpChanged {
		return data, false, nil
	}
	return out2, true, nil
}
