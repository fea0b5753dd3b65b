package replace

import (
	"slices"
	"strings"
	"unicode"

	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/gone"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
)

// substitution finds the start of an in-place replacement, sed's or
// perl's "s/old/new/", with any of the usual delimiters.
var substitution = lazyre.New(`(?:^|[\s'"])s([/|#,:@])`)

// Pairs are the old and new texts of a command's "s/old/new/"s.
// A command the summary cut short ("…") ends in a replacement whose new
// text is cut: it is given with the "…" (EditOf reads it so).
func Pairs(cmd string) [][2]string {
	var out [][2]string
	for _, m := range substitution.FindAllStringSubmatchIndex(cmd, -1) {
		d := cmd[m[2]]
		parts, cur, esc := []string(nil), []byte(nil), false
		for i := m[3]; i < len(cmd) && len(parts) < 2; i++ {
			switch c := cmd[i]; {
			case esc && len(parts) == 0 && strings.IndexByte("b<>", c) >= 0:
				esc = false // a word boundary the pattern asks for, no text
			case esc:
				cur, esc = append(cur, c), false
			case c == '\\':
				esc = true
			case c == d:
				parts, cur = append(parts, string(cur)), nil
			default:
				cur = append(cur, c)
			}
		}
		if len(parts) == 1 {
			if now, ok := strings.CutSuffix(strings.TrimRight(string(cur), "` "), "…"); ok && strings.TrimSpace(now) != "" {
				parts = append(parts, strings.TrimSpace(now)+"…")
			}
		}
		if len(parts) == 2 {
			out = append(out, [2]string{parts[0], parts[1]})
		}
	}
	return out
}

// SettingLine is was, the text a replacement gave up, when it sets a
// value of its own, a key and a value ("formats: ['es']", "retries =
// 3"): a statement that quotes it tells of the line as it was. "" when
// was is no such line, or now holds it still.
func SettingLine(was, now string) string {
	if strings.HasSuffix(now, "…") || len(was) < 8 || strings.Contains(now, was) || !settingLine.MatchString(was) {
		return ""
	}
	return was
}

var settingLine = lazyre.New(`^[A-Za-z_][\w.-]*\s*[:=]\s*\S`)

// Quotes reports whether x holds line as it is written, quotes of
// either kind alike.
func Quotes(x, line string) bool {
	return strings.Contains(quoteForms.Replace(x), quoteForms.Replace(line))
}

// quoteForms writes a double quote as a single one and drops backquotes.
var quoteForms = strings.NewReplacer(`"`, "'", "`", "")

