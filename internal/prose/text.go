package prose

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"unicode"
	"unicode/utf8"
)

// sentences splits prose into sentences. Fenced and indented code,
// tables, quotes, shell transcripts and lines without words are left out;
// hard-wrapped lines of one paragraph are joined first, so that a sentence
// broken over two lines stays one. Headings and list items are units of
// their own, without their markers and emphasis.
func Sentences(text string) []string {
	var out []string
	for _, p := range paragraphs(text) {
		out = append(out, splitSentences(p)...)
	}
	return out
}

// paragraphs are the prose units of Markdown text: paragraphs with their
// wrapped lines joined, list items (with their continuation lines) and
// headings.
func paragraphs(text string) []string {
	var (
		out    []string
		cur    []string
		fenced string // the fence that opened the current code block
		// intro is the paragraph that ended with ":" right before the
		// code block, -1 when none; block holds the block's lines.
		intro = -1
		block []string
		// shown is len(out) when the last line that is no prose (code,
		// a table, a quote) was met: a paragraph after it, and only
		// such a one, comes right before what follows.
		shown = 0
	)
	flush := func() {
		if len(cur) > 0 {
			p := unemphasize(dropLabel(strings.Join(cur, " ")))
			if joined, ok := GoOn(out, p, " "); ok {
				out, cur = joined, nil
				return
			}
			if strings.ContainsFunc(p, unicode.IsLetter) {
				out = append(out, p)
			}
			cur = nil
		}
	}
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		l := strings.TrimSpace(line)
		if fenced != "" {
			if !strings.HasPrefix(l, fenced) {
				if l != "" {
					block = append(block, l)
				}
				continue
			}
			fenced = ""
			// "Join that network as well:" and a one-line block say one
			// thing: the command is what the sentence is about.
			if intro >= 0 && len(block) == 1 && len(block[0]) <= 200 && !strings.Contains(block[0], "`") {
				out[intro] += " `" + strings.TrimPrefix(block[0], "$ ") + "`"
			} else if intro >= 0 && settingsBlock(block) {
				// "put these in `/etc/my.cnf.d/slurm.cnf`:" and three
				// lines of settings: the settings are what it says.
				out[intro] += " `" + strings.Join(block, "`, `") + "`"
			}
			intro, block, shown = -1, nil, len(out)
			continue
		}
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			flush()
			if len(out) > shown && strings.HasSuffix(out[len(out)-1], ":") {
				intro = len(out) - 1
			}
			fenced = l[:3]
			continue
		}
		indented := strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
		switch {
		case l == "":
			flush()
		case l[0] == '|' || l[0] == '>' || strings.HasPrefix(l, "$ "):
			flush()
			shown = len(out)
		case indented && len(cur) == 0:
			shown = len(out)
			// Code, unless it continues a list item or paragraph.
		case strings.HasPrefix(l, "#"):
			flush()
			cur = append(cur, strings.TrimSpace(strings.TrimLeft(l, "#")))
			flush()
		default:
			if b := stripBullet(l); b != l {
				flush()
				l = b
			}
			cur = append(cur, l)
		}
	}
	flush()
	return out
}

// settingsBlock reports whether a code block's lines are a few settings
// (and the section they are in): "[mysqld]", "innodb_buffer_pool_size=4G".
func settingsBlock(block []string) bool {
	if len(block) < 2 || len(block) > 5 {
		return false
	}
	n, size := 0, 0
	for _, l := range block {
		size += len(l)
		switch {
		case strings.Contains(l, "`"):
			return false
		case blockSetting.MatchString(l):
			n++
		case !blockSection.MatchString(l):
			return false
		}
	}
	return n >= 2 && size <= 200
}

var (
	blockSetting = lazyre.New(`^[A-Za-z_][\w.-]{1,60}\s*[=:]\s*\S+$`)
	blockSection = lazyre.New(`^\[[\w .-]{1,40}\]$`)
)

// GoOn joins paragraph p to the last of paras when it goes on with the
// sentence that ended there before a command shown on its own ("I'd
// drain it now:", the command, "and open a hardware ticket for the
// DIMM."), the command too, with sep between; false when p starts a
// sentence of its own.
func GoOn(paras []string, p, sep string) ([]string, bool) {
	n := len(paras)
	if n == 0 || !goesOn.MatchString(strings.TrimSpace(p)) {
		return paras, false
	}
	last := strings.TrimSpace(paras[n-1])
	switch {
	case strings.HasSuffix(last, ":"):
	case codeOnly(last) && n > 1 && strings.HasSuffix(strings.TrimSpace(paras[n-2]), ":"):
		paras[n-2] += sep + last
		paras = paras[:n-1]
	default:
		return paras, false
	}
	paras[len(paras)-1] += sep + p
	return paras, true
}

