package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// SyntaxError says where a settings file is not the JSON cairn can edit.
type SyntaxError struct {
	Line, Column int // 1-based
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// syntaxError places a problem at byte offset off of data.
func syntaxError(data []byte, off int64, msg string) *SyntaxError {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return &SyntaxError{Line: line, Column: col, Msg: msg}
}

// member is a key of a JSON object and its value, as written.
type member struct {
	key string
	val json.RawMessage
}

// object is a JSON object that keeps the order of its keys and the
// bytes of its values.
type object []member

// parseObject reads data as one JSON object. Blank data is an empty
// object. Duplicate keys are refused: which one counts is ambiguous.
func parseObject(data []byte) (object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return object{}, nil
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off := se.Offset - 1 // the offending byte
			if se.Offset >= int64(len(data)) {
				off = int64(len(data)) // the input ended early
			}
			if rest := data[min(off, int64(len(data))):]; bytes.HasPrefix(rest, []byte("//")) || bytes.HasPrefix(rest, []byte("/*")) {
				// Gemini CLI reads settings with comments; cairn's editor
				// keeps every byte it does not change, and cannot keep these.
				return nil, syntaxError(data, off, "a comment, which JSON does not allow: cairn cannot edit this file without losing it; take the comments out, then run the command again")
			}
			return nil, syntaxError(data, off, "invalid JSON: "+se.Error())
		}
		return nil, syntaxError(data, int64(len(data)), "invalid JSON: "+err.Error())
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, syntaxError(data, int64(len(data)-len(bytes.TrimLeft(data, " \t\r\n"))), "not a JSON object")
	}
	return decodeObject(data)
}

// decodeObject splits a valid JSON object into its members.
func decodeObject(data []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	o := object{}
	seen := map[string]bool{}
	for dec.More() {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, syntaxError(data, off+int64(len(data[off:])-len(bytes.TrimLeft(data[off:], " \t\r\n,"))),
				fmt.Sprintf("key %q appears twice", key))
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		o = append(o, member{key, raw})
	}
	if _, err := dec.Token(); err != nil && err != io.EOF { // }
		return nil, err
	}
	return o, nil
}

