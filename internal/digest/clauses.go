package digest

import (
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// A sentence that states several facts ("the dev server listens on 8085,
// and production runs as the linkshort-api unit") loses only the clause
// a newer statement changed; these helpers put what is left back
// together as a sentence.

// LeadIn returns the phrase that opens sentence s before its first comma
// when it says where, when or in what spirit all of the sentence holds,
// and states nothing itself: "For reference", "In production", "Also".
// "" when s opens with none. A phrase with a number, a path or code
// ("On 8085, …") names a value, and is no lead-in.
func LeadIn(s string) string {
	head, _, ok := strings.Cut(s, ", ")
	if !ok || head == "" || strings.ContainsAny(head, "0123456789`/()[]:;\"") {
		return ""
	}
	f := strings.Fields(head)
	if len(f) > 4 {
		return ""
	}
	first := strings.ToLower(f[0])
	if !leadWord.MatchString(first) {
		return ""
	}
	if len(f) > 1 && prose.IsClause(strings.Join(f[1:], " ")) {
		return "" // "As the API moved, …" says something of its own
	}
	return head
}

// leadWord opens a lead-in: a preposition ("In production", "For
// reference"), a sentence adverb ("Currently", "Also") or an aside
// ("FYI").
var leadWord = lazyre.New(`^(?:for|in|on|at|by|as|from|after|before|during|under|over|across|per|via|within|also|besides|meanwhile|otherwise|anyway|btw|fyi|now|today|here|there|again|still|ok|okay|plus|[a-z]{3,}ly)$`)

// WithoutLead returns parts without a first part that is lead, the
// sentence's lead-in split off as a clause or an item of its own.
func WithoutLead(parts []string, lead string) []string {
	if lead != "" && len(parts) > 0 && strings.TrimSpace(parts[0]) == lead {
		return parts[1:]
	}
	return parts
}

// JoinClauses joins what is left of a sentence's clauses (or list items)
// with sep as a sentence: it opens with the sentence's lead-in when its
// first clause went ("For reference, production runs as …", not "For
// reference; production runs as …"), with a capital letter and no
// conjunction left from the clause before ("and the docs are in docs/"),
// and it ends with a full stop.
func JoinClauses(lead string, kept []string, sep string) string {
	if len(kept) == 0 {
		return ""
	}
	kept = slices.Clone(kept)
	kept[0] = strings.TrimSpace(kept[0])
	switch {
	case lead == "":
		kept[0] = conjLead.ReplaceAllString(kept[0], "")
	case !strings.HasPrefix(kept[0], lead):
		kept[0] = lead + ", " + conjLead.ReplaceAllString(kept[0], "")
	}
	t := strings.TrimRight(strings.Join(kept, sep), ".")
	if !strings.HasSuffix(t, "?") && !strings.HasSuffix(t, "!") {
		t += "."
	}
	return prose.Capitalize(t)
}

// conjLead is a conjunction that joined a clause to the one before it.
var conjLead = lazyre.New(`(?i)^(?:and|but|or|nor|while|whereas)\s+`)

// Subject returns the subject clause c opens on, a few words before its
// verb ("the relay" of "the relay listens on port 7070"), "" when it
// opens otherwise; and SubjectLess whether c opens on its verb, its
// subject that of the clause before it ("and reads its routes from
// /etc/relaybox/routes.json there").
func Subject(c string) string {
	if i := strings.LastIndex(c, ": "); i >= 0 {
		c = c[i+2:] // "from the README: the relay listens on …"
	}
	m := subjectVerb.FindStringSubmatch(strings.TrimSpace(c))
	if m == nil || notVerb[strings.ToLower(m[2])] {
		return ""
	}
	return m[1]
}

// SubjectLess reports whether clause c goes on with its sentence's
// subject: it opens on an auxiliary ("and is cut after 90 s", "but can't
// be resized") or on a verb of its own (see Subject).
func SubjectLess(c string) bool {
	if subjectless.MatchString(c) {
		return true
	}
	m := verbFirst.FindStringSubmatch(conjLead.ReplaceAllString(strings.TrimSpace(c), ""))
	return m != nil && !notVerb[strings.ToLower(m[1])]
}

// WithSubject is clause c, which goes on with a subject it does not
// name, said with subj: "the relay reads its routes …" of "and reads its
// routes …".
func WithSubject(subj, c string) string {
	return subj + " " + conjLead.ReplaceAllString(strings.TrimSpace(c), "")
}

// subjectless opens a clause that goes on with its sentence's subject:
// "and is cut after 90 s", "but can't be resized".
var subjectless = lazyre.New(`(?i)^\s*(?:(?:and|but|then|so)\s+)?(?:is|are|was|were|gets|get|got|has|have|had|can|cannot|can't|could|will|won't|would|should|must|may|might|does|doesn't|do|did)\b`)

var (
	subjectVerb = lazyre.New(`^((?:the|our|its|this|that) [\w.-]+(?: [\w.-]+)?) ([a-z]{2,}[^s\W]s)\b`)
	verbFirst   = lazyre.New(`^([a-z]{2,}[^s\W]s) \w`)
	// notVerb end in s and open no predicate.
	notVerb = map[string]bool{"this": true, "thus": true, "plus": true, "less": true, "unless": true, "always": true, "perhaps": true, "towards": true, "besides": true, "sometimes": true, "tests": true, "logs": true, "builds": true, "settings": true, "details": true}
)

// PointsBack reports whether clause c speaks of what another clause
// names: it starts with a pronoun or "so", or ends on one ("the team
// knows it", "teams do that themselves"), and says nothing alone.
func PointsBack(c string) bool {
	c = strings.TrimSpace(c)
	return pointsBack.MatchString(c) || EndsOnIt(c)
}

var pointsBack = lazyre.New(`(?i)^(?:it|it's|they|they're|this|that|these|those|which|so)\b|\bone[.!]?$`)

// TrailingAside parts a sentence that ends on an aside, in parentheses or
// after a dash, into what it says and the aside: "Debezium 2.5 Postgres
// connector against the local compose Postgres" and "it's published on
// host port 5433 because I have a native Postgres on 5432". ok is false
// when there is none, it is not the sentence's end, or too little comes
// before it to say anything (three words at least).
func TrailingAside(x string) (head, aside string, ok bool) {
	t := strings.TrimRight(strings.TrimSpace(x), ".!")
	switch i := strings.LastIndex(t, " — "); {
	case strings.HasSuffix(t, ")"):
		i = strings.LastIndex(t, " (")
		if i < 0 || strings.ContainsAny(t[i+2:len(t)-1], "()") {
			return "", "", false
		}
		head, aside = t[:i], t[i+2:len(t)-1]
	case i > 0 && strings.Count(t[i:], "(") == strings.Count(t[i:], ")"):
		// "… in the comms cupboard — and I built Asterisk 20.11.1 from
		// source on it last week": what follows the last dash.
		head, aside = t[:i], t[i+len(" — "):]
	default:
		return "", "", false
	}
	head, aside = strings.TrimRight(head, " ,;:—-"), strings.TrimSpace(aside)
	if len(strings.Fields(head)) < 3 || aside == "" || strings.Count(head, "(") != strings.Count(head, ")") {
		return "", "", false
	}
	return head, aside, true
}

// WithTail parts a sentence of one clause that names what its subject
// is or runs as, then with what it has: "production runs as the
// linkshort-api systemd unit" and "its database at
// /var/lib/linkshort/links.db". ok is false when the head names nothing
// of its own (a value, a code name: "Passwords are hashed with bcrypt"
// says nothing without bcrypt), the tail is how it is done rather than
// what it has ("claimed with SELECT … FOR UPDATE") or it has a verb of
// its own.
func WithTail(x string) (head, tail string, ok bool) {
	if strings.Count(x, " with ") != 1 || strings.Contains(x, "`") {
		return "", "", false
	}
	head, tail, _ = strings.Cut(strings.TrimRight(x, "."), " with ")
	if strings.Count(head, "(") != strings.Count(head, ")") || !withOwn.MatchString(tail) || tailVerb.MatchString(tail) || !prose.IsFullClause(head) || !namesOwn.MatchString(head) {
		return "", "", false
	}
	return head, tail, true
}

// tailVerb is a verb of its own in what follows "with": the with-phrase
// belonged to the subject of that verb ("losing the spool with the box
// is worse than …"), it is no tail of what the head has.
var tailVerb = lazyre.New(`(?i)\b(?:is|are|was|were|isn't|aren't|wasn't|weren't|has|have|had|does|do|did|will|would|can|could|should|must)\b`)

// withOwn opens what a subject has: "its database at …", "their logs
// in …".
var withOwn = lazyre.New(`(?i)^(?:its|their|his|her|our|your|a|an|the)\s+\w`)

// namesOwn is a name of its own in a head: a word with a digit, or
// with an inner hyphen, dot, slash or underscore ("linkshort-api",
// "nginx.conf", "ci:2024.03").
var namesOwn = lazyre.New(`\b\w+[-./_:]\w[\w./:-]*|\b\w*\d\w*`)

// ConsequenceCut returns the items of a list before the one that opens
// a consequence: "Feeds are served with Cache-Control public,
// max-age=3600, so Bunny and the apps can cache them for an hour" is no
// list of four; what follows "so" says what the values before it make
// so, and goes with them ("the apps can cache them for an hour" stayed
// once max-age was 300).
func ConsequenceCut(items []string) []string {
	for i, it := range items {
		if i > 0 && soLead.MatchString(strings.TrimSpace(it)) {
			return items[:i]
		}
	}
	return items
}

// soLead opens a consequence: "so Bunny and the apps can cache them".
var soLead = lazyre.New(`(?i)^so(?: that)?\s`)

// Bare reports whether s names nothing: fewer than two words of more
// than two characters that say what it is about.
func Bare(s string) bool {
	n := 0
	for k := range change.TopicKeys(s) {
		if len(k) > 2 {
			n++
		}
	}
	return n < 2
}

// NameOnly reports whether s names a file or a code name and says
// nothing of it: what is left of "`hvacwatch/poller.py` — reads points
// …, batched at 20 points per request" once the batch size changed.
func NameOnly(s string) bool {
	return !saysWord.MatchString(codeOrPath.ReplaceAllString(s, ""))
}

// codeOrPath is a code span or a word with a slash or an inner dot.
var codeOrPath = lazyre.New("`[^`]*`|\\S*\\w[/.]\\w\\S*")

// saysWord is a word of two letters or more: "`golangci-lint` in CI."
// says where it runs.
var saysWord = lazyre.New(`\pL{2,}`)

// reply matches a short answer that names its topic by a pronoun: "ok
// keep it on", "turn them off".
var reply = lazyre.New(`(?i)\b(?:it|them|that|this)\b`)

// IsReply reports whether sentence x is a short reply whose topic lies in
// the statement around it: a pronoun, and fewer than two words of its
// own to say what it is about.
func IsReply(x string) bool {
	return Bare(x) && reply.MatchString(x)
}