// goesOn opens a paragraph that goes on with the sentence before a
// command shown on its own.
var goesOn = lazyre.New(`^(?:and|or|then|but) [a-z]`)

// codeOnly reports whether paragraph p is one code span.
func codeOnly(p string) bool {
	return len(p) > 2 && p[0] == '`' && p[len(p)-1] == '`' && strings.Count(p, "`") == 2
}

// unemphasize removes Markdown's bold markers outside code spans: in
// `__ft_range(ptr, len)`, `__init__.py` or `src/**/*.ts` they are the
// name.
func unemphasize(p string) string {
	if !strings.Contains(p, "**") && !strings.Contains(p, "__") {
		return p
	}
	// Outside code are the even parts; with an odd number of backquotes
	// the last part, an unclosed span running to the end, is odd.
	parts := strings.Split(p, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = strings.ReplaceAll(parts[i], "**", "")
		parts[i] = unbold(parts[i])
	}
	return strings.Join(parts, "`")
}

// unbold removes "__" around emphasised words ("__the whole table__");
// a name written without backquotes keeps them (__init__, __ft_store),
// and so does one emphasised word, which looks the same.
func unbold(s string) string {
	if !strings.Contains(s, "__") {
		return s
	}
	return underEmphasis.ReplaceAllString(s, "$1$2")
}

var underEmphasis = lazyre.New(`(^|[\s(])__([^_\s][^_]*\s[^_]*[^_\s])__`)

// dropLabel removes a bold label that only heads a paragraph:
// "**Windows log.** Nothing in it breaks the MSI." says nothing in
// "Windows log.".
func dropLabel(p string) string {
	if !strings.HasPrefix(p, "**") {
		return p
	}
	end := strings.Index(p[2:], "**")
	if end < 0 || end > 40 {
		return p
	}
	label, rest := p[2:2+end], strings.TrimSpace(p[4+end:])
	if !strings.HasSuffix(label, ".") || rest == "" || len(strings.Fields(label)) > 4 {
		return p
	}
	return rest
}

func stripBullet(l string) string {
	for _, b := range []string{"- [ ] ", "- [x] ", "- [X] ", "- ", "* ", "+ ", "• "} {
		if strings.HasPrefix(l, b) {
			return strings.TrimSpace(l[len(b):])
		}
	}
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i > 0 && i < 4 && i+1 < len(l) && (l[i] == '.' || l[i] == ')') && l[i+1] == ' ' {
		return strings.TrimSpace(l[i+2:])
	}
	return l
}

// abbreviations end with a dot but not a sentence (lower-cased, without
// the dot). "etc." may end one: it is not here.
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "vs": true, "cf": true, "approx": true, "mr": true, "mrs": true, "ms": true,
	"dr": true, "st": true, "fig": true, "resp": true, "incl": true, "ca": true, "eq": true, "al": true,
}

// splitSentences splits one paragraph at ".", "!" or "?" (after closing
// quotes and brackets) followed by a space and a word that can start a
// sentence: not inside inline code, not after an abbreviation or a single
// initial, and never at an ellipsis, which goes on ("SELECT ... FOR
// UPDATE"). Dots inside words (main.go, v1.2.3, 3.14, URLs) are not
// followed by a space and never split.
// Line splits one line of text (no Markdown) into sentences.
func Line(s string) []string { return splitSentences(strings.TrimSpace(s)) }

