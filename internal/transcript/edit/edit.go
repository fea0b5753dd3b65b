package edit

import (
	"cmp"
	"encoding/json"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/summarize/edits"
)

// maxReplaced bounds one side of a replacement Replacements reports, in
// bytes: a setting's line, not a block of code.
const maxReplaced = 160

// Replacements are the one-line replacements an edit tool call makes, old
// and new: "maximumPoolSize = 10" became "maximumPoolSize = 20". What a
// setting was and became is in the call, whatever the agent says of it.
// Multi-line replacements (code) are left out.
func Replacements(name string, input json.RawMessage) [][2]string {
	if len(input) == 0 || input[0] != '{' {
		return nil
	}
	type edit struct {
		Old    string `json:"old_string"`
		New    string `json:"new_string"`
		OldStr string `json:"old_str"`
		NewStr string `json:"new_str"`
	}
	var in struct {
		edit
		Edits    []edit `json:"edits"`
		FilePath string `json:"file_path"`
		Path     string `json:"path"`
	}
	switch name {
	case "Edit", "MultiEdit", "str_replace_based_edit_tool", "str_replace_editor", "search_replace":
	default:
		return nil
	}
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	var out [][2]string
	for _, e := range append([]edit{in.edit}, in.Edits...) {
		was, now := cmp.Or(e.Old, e.OldStr), cmp.Or(e.New, e.NewStr)
		o, n, ok := changedLine(was, now)
		if edits.Manifest(cmp.Or(in.FilePath, in.Path)) && !ok {
			if sw := Swaps(was, now); sw != nil {
				out = append(out, sw...)
				continue
			}
		}
		if !ok {
			// A block of settings edited whole ("executor:
			// 'ramping-vus'" and its stages became "executor:
			// 'constant-arrival-rate'" and a rate) changes the
			// settings its keys pair up.
			if strings.Count(was, "\n") < maxBlockLines && strings.Count(now, "\n") < maxBlockLines {
				out = append(out, WriteReplacements(was, now)...)
			}
			continue
		}
		if len(o) > maxReplaced || len(n) > maxReplaced {
			continue
		}
		out = append(out, [2]string{o, n})
	}
	return out
}

// maxSwaps bounds the dependencies one edit is read to have swapped.
const maxSwaps = 3

// Swaps pairs the dependencies an edit of a package manifest took out
// with those it put in, old line then new: three markdown-it lines
// replaced by "@deno/gfm": "jsr:@deno/gfm@0.10.0" are one library put
// in the place of another, whatever the agent says of it. A version
// bumped is a setting, not a swap (WriteReplacements); nil when nothing
// was both taken out and put in.
func Swaps(was, now string) [][2]string {
	a, b := dependencies(was), dependencies(now)
	var gone, came []string
	for name, l := range a {
		if _, ok := b[name]; !ok {
			gone = append(gone, l)
		}
	}
	for name, l := range b {
		if _, ok := a[name]; !ok {
			came = append(came, l)
		}
	}
	if len(gone) == 0 || len(came) == 0 {
		return nil
	}
	sort.Strings(gone)
	sort.Strings(came)
	var out [][2]string
	for i, g := range gone[:min(len(gone), maxSwaps)] {
		out = append(out, [2]string{g, came[min(i, len(came)-1)]})
	}
	return out
}

// dependencies are the lines of text that declare a dependency, by name,
// without a trailing comma.
func dependencies(text string) map[string]string {
	out := map[string]string{}
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if name := edits.Dependency(l); name != "" && len(l) <= maxReplaced {
			out[name] = strings.TrimSuffix(l, ",")
		}
	}
	return out
}

// maxBlockLines bounds the lines of an edit whose settings Replacements
// pairs by key: a scenario's options, not a function.
const maxBlockLines = 30

// maxWriteLines bounds the lines of a file WriteReplacements compares:
// a config, not a source tree.
const maxWriteLines = 400

