package digest

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/shellcmd"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// TurnTokens is the most tokens a turn's line shows.
const TurnTokens = 40

// Durable reports whether part p is knowledge that outlives its session.
func Durable(p int) bool {
	switch p {
	case Root, Decisions, Rejected, Preferences, Environment, Approach:
		return true
	}
	return false
}

// StatesValue reports whether a bullet gives a value: a number, code, a
// path or a name such as a host or a setting ("WAN is PPPoE on wan.6",
// "Desk phones use allow=!all,g722,alaw"). An older session's outcome
// that gives one states what holds as its decisions do; "Found and
// fixed, the tests pass" tells a story.
func StatesValue(b string) bool {
	return strings.ContainsAny(b, "0123456789`") || prose.HasValue(b)
}

// The order of a session's parts in the pack.
var Order = []int{Request, Outcome, Root, Decisions, Rejected, Preferences,
	Environment, Approach, Notes, Details, Errors, Files, Commands}

// MaxTitleRunes is the longest sentence an item's entry shows as its
// title, in place of a title cut inside it.
const MaxTitleRunes = 160

// ItemText is what an item's entry shows: the title, and the body
// without the title repeated at its start. A title cut short ("Jobs are
// claimed with SELECT…") gives way to the body's first sentence when
// that is the whole of it.
func ItemText(title, body string) (string, string) {
	if t, ok := strings.CutSuffix(title, "…"); ok {
		t = strings.TrimSpace(t)
		if strings.HasPrefix(body, t) {
			if ss := Sentences(body); len(ss) > 0 && utf8.RuneCountInString(ss[0]) <= MaxTitleRunes {
				return splitAt(body, ss[0])
			}
		}
		return title, body
	}
	t := strings.TrimRight(title, ".")
	for _, lead := range titleLeads {
		// "and use the by-id paths when you create it, never sda/sdb."
		// is the body of the rule "Use the by-id paths when you create
		// it": the title is its clause without the word that joined it
		// to what the user said before.
		after, ok := cutPrefixFold(body, lead)
		if !ok {
			continue
		}
		if rest, ok := cutPrefixFold(after, t); ok && (rest == "" || strings.ContainsAny(rest[:1], " .:;,—-")) {
			return title, strings.TrimLeft(rest, " .:;,—-")
		}
	}
	return title, body
}

// titleLeads are the words a body may have before the title it repeats.
var titleLeads = []string{"", "and ", "but ", "so ", "also ", "then ", "and also "}

// FirstSentence splits s into its first sentence, without its full
// stop, and the rest.
func FirstSentence(s string) (string, string) {
	ss := Sentences(s)
	if len(ss) == 0 {
		return s, ""
	}
	return splitAt(s, ss[0])
}

// splitAt splits s after its first sentence first.
func splitAt(s, first string) (string, string) {
	return strings.TrimRight(first, "."), strings.TrimSpace(strings.TrimPrefix(s, first))
}

// CutInSentence reports whether title, an item's title, was cut inside
// the first sentence of body, the item's body as it was written ("… with
// 25 threads that serves every" and "queue, and …"), and if so returns
// body from that sentence's start, its punctuation kept.
func CutInSentence(title, body string) (string, bool) {
	t := strings.TrimSpace(strings.TrimSuffix(title, "…"))
	if t == "" || strings.ContainsAny(t[len(t)-1:], ".!?:;") {
		return "", false
	}
	rest, ok := cutPrefixFold(body, t)
	if !ok {
		return "", false
	}
	// What follows goes on with the sentence: words, or a clause after
	// a comma or a dash ("…, so the guest zone does its job"), not a
	// label's colon or the sentence's end.
	if rest == "" || strings.ContainsAny(rest[:1], ".!?:") {
		return "", false
	}
	if ss := Sentences(body); len(ss) == 0 || len(ss[0]) <= len(t)+1 {
		return "", false
	}
	return body, true
}