func splitSentences(p string) []string {
	var out []string
	start := 0
	code := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '`' {
			code = !code
			continue
		}
		if code || c != '.' && c != '!' && c != '?' {
			continue
		}
		if c == '.' && (i > 0 && p[i-1] == '.' || i+1 < len(p) && p[i+1] == '.') {
			continue // an ellipsis
		}
		j := i + 1
		for j < len(p) && strings.IndexByte(`"')]*_`, p[j]) >= 0 {
			j++
		}
		if j >= len(p) || p[j] != ' ' {
			continue
		}
		k := j
		for k < len(p) && p[k] == ' ' {
			k++
		}
		if k >= len(p) {
			continue
		}
		next, _ := utf8.DecodeRuneInString(p[k:])
		if c != '.' && j > i+1 && (p[i+1] == '"' || p[i+1] == '\'') && unicode.IsLower(next) {
			continue // a quoted question inside a sentence: the "Are you still there?" warning stays at 10 s
		}
		// A dotfile starts one as well: "… is 90 now. .nvmrc is 22.11.0."
		dotfile := next == '.' && k+1 < len(p) && isWordByte(p[k+1]) && (afterWord(p[start:i]) || i > 0 && p[i-1] >= '0' && p[i-1] <= '9')
		if !dotfile && !unicode.IsUpper(next) && !unicode.IsDigit(next) && !strings.ContainsRune("`\"'(*[/~", next) && !(unicode.IsLower(next) && (afterWord(p[start:i]) || strings.HasSuffix(p[start:i], "`") || callStart.MatchString(p[k:]) || afterName(p[start:i]) && (startsSentence(p[k:]) || snakeCase(p[k:])))) {
			continue
		}
		if c == '.' && abbreviated(p[start:i]) {
			continue
		}
		if s := strings.TrimSpace(p[start:j]); s != "" {
			out = append(out, s)
		}
		start = k
		i = k - 1
	}
	if s := strings.TrimSpace(p[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// callStart opens a sentence on code named as it is written: a call
// ("…, not Stripe's. forward() gave billing-svc 5 seconds") or a name in
// camel case ("… both say Node 20.11. verifyStripe compares …").
var callStart = lazyre.New(`^(?:[a-z_][\w.]*\(\)?|[a-z]+[A-Z][A-Za-z0-9]*)\s`)

// afterWord reports whether s (a sentence so far, before its closing
// mark) ends with a plain word of two or more letters: people who type in
// lower case still end sentences there ("ok fair enough. and please …"),
// while "e.g. the", "v1. the" or "x. y" go on.
func afterWord(s string) bool {
	// A word closing a parenthesis or a quotation ends a sentence as
	// well: "(… with KV_ACCESS_TOKEN set). markdown-it 14.1.0 is …".
	s = strings.TrimRight(s, `)"'`)
	w := s
	if i := strings.LastIndexAny(s, " (\t"); i >= 0 {
		w = s[i+1:]
	}
	if utf8.RuneCountInString(w) < 2 || abbreviations[strings.ToLower(w)] {
		return false
	}
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// afterName reports whether s ends with a file or path name ending in
// letters ("logs/connect-deploy.log"), after which a lower-case word that
// starts sentences starts one: "log is in logs/x.log. we deploy with …".
func afterName(s string) bool {
	w := s
	if i := strings.LastIndexAny(s, " (\t"); i >= 0 {
		w = s[i+1:]
	}
	last, _ := utf8.DecodeLastRuneInString(w)
	return strings.ContainsAny(w, "./") && unicode.IsLetter(last)
}

// snakeCase reports whether s begins with a snake_case name, which a
// sentence may open on: "… for ledgerly.io. milter_default_action is
// still accept".
func snakeCase(s string) bool {
	return strings.Contains(strings.Trim(firstWord(s), "_"), "_")
}

// firstWord is s up to its first space or comma.
func firstWord(s string) string {
	if i := strings.IndexAny(s, " ,"); i >= 0 {
		return s[:i]
	}
	return s
}

// startsSentence reports whether s begins with a word that starts
// sentences when people type in lower case.
func startsSentence(s string) bool {
	return sentenceStarters.has(firstWord(s))
}

var sentenceStarters = words{list: `i we you it they this that there the and but so also now then please can could
	let's lets it's that's we're i'm i've we've`}

// abbreviated reports whether s (a sentence so far, before a dot) ends
// with an abbreviation or a single-letter initial.
func abbreviated(s string) bool {
	w := s
	if i := strings.LastIndexAny(s, " (\t"); i >= 0 {
		w = s[i+1:]
	}
	if w == "" {
		return false
	}
	if w != "vs" && afterNumber(s[:len(s)-len(w)]) {
		return false // a unit: "p95 stayed near 420 ms. That's …", "The retry waits 30 s. Then …"
	}
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsLetter(r)
	}
	return abbreviations[strings.ToLower(w)]
}

// afterNumber reports whether s ends with a number and a space.
func afterNumber(s string) bool {
	s = strings.TrimSuffix(s, " ")
	if s == "" {
		return false
	}
	c := s[len(s)-1]
	return c >= '0' && c <= '9'
}

// clauses splits a sentence at semicolons and dashes between clauses
// (" — ", " -- ", " - "), outside inline code.
func Clauses(s string) []string {
	var out []string
	start := 0
	code := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '`':
			code = !code
		case code:
		case s[i] == ';' && i+1 < len(s) && s[i+1] == ' ':
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		case strings.HasPrefix(s[i:], " — ") || strings.HasPrefix(s[i:], " -- ") || strings.HasPrefix(s[i:], " – "):
			out = append(out, strings.TrimSpace(s[start:i]))
			_, n := utf8.DecodeRuneInString(s[i+1:])
			if s[i+1] == '-' {
				n = 2
			}
			start = i + 1 + n
		}
	}
	out = append(out, strings.TrimSpace(s[start:]))
	var keep []string
	for _, c := range out {
		if c != "" {
			keep = append(keep, c)
		}
	}
	return keep
}