// WriteReplacements are the settings a whole-file write gave another
// value, old line then new, against what the file held before (was):
// "compatibility_date = \"2024-09-23\"" became "compatibility_date =
// \"2025-03-10\"" when the agent wrote wrangler.toml anew. A line is a
// setting when it starts with a key and "=" or ":"; one whose key is on
// one line only on each side is paired. Keys said twice (a TOML table's
// "name" in each of its sections) are left out: which one changed is not
// known.
func WriteReplacements(was, now string) [][2]string {
	a, b := settingLines(was), settingLines(now)
	if a == nil || b == nil {
		return nil
	}
	var out [][2]string
	for k, o := range a {
		n, ok := b[k]
		if !ok || o == "" || n == "" || o == n || len(o) > maxReplaced || len(n) > maxReplaced {
			continue
		}
		out = append(out, [2]string{o, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// settingLines are a file's lines that set a key, by key; "" for a key
// set on more than one line. nil for a file too long to be a config.
func settingLines(text string) map[string]string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if len(lines) > maxWriteLines {
		return nil
	}
	out := map[string]string{}
	for _, l := range lines {
		l = strings.TrimSpace(l)
		m := settingLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if _, seen := out[m[1]]; seen {
			out[m[1]] = ""
			continue
		}
		out[m[1]] = l
	}
	return out
}

// settingLine is a key given a value on one line: "port = 8790",
// "compatibility_date = \"2024-09-23\"", "replicas: 3", "\"lodash\":
// \"^4.17.21\",".
var settingLine = lazyre.New(`^["']?([A-Za-z_][\w.-]{0,60})["']?\s*[=:]\s*\S`)

// ReadContent is a file's text as Claude Code's Read tool shows it, each
// line after its number and a tab or an arrow ("3\tport = 8790", "
// 3→port = 8790"); "" when the output is not such a listing.
func ReadContent(output string) string {
	lines := strings.Split(output, "\n")
	var b strings.Builder
	for _, l := range lines {
		m := numbered.FindStringSubmatchIndex(l)
		if m == nil {
			if strings.TrimSpace(l) == "" {
				continue
			}
			return ""
		}
		b.WriteString(l[m[1]:])
		b.WriteByte('\n')
	}
	return b.String()
}

var numbered = lazyre.New(`^\s*\d+(?:\t|→)`)

// changedLine is the one line an edit changed: the whole replacement when
// it is one line, or the only line that differs when old and new have as
// many lines (an edit often carries a line around it to be unique), or
// the one line taken out when the lines put in hold it with one value
// changed ("const PORT = Number(process.env.PORT ?? 4444);" became the
// same with 8080, and a line for the JWKS under it).
func changedLine(old, new string) (o, n string, ok bool) {
	ol := strings.Split(strings.ReplaceAll(strings.TrimSpace(old), "\r\n", "\n"), "\n")
	nl := strings.Split(strings.ReplaceAll(strings.TrimSpace(new), "\r\n", "\n"), "\n")
	if len(ol) != len(nl) {
		return grownLine(ol, nl)
	}
	for i := range ol {
		a, b := strings.TrimSpace(ol[i]), strings.TrimSpace(nl[i])
		if a == b {
			continue
		}
		if o != "" || a == "" || b == "" {
			return "", "", false // more than one line changed: code, not a value
		}
		o, n = a, b
	}
	return o, n, o != ""
}

// grownLine is the one line of ol that nl no longer holds, paired with
// the one line nl put in that differs from it in one word alone, a
// number: a value changed where the edit also added code.
func grownLine(ol, nl []string) (o, n string, ok bool) {
	gone, came := lineDiff(ol, nl), lineDiff(nl, ol)
	if len(gone) != 1 {
		return "", "", false
	}
	for _, c := range came {
		if !edits.OneValue(gone[0], c) {
			continue
		}
		if n != "" {
			return "", "", false // which of two is the line it became is not known
		}
		n = c
	}
	return gone[0], n, n != ""
}

// lineDiff are the lines of a, trimmed and not blank, that b does not
// hold as often.
func lineDiff(a, b []string) []string {
	left := map[string]int{}
	for _, l := range b {
		left[strings.TrimSpace(l)]++
	}
	var out []string
	for _, l := range a {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if left[l] > 0 {
			left[l]--
			continue
		}
		out = append(out, l)
	}
	return out
}