// cutPrefixFold is strings.CutPrefix, ignoring case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// maxHeadRunes is the longest a session's heading title may be.
const maxHeadRunes = 90

// headSlack is how much longer a first sentence may be and still head
// the session whole: cut a few words before its end, it would be said
// again in full as the request ("… the same invoice.paid event two or
// three…" over "Request: Owen from the billing-svc team says they get
// the same invoice.paid event two or three times.").
const headSlack = 20

// Heading returns the title of a session's heading, given its title and
// requests, and the requests its bullets show. A title that is the start
// of the first request (cut with "…" where it was long, or with words
// before it that the request left out) gives way to the
// request's first sentence, or its first clauses when that is long; the
// request's bullet then says only what the heading does not.
func Heading(title string, req []string) (string, []string) {
	if len(req) == 0 {
		return title, req
	}
	first := mdtext.OneLine(req[0])
	t := strings.TrimSpace(strings.TrimSuffix(title, "…"))
	if t != "" && !noHead.MatchString(t) && !strings.HasPrefix(strings.ToLower(first), strings.ToLower(strings.TrimRight(t, ".!?:"))) && !startsLater(t, first) {
		return title, req
	}
	ss := Sentences(first)
	if len(ss) == 0 {
		return title, req
	}
	for len(ss) > 1 && noHead.MatchString(ss[0]) {
		// "ugh.", "Two things." head nothing: the sentence after them
		// says what the session was about.
		first = strings.TrimSpace(strings.TrimPrefix(first, ss[0]))
		ss = ss[1:]
	}
	head := strings.TrimRight(ss[0], " .!?:")
	if utf8.RuneCountInString(head) <= maxHeadRunes+headSlack {
		rest := strings.TrimSpace(strings.TrimPrefix(first, ss[0]))
		out := append([]string(nil), req[1:]...)
		if rest != "" && !IsChitChat(rest) {
			out = append([]string{rest}, out...)
		}
		return head, out
	}
	cut := clauseHead(head, maxHeadRunes)
	if strings.HasSuffix(cut, "…") || !strings.HasPrefix(first, cut) {
		return cut, req
	}
	// Cut at a clause: the bullet says the rest of the sentence, not the
	// heading again ("Nomad 1.9.3 this week, the new client nomad-cli-5
	// arrived yesterday as well" over "It's provisioned like the others").
	rest := strings.TrimLeft(first[len(cut):], " ,;:—")
	if strings.HasPrefix(rest, "(") {
		return cut, req // "(Hartmann Logistik, 400 seats) wants …" reads only with what it follows
	}
	if rest == "" || IsChitChat(rest) {
		return cut, req[1:]
	}
	return cut, append([]string{prose.Capitalize(rest)}, req[1:]...)
}

// noHead is a sigh or a greeting ("ugh.", "morning!"), or announces
// what the message goes on to ask ("Two things.", "A couple of things:",
// "Big one.", "Bad news.").
var noHead = lazyre.New(`(?i)^(?:(?:ugh+|argh+|hmm+|ok(?:ay)?|so|right|well|alright|hi|hey|(?:good )?(?:morning|afternoon|evening)|sigh|oof|damn|welp|yikes|ouch|problem|(?:big|quick|another|new|small) one|one more|(?:an )?update|(?:bad|good) news|(?:some )?context)[.!,]*|(?:(?:ok|so|right),?\s+)?(?:two|three|four|a few|a couple(?: of)?|several|some|quick) (?:things|questions|items|points|ones?)(?: today| for you| here| now)?[.:!]?)$`)

// startsLater reports whether title, the start of the first prompt, holds
// the request further on: the request left out the words before it ("ok
// makes sense, go on." before "Make it 5 days.").
func startsLater(title, req string) bool {
	probe := req[:min(len(req), 32)]
	if len(probe) < 20 {
		return false
	}
	return strings.Index(strings.ToLower(title), strings.ToLower(probe)) > 0
}