// upTo joins whole sentences of s while they fit in n bytes: a long
// statement is shortened only by dropping whole trailing sentences. The
// first sentence is kept whole whatever its length, up to hard bytes,
// beyond which it is cut at a clause or word boundary (without an
// ellipsis: the caller's bullet says where it ends).
func UpTo(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	ss := splitSentences(s)
	out := ss[0]
	for _, x := range ss[1:] {
		if len(out)+1+len(x) > n {
			break
		}
		out += " " + x
	}
	const hard = 400
	if len(out) > hard {
		out = CutAtBoundary(out, hard)
	}
	return out
}

// cutAtBoundary cuts s to at most n bytes at the last clause boundary
// (", ", "; ", " — ") past the middle, or else the last space; without an
// ellipsis.
func CutAtBoundary(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	head := s[:cut]
	best := -1
	code := false
	depth := 0 // of parentheses: a clause inside one is no place to end
	for i := 0; i < len(head); i++ {
		if head[i] == '`' {
			code = !code
			continue
		}
		if !code && head[i] == '(' {
			depth++
		} else if !code && head[i] == ')' && depth > 0 {
			depth--
		}
		if code || i < min(20, n/2) {
			continue
		}
		if depth == 0 && (head[i] == ',' || head[i] == ';' || head[i] == ':') && i+1 < len(head) && head[i+1] == ' ' {
			best = i
		} else if depth == 0 && (strings.HasPrefix(head[i:], " — ") || strings.HasPrefix(head[i:], " (")) {
			best = i
		}
	}
	if best < 0 {
		best = strings.LastIndexByte(head, ' ')
		// Not inside a code span: back up to before it.
		if best > 0 && strings.Count(head[:best], "`")%2 == 1 {
			best = strings.LastIndexByte(head[:best], '`') - 1
		}
	}
	if best <= 0 {
		return strings.TrimSpace(head)
	}
	out := strings.TrimRight(head[:best], " ,;:—(")
	// Not on a dangling function word: "… instead of".
	for {
		i := strings.LastIndexByte(out, ' ')
		if i < n/3 || !danglers.has(strings.ToLower(out[i+1:])) || particle(out[:i], out[i+1:]) {
			return out
		}
		out = strings.TrimRight(out[:i], " ,;:")
	}
}

// particle reports whether word w after text before ends a phrase
// rather than dangles: "from now on", "the cache is on".
func particle(before, w string) bool {
	if w = strings.ToLower(w); w != "on" && w != "off" && w != "in" && w != "out" {
		return false
	}
	prev := strings.ToLower(before[strings.LastIndexByte(before, ' ')+1:])
	return particleVerbs.has(prev)
}

// particleVerbs are the words "on", "off", "in" or "out" end a phrase
// after.
var particleVerbs = words{list: `now later turned switched left stays stay kept keep is are was were it them logged opted`}

// danglers are words a cut title must not end with.
var danglers = words{list: `a an the of to in on at for with by from and or but as into instead rather than
	that which who when while if so because since its their our your my is are was were be not no`}

// stemWord drops common English endings, enough for "tests" to meet
// "test" and "routing" to meet "route".
func Stem(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "s", "er"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) && !strings.HasSuffix(w, "ss") {
			return strings.TrimSuffix(w, suf)
		}
	}
	return w
}

// AppendNew appends s to list unless list holds it already.
func AppendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// Digits gives the digits of a number written out ("three" → "3"), so
// that "three days" meets "3 days" and "the 2 minutes" meets "two
// minutes".
func Digits(w string) (string, bool) {
	d, ok := numberDigits[w]
	return d, ok
}

var numberDigits = map[string]string{"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
	"seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fifteen": "15",
	"twenty": "20", "thirty": "30"}

// Capitalize puts a sentence's first letter in upper case; a path, file
// or identifier keeps its case: config/sidekiq.yml, go.mod, t/minion.t,
// max_conns, printReceipt, forward(), hooks-01, pnpm.
func Capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || r == '`' {
		return s
	}
	w, _, _ := strings.Cut(s, " ")
	if w = strings.TrimRight(w, ".,:;"); strings.ContainsAny(w, "/._(0123456789") || strings.IndexFunc(w, unicode.IsUpper) > 0 || len(w) > 1 && !strings.ContainsAny(strings.ToLower(w), "aeiouy") {
		// A word without a vowel is a command or an abbreviation said
		// as it is typed: pnpm, npm, ssh.
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// Clip cuts s to at most n bytes at a word boundary, with an ellipsis,
// and makes it one line. It is for commands and error lines, not for
// prose (see UpTo).
func Clip(s string, n int) string {
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