// Pinned is the package a dependency pin names, lower-case:
// "zstandard==0.23.0", "lodash@4.17.21"; "" for another line.
func Pinned(line string) string {
	if m := pinRE.FindStringSubmatch(line); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// writesValue is a step that writes one value into a file, the file's
// whole content: "printf '22.11.0\n' > .nvmrc", "echo 3.12.4 > .python-version".
var writesValue = lazyre.New(`^(?:printf|echo)\s+(?:-[en]\s+)?['"]?(v?\d+(?:\.\d+)*)(?:\\n)?['"]?\s*>\s*([\w./-]+)$`)

// portMap is a container's port mapping, host port first: "3000:3000",
// "127.0.0.1:8080:80".
var portMap = lazyre.New(`(?:^|[\s"'\[])(?:[\d.]+:)?(\d{2,5}):(\d{2,5})(?:/(?:tcp|udp))?(?:$|[\s"'\],])`)

// lowerBound is a version constraint's lower bound: ">=11.3.0", "^4.2".
var lowerBound = lazyre.New(`(?:>=|\^|~>?)\s*v?(\d+\.\d+(?:\.\d+)?)`)

// minimumOf finds a version said as the least supported: "11.3 and up",
// "at least 3.10", "Node 18+", ">= 1.21".
var minimumOf = lazyre.New(`(?i)(?:\b(?:at least|minimum(?: version)?(?: is| of)?|nothing older than|no older than)\s+(?:[a-z][\w.-]*\s+)?v?(\d+\.\d+(?:\.\d+)?)\b|>=\s*v?(\d+\.\d+(?:\.\d+)?)|\bv?(\d+(?:\.\d+){0,2})(?:\+|\s+(?:and|or)\s+(?:up|above|newer|later|higher)\b))`)

// shortVersion drops a version's trailing ".0"s: 11.3.0 is 11.3, 18.0.0
// is 18.
func shortVersion(v string) string {
	for strings.HasSuffix(v, ".0") {
		v = strings.TrimSuffix(v, ".0")
	}
	return v
}

// SaysMinimum reports whether x gives v as the least version supported.
func SaysMinimum(x, v string) bool {
	for _, m := range minimumOf.FindAllStringSubmatch(x, -1) {
		if shortVersion(m[1]+m[2]+m[3]) == v {
			return true
		}
	}
	return false
}

// hostPort is a host and its port: "http://127.0.0.1:8080", "localhost:5432".
var hostPort = lazyre.New(`(?:^|[/@\s"'=])([a-zA-Z][\w-]*(?:\.[\w-]+)*|\d+\.\d+\.\d+\.\d+):(\d{2,5})\b`)

var pinRE = lazyre.New(`^\s*["']?([A-Za-z][\w.-]*[A-Za-z0-9])(?:\[[\w,]+\])?["']?\s*(?:==|~=|>=|@)\s*v?\d+\.\d`)

// NamesPackage reports whether x names package p as a package: in code
// ("`requests`"), beside a word for one ("zstandard wheels", "the
// httpx client"), not "webhook requests are signed" or "a rich tooltip";
// a name spelled like no word ("markdown-it") anywhere.
func NamesPackage(x, p string) bool {
	lower := strings.ToLower(x)
	if strings.Contains(lower, "`"+p+"`") || strings.Contains(lower, "`"+p+"==") {
		return true
	}
	if strings.ContainsAny(p, "-@/.0123456789") {
		// A name no word is spelled like (markdown-it, @deno/gfm) is
		// the package wherever it stands.
		return lex.HasWord(lower, p)
	}
	return lex.HasBounded(lower, p, func(j, end int) bool {
		return (j == 0 || !lex.IsWordByte(lower[j-1])) && (end == len(lower) || !lex.IsWordByte(lower[end])) && packageWord.MatchString(lower[end:])
	})
}

var packageWord = lazyre.New(`^\s+(?:wheels?|package|packages|library|lib|module|dependency|client|sdk|version|pin|==)\b`)

// valuePart is a part of a code token between its separators.
var valuePart = lazyre.New(`[^@=:/,'"()\[\]{}]+`)

// A valueEdit is a line of a file given another value: the keys of what
// the line names, and the value before and after; name says the value is
// a name, not a number.
type Edit struct {
	keys     []string
	old, new string
	name     bool
	ident    string // the line's name when it is one in code: POOL_SIZE, maxRetries
	any      bool   // the old value is a pattern any number matches
}

// anyNumber is a pattern of a substitution's old text that any number
// matches: "s/--strictness-level [0-9]*/--strictness-level 10/".
var anyNumber = lazyre.New(`\[0-9\]\[0-9\]\*|\[0-9\](?:[*+]|\\\+)|\\d[*+]?|\[\[:digit:\]\](?:[*+]|\\\+)`)

// EditOf reads "reminders: 10" → "reminders: 3" or "maximumPoolSize
// = 10" → "maximumPoolSize = 20": lines alike but for one value, a
// number or a name ("namespace: ci-agents" → "namespace: build-pods",
// "container('kaniko')" → "container('buildkit')"). The line's last
// value may become more than one word ("POOL_SIZE = 4;" → "POOL_SIZE =
// Math.max(1, …)"), which a text cut short ("…") allows only. The keys
// are those of the words they share before the value, a name in camel
// case split into its words.
func EditOf(was, now string) *Edit {
	now, cut := strings.CutSuffix(now, "…")
	pattern := anyNumber.ReplaceAllString(was, "0")
	a, b := editTokens.FindAllString(pattern, -1), editTokens.FindAllString(now, -1)
	if cut && len(b) > 0 {
		b = b[:len(b)-1] // its last word may be cut short
	}
	if len(a) < 2 || len(a) > 8 {
		return nil
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return nil
	}
	last := i == len(a)-1 && len(b) > len(a)
	if !last && (cut || len(a) != len(b) || !slices.Equal(a[i+1:], b[i+1:])) {
		return nil
	}
	e := &Edit{old: a[i], new: b[i], any: pattern != was && a[i] == "0"}
	switch {
	case isDecimal(e.old) && (isDecimal(e.new) || last):
	case !last && nameValue(e.old) && !isDecimal(e.new):
		e.name = true
	default:
		return nil
	}
	name := "" // the last word both keep before the value: its key
	for _, w := range a[:i] {
		if !change.IsNumber(strings.ReplaceAll(w, ".", "")) {
			name = w
		}
	}
	for w := range lex.ContentWords(splitCamel(name)) {
		if k := lex.Key(w); len(k) > 2 && !slices.Contains(e.keys, k) {
			e.keys = append(e.keys, k)
		}
	}
	if len(e.keys) == 0 {
		return nil
	}
	slices.Sort(e.keys)
	if len(name) > 3 && (strings.Contains(name, "_") || splitCamel(name) != name) {
		e.ident = name
	}
	return e
}

// nameValue reports whether a word of a line is a value that names one
// thing: ci-agents, nexus-deploy, v1.4.0, kaniko; not a word of four
// letters or fewer, nor a common one.
func nameValue(w string) bool {
	return len(w) >= 4 && !lex.StopWords[strings.ToLower(w)]
}

// isDecimal reports whether s is a number, with a decimal point or not.
func isDecimal(s string) bool {
	return change.IsNumber(strings.Replace(s, ".", "", 1)) && !strings.HasPrefix(s, ".") && !strings.HasSuffix(s, ".")
}

var editTokens = lazyre.New(`[A-Za-z_][\w.-]*|\d+(?:\.\d+)*`)

// splitCamel puts a space before each upper-case letter that follows a
// lower-case one: maximumPoolSize → maximum Pool Size.
func splitCamel(s string) string {
	var b strings.Builder
	for i, c := range s {
		if i > 0 && unicode.IsUpper(c) && unicode.IsLower(rune(s[i-1])) {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	return strings.NewReplacer("_", " ", ".", " ", "-", " ").Replace(b.String())
}

// Says reports whether x gives the value the edit replaced to what the
// edit's line names by a distinctive word: "the reminders queue runs 3 at
// a time" once "reminders: 3" became "reminders: 15". A name needs no
// such word when it is one by its form: "namespace `ci-agents`", "V1.4.0
// is the tag everybody pins", "should use Kaniko".
func (e *Edit) Says(x string, xk map[string]bool, distinct func(k string) bool) bool {
	named := e.ident != "" && strings.Contains(x, e.ident) // "`POOL_SIZE = 4`", however common "pool" is
	for _, k := range e.keys {
		named = named || xk[k] && distinct(k)
	}
	if e.name {
		lower := strings.ToLower(x)
		if !gone.NamesTool(lower, strings.ToLower(e.old)) || gone.NamesTool(lower, strings.ToLower(e.new)) {
			return false
		}
		return named || strings.ContainsAny(e.old, "-_0123456789") || lex.WrittenAsName(x, e.old)
	}
	if e.any {
		return named && !hasNumber(x, e.new) && e.numberAfterKey(x) // "strictness level 5" once any level became 10
	}
	if hasNumber(x, e.new) || !hasNumber(x, e.old) {
		return false
	}
	// However common its key, a key the old number follows closely is
	// that setting: "the pool is only 10 connections" once
	// "maximumPoolSize = 10" became "maximumPoolSize = 20".
	return named || e.keyedNumber(x, e.old)
}

// keyedNumber reports whether x gives n as the first number after one of
// the edit's keys, with at most three stop words between: "pool is only
// 10", "pool of 10"; not "pooled request retries 10", "pool waits up to 30".
func (e *Edit) keyedNumber(x, n string) bool {
	lower := lex.ASCIILower(x)
	for _, k := range e.keys {
		keyed := lex.HasBounded(lower, k, func(i, end int) bool {
			if i > 0 && lex.IsWordByte(lower[i-1]) {
				return false
			}
			for end < len(lower) && lex.IsWordByte(lower[end]) {
				end++ // the rest of the word the key stems
			}
			return numberNext(lower[end:], n)
		})
		if keyed {
			return true
		}
	}
	return false
}

// numberNext reports whether the first number of s, within three stop
// words of its start, is n.
func numberNext(s, n string) bool {
	words := 0
	for _, w := range strings.Fields(s) {
		w = strings.Trim(w, ":=,;()`'\"")
		switch {
		case w == "":
		case isDigit(w[0]):
			return strings.TrimRightFunc(w, func(r rune) bool { return r < '0' || r > '9' }) == n
		case lex.StopWords[w] && words < 3:
			words++
		default:
			return false
		}
	}
	return false
}

// numberAfterKey reports whether x gives a number within a few words
// after one of the edit's keys: "strictness level 5", not "the
// strictness level lives in ci.yml; pluginval needs JUCE 7".
func (e *Edit) numberAfterKey(x string) bool {
	lower := lex.ASCIILower(x)
	for _, k := range e.keys {
		for rest := lower; ; {
			i := strings.Index(rest, k)
			if i < 0 {
				break
			}
			rest = rest[i+len(k):]
			if numberIn.MatchString(rest[:min(len(rest), 24)]) {
				return true
			}
		}
	}
	return false
}

var numberIn = lazyre.New(`(?:^|[^\w.])\d+(?:\.\d+)?(?:$|[^\w.]|\.(?:\s|$))`)

// hasNumber reports whether text holds the number n as a word of its own:
// not inside 1,000, 3.10 or v10.
func hasNumber(text, n string) bool {
	return lex.HasBounded(text, n, func(j, end int) bool {
		before := j == 0 || !isNumChar(text[j-1]) && !(text[j-1] == ',' && j > 1 && isDigit(text[j-2]))
		return before && (end == len(text) || !isNumChar(text[end]) && !((text[end] == '.' || text[end] == ',') && end+1 < len(text) && isDigit(text[end+1])))
	})
}

func isDigit(c byte) bool   { return c >= '0' && c <= '9' }
func isNumChar(c byte) bool { return lex.IsWordByte(c) || c == '.' }

// A Port is a port a line gave up when it became another: a mapping's
// host port ("3000:3000" → "3001:3000" gives 3000) or an address's
// ("http://127.0.0.1:8080" → "…:8081" gives 8080, at 127.0.0.1:8080).
type Port struct {
	Port string
	At   string // the host and port of an address; "" for a mapping
}

// HostPort is the port a line gave up when it became now; nil when none.
func HostPort(was, now string) *Port {
	if a, b := portMap.FindStringSubmatch(was), portMap.FindStringSubmatch(now); a != nil && b != nil && a[1] != b[1] && a[2] == b[2] && !clockTime(a[1], a[2]) {
		return &Port{Port: a[1]}
	}
	if a, b := hostPort.FindStringSubmatch(was), hostPort.FindStringSubmatch(now); a != nil && b != nil && a[1] == b[1] && a[2] != b[2] {
		return &Port{Port: a[2], At: a[1] + ":" + a[2]}
	}
	return nil
}

// Says reports whether x gives the port p gave up to what p's line set:
// the same address, or, for a mapping, a port said as published on the
// host ("the compose file publishes Grafana on port 3000"), not a port a
// server listens on inside its container or another server's.
func (p *Port) Says(x string, ports []string) bool {
	if p.At != "" {
		return strings.Contains(x, p.At)
	}
	return slices.Contains(ports, p.Port) && published.MatchString(x)
}

var published = lazyre.New(`(?i)\b(?:publish\w*|expos\w*|mapp\w*|on the host|host port|compose|docker)\b`)

// clockTime reports whether a and b read as a time of day: 02:30.
func clockTime(a, b string) bool {
	h, m := atoi(a), atoi(b)
	return len(a) == 2 && len(b) == 2 && h <= 23 && m <= 59
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = 10*n + int(c-'0')
	}
	return n
}

// A Bound is the lower bound a version constraint gave up, and the name
// of what it constrained when the line gives one: "react" of
// "\"react\": \"^18.0.0\"".
type Bound struct {
	Version, Name string
}

// LowerBound is the lower bound a version constraint gave up when it
// became now (">=11.3.0" → ">=11.5.0" gives 11.3); nil when none.
func LowerBound(was, now string) *Bound {
	a, b := lowerBound.FindStringSubmatchIndex(was), lowerBound.FindStringSubmatch(now)
	if a == nil || b == nil || shortVersion(was[a[2]:a[3]]) == shortVersion(b[1]) {
		return nil
	}
	bd := &Bound{Version: shortVersion(was[a[2]:a[3]])}
	if m := boundName.FindStringSubmatch(was[:a[0]]); m != nil {
		bd.Name = m[1]
	}
	return bd
}

// boundName is the name a constraint is for, just before it:
// "\"react\": ", "grafanaDependency = ", "python_requires=".
var boundName = lazyre.New(`([A-Za-z][\w.-]*)["']?\s*[:=]?\s*["']?\s*$`)

// Says reports whether x gives the bound as the least version of what it
// constrained: "Grafana 11.3 and up" for grafanaDependency, "Node 18+"
// for node; any such statement when the line named nothing.
func (b *Bound) Says(x string) bool {
	if !SaysMinimum(x, b.Version) {
		return false
	}
	if b.Name == "" {
		return true
	}
	lower := strings.ToLower(x)
	for _, w := range strings.Fields(splitCamel(b.Name)) {
		if w = strings.ToLower(w); len(w) > 2 && gone.NamesTool(lower, w) {
			return true
		}
	}
	return false
}

// WritesValue reads a step of a command line that writes one value
// into a file, its whole content: "printf '22.11.0\n' > .nvmrc".
func WritesValue(step string) (file, value string, ok bool) {
	if m := writesValue.FindStringSubmatch(step); m != nil {
		return m[2], m[1], true
	}
	return "", "", false
}

// ValueParts are the parts of code token t between its separators:
// acme-pipeline-lib and v1.4.0 of acme-pipeline-lib@v1.4.0.
func ValueParts(t string) []string { return valuePart.FindAllString(t, -1) }