// clauseHead cuts a long sentence at its last clause boundary within n
// runes, or at a word with "…" when it has none.
func clauseHead(s string, n int) string {
	r := []rune(s)
	cut := string(r[:min(len(r), n)])
	best := -1
	for _, sep := range []string{", ", "; ", ": ", " — ", " (", " so ", " and ", " but "} {
		// Not inside parentheses: "A customer's IT department (Hartmann
		// Logistik, 400 seats) wants …" is no head cut at the comma.
		i := strings.LastIndex(cut, sep)
		for i > 0 && strings.Count(cut[:i], "(") > strings.Count(cut[:i], ")") {
			i = strings.LastIndex(cut[:i], sep)
		}
		if i > len(cut)/3 && i > best {
			best = i
		}
	}
	if best > 0 {
		return strings.TrimRight(cut[:best], " ,;:—")
	}
	out := CutClause(s, indexer.EstimateTokens(cut))
	if i := strings.LastIndex(cut, " "); i > 0 && strings.Count(out, "(") > strings.Count(out, ")") {
		return strings.TrimRight(cut[:i], " ,;:—") + "…" // at a word, not inside the parentheses
	}
	return out
}

// Stale reports whether a bullet of part p is said again, maybe
// with another value, by a newer session's bullet of the same part or by
// a core item's title: the newer statement is the current one.
func Stale(p int, b string, newer []*Summary, coreTitles []map[string]bool) bool {
	switch p {
	case Decisions, Environment, Preferences, Root, Rejected, Notes, Details:
	default:
		return false
	}
	w := lex.ContentWords(b)
	if len(w) < 2 {
		return false
	}
	for _, t := range coreTitles {
		if lex.Overlap(t, w) >= 0.75 {
			return true
		}
	}
	if p == Notes {
		return false
	}
	for _, s := range newer {
		for _, nb := range s.Parts[p] {
			nw := lex.ContentWords(nb)
			if jaccard(w, nw) >= 0.5 {
				return true
			}
		}
	}
	return false
}

func jaccard(a, b map[string]bool) float64 {
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// maxFileNames is how many files changed a session's line names.
const maxFileNames = 8

// FilesLine writes the files a session changed on one line, each once:
// every segment of a summary lists the files it changed.
func FilesLine(bullets []string) string {
	var names []string
	seen := make(map[string]bool)
	for _, b := range bullets {
		if f := ChangedFile(b); !seen[f] {
			seen[f] = true
			names = append(names, f)
		}
	}
	line := "- Files changed: " + strings.Join(names[:min(len(names), maxFileNames)], ", ")
	if n := len(names) - maxFileNames; n > 0 {
		line += fmt.Sprintf(" and %d more", n)
	}
	return line + "\n"
}

// Text writes a summary's bullets as labelled sentences on one
// line.
func Text(d *Summary) string {
	var parts []string
	for _, p := range Order {
		for _, b := range d.Parts[p] {
			b = strings.TrimRight(b, ".")
			if p != Notes {
				b = Labels[p] + ": " + b
			}
			parts = append(parts, b+".")
		}
	}
	return strings.Join(parts, " ")
}

// TurnLine writes one turn as a line of a list, a long text shortened to
// its first sentences.
func TurnLine(t summarize.Turn) string {
	text := mdtext.OneLine(t.Text)
	if text != "" {
		text = Shorten(text, TurnTokens)
	}
	switch t.Role {
	case summarize.User:
		if text == "" || strings.HasPrefix(text, "/") {
			return "" // a slash command is no prompt
		}
		return "- user: " + text + "\n"
	case summarize.Assistant:
		if text == "" {
			return ""
		}
		return "- assistant: " + text + "\n"
	case summarize.Tool:
		if !t.IsError {
			return "" // what a tool did shows in what the assistant says
		}
		call := t.Tool
		if in := OneLineCut(strings.TrimPrefix(t.Input, t.Tool+": "), 80); in != "" {
			call += ": " + in
		}
		if call == "" {
			return ""
		}
		line := "- `" + strings.ReplaceAll(call, "`", "'") + "` failed"
		if t.ExitCode != nil {
			line += fmt.Sprintf(" (exit %d)", *t.ExitCode)
		}
		if text != "" {
			line += ": " + Shorten(text, TurnTokens/2)
		}
		return line + "\n"
	}
	return ""
}

// StripHeadings drops the marks of Markdown headings, so that text can
// sit on one line.
func StripHeadings(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if t := strings.TrimLeft(line, "#"); t != line && (strings.HasPrefix(t, " ") || strings.TrimSpace(t) == "") {
			line = strings.TrimSpace(t) + ":\n"
		}
		b.WriteString(line)
	}
	return b.String()
}

