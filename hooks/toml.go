package hooks

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// TOMLTable is a table cairn owns in a user's TOML file, written as a
// [header] section of its own: [mcp_servers.cairn] in Codex's
// config.toml.
type TOMLTable struct {
	Path    []string // the header's keys: mcp_servers, cairn
	Comment string   // a comment line under the header, without "# "
	Keys    []TOMLKey
}

// TOMLKey is a key of a TOMLTable and its value: a string or a list of
// strings.
type TOMLKey struct {
	Name  string
	Value any
}

// MergeTOML returns a TOML file (data; empty for a file that does not
// exist) with t in it. The file is edited as text, so the user's
// comments, order and formatting stay: a table of that name whose keys
// already hold t's values is left as it is (with whatever else the user
// put in it), one that differs is replaced where it stands, and a missing
// one is appended at the end, after a blank line. A file that is not
// valid TOML is refused (*SyntaxError), and so is a result that a TOML
// parser does not read as the file with t and nothing else changed.
func MergeTOML(data []byte, t TOMLTable) (out []byte, changed bool, err error) {
	doc, err := decodeTOML(data)
	if err != nil {
		return nil, false, err
	}
	if cur, ok := lookup(doc, t.Path); ok && holds(cur, t) {
		return data, false, nil
	}
	lines := splitLines(data)
	secs := sections(lines, t.Path)
	if _, ok := lookup(doc, t.Path); ok && len(secs) == 0 {
		return nil, false, fmt.Errorf("%s is set in a form cairn does not edit (a dotted key or an inline table); write it as a [%s] table or remove it, then run the command again",
			strings.Join(t.Path, "."), strings.Join(t.Path, "."))
	}
	block := t.lines()
	var b []string
	if len(secs) == 0 {
		b = lines
		if n := len(b); n > 0 && !strings.HasSuffix(b[n-1], "\n") {
			b[n-1] += "\n"
		}
		if len(b) > 0 {
			b = append(b, "\n")
		}
		b = append(b, block...)
	} else {
		at := secs[0][0]
		b = append(b, lines[:at]...)
		b = append(b, block...)
		b = append(b, cut(lines[at:], shift(secs, at))...)
	}
	out = []byte(strings.Join(b, ""))
	return out, true, checkTOML(doc, out, t.Path, &t)
}

// RemoveTOML returns a TOML file without the table at path (and its
// sub-tables), edited as text as MergeTOML does. The blank line before a
// table that ended the file goes with it.
func RemoveTOML(data []byte, path []string) (out []byte, changed bool, err error) {
	doc, err := decodeTOML(data)
	if err != nil {
		return nil, false, err
	}
	if _, ok := lookup(doc, path); !ok {
		return data, false, nil
	}
	lines := splitLines(data)
	secs := sections(lines, path)
	if len(secs) == 0 {
		return nil, false, fmt.Errorf("%s is set in a form cairn does not edit (a dotted key or an inline table); remove it by hand", strings.Join(path, "."))
	}
	kept := cut(lines, secs)
	if n := len(kept); secs[len(secs)-1][1] == len(lines) && n > 0 && strings.TrimSpace(kept[n-1]) == "" {
		kept = kept[:n-1] // the table ended the file: so does the blank line before it
	}
	out = []byte(strings.Join(kept, ""))
	return out, true, checkTOML(doc, out, path, nil)
}

// lines is the table as cairn writes it.
func (t TOMLTable) lines() []string {
	out := []string{"[" + strings.Join(quoteKeys(t.Path), ".") + "]\n"}
	if t.Comment != "" {
		out = append(out, "# "+t.Comment+"\n")
	}
	for _, k := range t.Keys {
		out = append(out, quoteKey(k.Name)+" = "+tomlValue(k.Value)+"\n")
	}
	return out
}

// holds reports whether the decoded table cur has t's keys and values.
func holds(cur any, t TOMLTable) bool {
	m, ok := cur.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range t.Keys {
		if !reflect.DeepEqual(m[k.Name], plain(k.Value)) {
			return false
		}
	}
	return true
}

// plain is v as the TOML decoder gives it back.
func plain(v any) any {
	if l, ok := v.([]string); ok {
		out := make([]any, len(l))
		for i, s := range l {
			out[i] = s
		}
		return out
	}
	return v
}

// checkTOML reads the edited file back: it must be valid TOML, equal to
// the original outside path, and hold t at path (nothing, without t).
// Text edits can be fooled (a "[" at the start of a line inside a
// multi-line string or array); this is what keeps them from reaching the
// file.
func checkTOML(before map[string]any, out []byte, path []string, t *TOMLTable) error {
	after, err := decodeTOML(out)
	if err != nil {
		return fmt.Errorf("cairn's edit would not be valid TOML (%v); the file is left as it is", err)
	}
	got, ok := lookup(after, path)
	if t == nil && ok || t != nil && (!ok || !holds(got, *t)) {
		return errors.New("cairn could not edit the file's text safely; the file is left as it is (make the change by hand)")
	}
	del(before, path)
	del(after, path)
	if !reflect.DeepEqual(before, after) {
		return errors.New("cairn's edit would change other settings in the file; the file is left as it is (make the change by hand)")
	}
	return nil
}

