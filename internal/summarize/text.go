package summarize

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// sentences splits prose into sentences, leaving out fenced code, tables,
// quotes, and lines without words. List bullets and emphasis are removed.
func sentences(text string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced || l == "" || l[0] == '|' || l[0] == '>' || strings.HasPrefix(l, "$ ") || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			continue
		}
		l = stripBullet(l)
		l = strings.ReplaceAll(l, "**", "")
		if !strings.ContainsFunc(l, unicode.IsLetter) {
			continue
		}
		out = append(out, splitSentences(l)...)
	}
	return out
}

func stripBullet(l string) string {
	for strings.HasPrefix(l, "#") {
		l = strings.TrimLeft(l, "#")
		l = strings.TrimSpace(l)
	}
	for _, b := range []string{"- [ ] ", "- [x] ", "- ", "* ", "+ ", "• "} {
		if strings.HasPrefix(l, b) {
			return strings.TrimSpace(l[len(b):])
		}
	}
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(l) && (l[i] == '.' || l[i] == ')') && l[i+1] == ' ' {
		return strings.TrimSpace(l[i+2:])
	}
	return l
}

// abbreviations end with a dot but not a sentence.
var abbreviations = []string{"e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "Mr.", "Dr.", "No."}

// splitSentences splits one line at ". ", "! ", "? " before an uppercase
// letter, a digit, a quote or a backtick, outside inline code.
func splitSentences(l string) []string {
	var out []string
	start := 0
	code := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c == '`' {
			code = !code
			continue
		}
		if code || c != '.' && c != '!' && c != '?' {
			continue
		}
		if i+2 >= len(l) || l[i+1] != ' ' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(l[i+2:])
		if !unicode.IsUpper(next) && !unicode.IsDigit(next) && next != '`' && next != '"' && next != '(' {
			continue
		}
		abbr := false
		for _, a := range abbreviations {
			if strings.HasSuffix(l[:i+1], " "+a) || l[:i+1] == a {
				abbr = true
			}
		}
		if abbr {
			continue
		}
		if s := strings.TrimSpace(l[start : i+1]); s != "" {
			out = append(out, s)
		}
		start = i + 2
	}
	if s := strings.TrimSpace(l[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// clip cuts s to at most n bytes at a word boundary, with an ellipsis,
// and makes it one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > n/2 {
		cut = sp
	}
	return strings.TrimRight(s[:cut], " ,;:") + "…"
}

// title makes a sentence an item's title: one line, no final period.
func title(s string) string {
	s = strings.TrimRight(clip(s, 100), ".:;, ")
	return s
}

// normalize is a key for duplicates: lowercase letters and digits.
func normalize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func itoa(n int) string { return strconv.Itoa(n) }

// plural: "1 file", "3 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// code wraps s in backticks for Markdown, using more of them when s has
// some.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