// OneLineCut puts s on one line of at most n runes.
func OneLineCut(s string, n int) string {
	s = mdtext.OneLine(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return mdtext.Truncate(s, n)
}

// editStep is a step of a command line that edits files: it moves,
// writes or rewrites them in place, or only goes to where they are.
var editStep = lazyre.New(`^(?:cd|sed -i|perl -pi|git mv|git rm|mv|cp|mkdir|rm|rmdir|chmod|chown|ln|touch|tee|patch|truncate)(?:\s|$)`)

// writeStep is a step that writes text into a file: "printf '…' >>
// schema.prisma", "cat > .env <<EOF".
var writeStep = lazyre.New(`^(?:printf|echo|cat)\b.*\s>>?\s*[\w./~-]+(?:\s+<<-?\s*'?"?\w+'?"?)?\s*(?:…\s*)?$|^cat\s+>>?\s*[\w./~-]+`)

// EditCommand reports whether Commands bullet b ran a command line whose
// every step only edited files ("mkdir -p deploy/connect && git mv …"),
// or showed what they edited: the outcome tells what it did, and it is
// no way to run anything again.
func EditCommand(b string) bool {
	edits := 0
	for _, part := range shellcmd.Steps(Command(b)) {
		if part = strings.TrimSpace(part); part == "" || part == "…" || strings.HasPrefix(part, "2>") {
			continue
		}
		switch {
		case editStep.MatchString(part) || writeStep.MatchString(part):
			edits++
		case !shellcmd.Shows(part):
			return false
		}
	}
	return edits > 0
}

// ScaffoldCommand reports whether Commands bullet b ran a one-off: a
// loop, an inline script (python3 -c, node -e, a here-document) or text
// printed for a look. What it did is told by the outcome; nobody runs it
// again.
func ScaffoldCommand(b string) bool {
	steps := shellcmd.Steps(Command(b))
	if len(steps) == 0 {
		return false
	}
	first, last := strings.TrimSpace(steps[0]), strings.TrimSpace(steps[len(steps)-1])
	switch {
	case loopStart.MatchString(first):
		// A loop and nothing after it: "while ! pg_isready; do sleep
		// 1; done && npm run migrate" runs the migration.
		return strings.HasPrefix(last, "done") || strings.HasSuffix(last, "…") || len(steps) == 1
	case printStart.MatchString(first):
		// Text piped into a command feeds it: "echo $PAT | docker login".
		return !strings.Contains(first, "|")
	}
	return scaffold.MatchString(first)
}

var (
	loopStart  = lazyre.New(`^(?:for|while|until)\s`)
	printStart = lazyre.New(`^(?:printf|echo)\s`)
)

var scaffold = lazyre.New(`^(?:python3?|node|ruby|perl)\s+(?:-[ce]\b|-\s|-$)|<<-?\s*'?"?\w+`)

// Command is the command line of a Commands bullet: what is in its
// backquotes, without how often it ran and how it ended ("`rm pom.xml`
// ×2: ok").
func Command(b string) string {
	cmd, _, _ := strings.Cut(strings.TrimLeft(b, "`"), "`")
	return cmd
}

// ChangedFile is the file a Files bullet names ("config/dev.exs
// (edited): …").
func ChangedFile(b string) string {
	name, _, _ := strings.Cut(b, " (")
	return strings.TrimSpace(name)
}