func (o object) get(key string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

func (o *object) set(key string, val json.RawMessage) {
	for i := range *o {
		if (*o)[i].key == key {
			(*o)[i].val = val
			return
		}
	}
	*o = append(*o, member{key, val})
}

func (o *object) del(key string) {
	for i := range *o {
		if (*o)[i].key == key {
			*o = append((*o)[:i], (*o)[i+1:]...)
			return
		}
	}
}

// marshal writes the object compactly; Format indents it.
func (o object) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// encode marshals v without HTML escapes: commands hold && and >.
func encode(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// format indents a settings document the way Claude Code writes it.
func format(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return append(raw, '\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// sameJSON reports whether a and b hold the same JSON value.
func sameJSON(a, b []byte) bool {
	var va, vb any
	if len(bytes.TrimSpace(a)) == 0 {
		a = []byte("{}")
	}
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("{}")
	}
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&va) != nil || db.Decode(&vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// Merge returns the settings file data (empty for a file that does not
// exist) with the plan's hooks in place: cairn's hooks already there are
// taken out first, then the plan's groups are appended to their events'
// lists, after the user's own. changed is false, and out is data
// itself, when the result holds the same JSON as data.
func Merge(data []byte, p Plan) (out []byte, changed bool, err error) {
	return MergeGroups(data, p.Groups())
}

// MergeGroups is Merge for groups of hooks by event, in a file of
// Claude Code's shape ({"hooks": {EVENT: [groups]}}, which Codex reads
// too).
func MergeGroups(data []byte, groups map[string]Group) (out []byte, changed bool, err error) {
	top, hooks, err := openSettings(data)
	if err != nil {
		return nil, false, err
	}
	if _, err := strip(hooks); err != nil {
		return nil, false, err
	}
	for _, ev := range events(groups) {
		var list []json.RawMessage
		if raw, ok := hooks.get(ev); ok {
			if err := json.Unmarshal(raw, &list); err != nil {
				return nil, false, fmt.Errorf("hooks.%s is not a list: %w", ev, err)
			}
		}
		list = append(list, encode(groups[ev]))
		hooks.set(ev, encode(list))
	}
	top.set("hooks", hooks.marshal())
	return finish(data, top)
}

// Remove returns the settings file data without cairn's hooks. Events
// and the "hooks" key that held nothing but cairn's are removed; those
// that were empty before are kept.
func Remove(data []byte) (out []byte, changed bool, err error) {
	top, hooks, err := openSettings(data)
	if err != nil {
		return nil, false, err
	}
	removed, err := strip(hooks)
	if err != nil {
		return nil, false, err
	}
	if !removed {
		return data, false, nil
	}
	if len(*hooks) == 0 {
		top.del("hooks")
	} else {
		top.set("hooks", hooks.marshal())
	}
	return finish(data, top)
}

func finish(data []byte, top object) ([]byte, bool, error) {
	raw := top.marshal()
	if sameJSON(data, raw) {
		return data, false, nil
	}
	return format(raw), true, nil
}

// openSettings parses a settings file and its "hooks" object.
func openSettings(data []byte) (top object, hooks *object, err error) {
	top, err = parseObject(data)
	if err != nil {
		return nil, nil, err
	}
	h := object{}
	if raw, ok := top.get("hooks"); ok && string(raw) != "null" {
		if len(raw) == 0 || raw[0] != '{' {
			return nil, nil, errors.New(`"hooks" is not an object`)
		}
		if h, err = decodeObject(raw); err != nil {
			return nil, nil, fmt.Errorf(`"hooks": %w`, err)
		}
	}
	return top, &h, nil
}

// strip takes cairn's hooks out of every event of hooks. A group left
// with no hook goes, and an event left with no group; removed says
// something was taken out.
func strip(hooks *object) (removedAny bool, err error) {
	for _, m := range append(object(nil), *hooks...) {
		var list []json.RawMessage
		if json.Unmarshal(m.val, &list) != nil {
			if bytes.HasPrefix(m.val, []byte("[")) {
				return false, fmt.Errorf("hooks.%s is not a list of groups", m.key)
			}
			continue // not a list: not ours to judge
		}
		kept := make([]json.RawMessage, 0, len(list))
		removed := false
		for _, g := range list {
			ng, drop, did := stripGroup(g)
			removed = removed || did
			if !drop {
				kept = append(kept, ng)
			}
		}
		if !removed {
			continue
		}
		removedAny = true
		if len(kept) == 0 {
			hooks.del(m.key)
			continue
		}
		hooks.set(m.key, encode(kept))
	}
	return removedAny, nil
}

// stripGroup takes cairn's hooks out of one matcher group. drop says the
// group held nothing else; removed that something was taken out.
func stripGroup(raw json.RawMessage) (out json.RawMessage, drop, removed bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return raw, false, false
	}
	g, err := decodeObject(raw)
	if err != nil {
		return raw, false, false
	}
	hr, ok := g.get("hooks")
	if !ok {
		return raw, false, false
	}
	var list []json.RawMessage
	if json.Unmarshal(hr, &list) != nil {
		return raw, false, false
	}
	kept := make([]json.RawMessage, 0, len(list))
	for _, h := range list {
		var c struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(h, &c) == nil && IsCairn(c.Command) {
			removed = true
			continue
		}
		kept = append(kept, h)
	}
	if !removed {
		return raw, false, false
	}
	if len(kept) == 0 {
		return nil, true, true
	}
	g.set("hooks", encode(kept))
	return g.marshal(), false, true
}

// Registered is a hook of cairn's found in a settings file.
type Registered struct {
	Event, Matcher string
	Hook
}

// Find lists cairn's hooks in a settings file.
func Find(data []byte) ([]Registered, error) {
	_, hooks, err := openSettings(data)
	if err != nil {
		return nil, err
	}
	var out []Registered
	for _, m := range *hooks {
		var list []json.RawMessage
		if json.Unmarshal(m.val, &list) != nil {
			continue
		}
		for _, raw := range list {
			var g Group
			if json.Unmarshal(raw, &g) != nil {
				continue // not a group Claude Code reads either
			}
			for _, h := range g.Hooks {
				if IsCairn(h.Command) {
					out = append(out, Registered{Event: m.key, Matcher: g.Matcher, Hook: h})
				}
			}
		}
	}
	return out, nil
}

// MCPName is the name cairn's MCP server is registered under.
const MCPName = "cairn"

// MCPServer is an entry of .mcp.json's "mcpServers".
type MCPServer struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// MergeMCP returns an .mcp.json (data; empty for none) with cairn's
// server registered under MCPName, replacing an older entry of that
// name and keeping every other server.
func MergeMCP(data []byte, s MCPServer) (out []byte, changed bool, err error) {
	return mergeMCP(data, s)
}

// mergeMCP is MergeMCP with an entry in the agent's own shape (Cursor's
// has no "type").
func mergeMCP(data []byte, entry any) (out []byte, changed bool, err error) {
	top, servers, err := openMCP(data)
	if err != nil {
		return nil, false, err
	}
	servers.set(MCPName, encode(entry))
	top.set("mcpServers", servers.marshal())
	return finish(data, top)
}

// RemoveMCP returns an .mcp.json without cairn's server; "mcpServers"
// goes too when cairn's was the only one.
func RemoveMCP(data []byte) (out []byte, changed bool, err error) {
	top, servers, err := openMCP(data)
	if err != nil {
		return nil, false, err
	}
	if _, ok := servers.get(MCPName); !ok {
		return data, false, nil
	}
	servers.del(MCPName)
	if len(*servers) == 0 {
		top.del("mcpServers")
	} else {
		top.set("mcpServers", servers.marshal())
	}
	return finish(data, top)
}

func openMCP(data []byte) (top object, servers *object, err error) {
	top, err = parseObject(data)
	if err != nil {
		return nil, nil, err
	}
	s := object{}
	if raw, ok := top.get("mcpServers"); ok && string(raw) != "null" {
		if len(raw) == 0 || raw[0] != '{' {
			return nil, nil, errors.New(`"mcpServers" is not an object`)
		}
		if s, err = decodeObject(raw); err != nil {
			return nil, nil, fmt.Errorf(`"mcpServers": %w`, err)
		}
	}
	return top, &s, nil
}

// Empty reports whether data is a JSON object with no keys (or blank).
func Empty(data []byte) bool {
	o, err := parseObject(data)
	return err == nil && len(o) == 0
}