// decodeTOML parses data, placing a syntax error at its line and column.
func decodeTOML(data []byte) (map[string]any, error) {
	doc := map[string]any{}
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, &SyntaxError{Line: line, Column: col, Msg: "invalid TOML: " + de.Error()}
		}
		return nil, &SyntaxError{Line: 1, Column: 1, Msg: "invalid TOML: " + err.Error()}
	}
	return doc, nil
}

func lookup(doc map[string]any, path []string) (any, bool) {
	var cur any = doc
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// del removes path from doc, and the tables it leaves empty.
func del(doc map[string]any, path []string) {
	if len(path) == 0 {
		return
	}
	m, ok := doc[path[0]].(map[string]any)
	if len(path) == 1 || !ok {
		delete(doc, path[0])
		return
	}
	del(m, path[1:])
	if len(m) == 0 {
		delete(doc, path[0])
	}
}

// splitLines splits data into lines that keep their "\n".
func splitLines(data []byte) []string {
	var out []string
	for l := range strings.Lines(string(data)) {
		out = append(out, l)
	}
	return out
}

// sections finds the [header] sections of the table at path and of its
// sub-tables: [start, end) line ranges, in order. A section runs to the
// next header; the blank and comment lines that end it belong to what
// follows.
func sections(lines []string, path []string) [][2]int {
	var out [][2]int
	start := -1
	end := func(i int) {
		if start < 0 {
			return
		}
		j := i
		for j > start+1 {
			t := strings.TrimSpace(lines[j-1])
			if t != "" && !strings.HasPrefix(t, "#") {
				break
			}
			j--
		}
		out = append(out, [2]int{start, j})
		start = -1
	}
	inString := ""
	for i, l := range lines {
		if inString != "" {
			if strings.Count(l, inString)%2 == 1 {
				inString = ""
			}
			continue
		}
		if p, ok := header(l); ok {
			end(i)
			if len(p) >= len(path) && slices.Equal(p[:len(path)], path) {
				start = i
			}
			continue
		}
		for _, q := range []string{`"""`, `'''`} {
			if strings.Count(l, q)%2 == 1 {
				inString = q
			}
		}
	}
	end(len(lines))
	return out
}

// cut returns lines without the ranges of secs, and without the blank
// lines between two of them.
func cut(lines []string, secs [][2]int) []string {
	var out []string
	at := 0
	for i, s := range secs {
		gap := lines[at:s[0]]
		if i == 0 || strings.TrimSpace(strings.Join(gap, "")) != "" {
			out = append(out, gap...)
		}
		at = s[1]
	}
	return append(out, lines[at:]...)
}

// shift moves ranges by -by lines.
func shift(secs [][2]int, by int) [][2]int {
	out := make([][2]int, len(secs))
	for i, s := range secs {
		out[i] = [2]int{s[0] - by, s[1] - by}
	}
	return out
}

// header reads a line as a table header, [a.b."c d"], giving its keys; an
// array-of-tables header [[x]] gives its keys too, as it ends a section.
func header(line string) ([]string, bool) {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "[") {
		return nil, false
	}
	s = strings.TrimPrefix(strings.TrimPrefix(s, "["), "[")
	var keys []string
	for {
		s = strings.TrimLeft(s, " \t")
		var k string
		switch {
		case strings.HasPrefix(s, `"`):
			i := 1
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(s) {
				return nil, false
			}
			if err := toml.Unmarshal([]byte("k = "+s[:i+1]), &struct{ K *string }{&k}); err != nil {
				return nil, false
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "'"):
			i := strings.IndexByte(s[1:], '\'')
			if i < 0 {
				return nil, false
			}
			k, s = s[1:i+1], s[i+2:]
		default:
			i := strings.IndexFunc(s, func(r rune) bool { return !bareKey(r) })
			if i <= 0 {
				return nil, false
			}
			k, s = s[:i], s[i:]
		}
		keys = append(keys, k)
		s = strings.TrimLeft(s, " \t")
		if strings.HasPrefix(s, ".") {
			s = s[1:]
			continue
		}
		if !strings.HasPrefix(s, "]") {
			return nil, false
		}
		s = strings.TrimPrefix(strings.TrimPrefix(s, "]"), "]")
		s = strings.TrimSpace(s)
		return keys, s == "" || strings.HasPrefix(s, "#")
	}
}

func bareKey(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
}

func quoteKeys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = quoteKey(k)
	}
	return out
}

func quoteKey(k string) string {
	if k != "" && strings.IndexFunc(k, func(r rune) bool { return !bareKey(r) }) < 0 {
		return k
	}
	return tomlString(k)
}

// tomlValue writes a string or a list of strings.
func tomlValue(v any) string {
	switch v := v.(type) {
	case []string:
		q := make([]string, len(v))
		for i, s := range v {
			q[i] = tomlString(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	case string:
		return tomlString(v)
	}
	return tomlString(fmt.Sprint(v))
}

// tomlString writes s as a TOML basic string: JSON's escapes are TOML's,
// once < > & are left alone.
func tomlString(s string) string {
	return string(encode(s))
}
