package turn

import (
	"slices"
	"strings"
	"unicode"

	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/digest/retire/differ"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// Choice is what a decision took and the alternative it turned down:
// "I picked AdGuard over dnsmasq blocklists".
type Choice struct {
	alt  string          // the first word of what it turned down, lower-case
	took []string        // the content words of what it took
	keys map[string]bool // the keys of the choice and the alternative, without the reason
}

// Over reads the choice x makes over an alternative it names; nil
// when it makes none.
func Over(x string) *Choice {
	if !strings.Contains(x, " over ") && !strings.Contains(x, "instead of") && !strings.Contains(x, "rather than") {
		return nil
	}
	var alt, choice, said string
	if i := strings.Index(x, summarize.PassedOver); i > 0 {
		alt, choice = x[:i], x[i+len(summarize.PassedOver):] // a Rejected line
	} else if alt, choice = prose.Alternative(x); choice == x {
		return nil
	}
	if alt == "" || choice == "" {
		return nil
	}
	// What it took, without why: the reason's words may well be said
	// again of something else ("since they never need concurrent
	// writers").
	for _, sep := range []string{" (", " — ", ", because ", " because ", " for ", ", since ", " since "} {
		if i := strings.Index(choice, sep); i > 0 {
			choice = choice[:i]
		}
	}
	said = choice + " " + alt
	if i := strings.Index(x, alt); i >= 0 && !strings.HasPrefix(x, alt) {
		said = x[:i+len(alt)] // "I picked AdGuard over dnsmasq blocklists", without what follows
	}
	ws := prose.ContentWords(alt)
	took := prose.ContentWords(choice)
	if len(ws) == 0 || len(ws[0]) < 3 || len(took) == 0 {
		return nil
	}
	return &Choice{alt: ws[0], took: took, keys: change.TopicKeys(said)}
}

// BackTo reports whether newer text n, of keys nk, which announces a
// change, went back to what the choice turned down: it names that, not
// as what it replaces, and nothing of what was taken but as what it
// replaces; and two of its distinctive keys (shared counts them) are the
// choice's own, not its reason's, or what it replaces is what was taken.
// "DNS filtering is now done inside dnsmasq itself, as a dnsmasq
// blocklist" once AdGuard was picked over dnsmasq blocklists; "the rate
// limiter now uses Redis instead of the SQLite table" once Redis was
// passed over for a table in SQLite, in a memory where every session
// speaks of Redis and SQLite.
func (c *Choice) BackTo(n string, nk map[string]bool, shared func(a, b map[string]bool) int) bool {
	rest := n
	replaced, _ := prose.Alternative(n)
	if replaced != "" {
		rest = strings.Replace(n, replaced, "", 1)
	}
	if !differ.HasValue(rest, c.alt) {
		return false
	}
	named := 0 // what was taken, named as what the newer one replaces
	for _, w := range c.took {
		if differ.HasValue(rest, w) {
			return false
		}
		if replaced != "" && differ.HasValue(replaced, w) {
			named++
		}
	}
	return named >= min(2, len(c.took)) || shared(c.keys, nk) >= 2
}

// StayedWith returns what x decides to stay with, "" if it decides no
// such thing: "We stay with Fusion 360 personal and a copy of grbl.cps".
func StayedWith(x string) string {
	if !stayWord(x) {
		return "" // most sentences: every check of a pack asks
	}
	if m := stayRE.FindStringSubmatchIndex(x); m != nil {
		rest := x[m[1]:]
		if i := strings.IndexAny(rest, ".;:"); i >= 0 {
			rest = rest[:i]
		}
		return rest
	}
	return ""
}

// stayWord reports whether x holds a word stayRE opens on, in any case.
func stayWord(x string) bool {
	l := strings.ToLower(x)
	return strings.Contains(l, "stay") || strings.Contains(l, "stick") || strings.Contains(l, "remain") || strings.Contains(l, "keep using")
}

var stayRE = lazyre.New(`(?i)\b(?:stay|stays|staying|stick|sticking|remain|keep using) (?:with|on)\s+`)

// TookOther reports whether newer text n takes the alternative that x,
// which stayed with what, names beside it: "Fine, FreeCAD it is." or "I'd
// go back to FreeCAD" once "We stay with Fusion 360 …; FreeCAD's adaptive
// in 0.21 being unreliable is reason enough not to fight it now".
func TookOther(x, what, n string) bool {
	took := prose.ItIs(n)
	if took == "" {
		if m := movedTo.FindStringSubmatch(n); m != nil {
			took = m[1]
		}
	}
	if i := strings.LastIndex(took, ", "); i >= 0 {
		took = took[i+2:] // "Fine, FreeCAD"
	}
	name := strings.Fields(took)
	if len(name) == 0 {
		return false
	}
	b := strings.TrimRight(name[0], ".,;:!")
	if len(b) < 3 || b[0] < 'A' || b[0] > 'Z' || strings.Contains(what, b) {
		return false
	}
	return differ.HasValue(x, strings.ToLower(b))
}

var movedTo = lazyre.New(`\b(?i:go|going|went|switch|switching|move|moving|come|coming) (?i:back |over )?(?i:to) ([A-Z][\w.+-]*)`)

// SaidNo returns the names s says no to, in lower case: "rtos" of "we
// keep the whole board as a superloop, no RTOS", "nanopb" of "COBS +
// CRC16, no Nanopb". Only a name counts, as the words after "no" are
// written inside a sentence: with a capital, or with a digit, dot or
// dash, or as code ("no need", "no runtime dependencies" say no to no
// thing; a name written all in lower case is missed).
func SaidNo(s string) []string {
	var out []string
	for _, m := range noName.FindAllStringSubmatch(s, -1) {
		w := strings.TrimRight(m[1], ".")
		if len(w) >= 3 && (unicode.IsUpper(rune(w[0])) || strings.ContainsAny(w, "0123456789.-+") || lex.CodeName(w)) && !lex.StopWords[strings.ToLower(w)] {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// noName is a name said no to: "no RTOS", "without nanopb", "not
// Kubernetes".
var noName = lazyre.New(`\b(?:[Nn]o|[Ww]ithout|[Nn]ot)\s+([A-Za-z][\w.+-]*)`)

// TookAfterAll reports whether newer text n, which goes back on
// something, takes one of the names an older statement said no to, or
// a name built on one ("FreeRTOS" of "RTOS"), and does not say no to it
// again.
func TookAfterAll(n string, no []string) bool {
	again := SaidNo(n)
	for _, w := range nameWord.FindAllString(n, -1) {
		l := strings.ToLower(strings.TrimRight(w, "."))
		for _, x := range no {
			if (l == x || len(x) >= 4 && strings.HasSuffix(l, x) && w[0] >= 'A' && w[0] <= 'Z') && !slices.Contains(again, x) && !slices.Contains(again, l) {
				return true
			}
		}
	}
	return false
}

var nameWord = lazyre.New(`[A-Za-z][\w.+-]*`)

// RuleHead reports whether clause s opens a rule, an instruction: "please
// …", "never …", a standing one ("from now on …"), or one that binds and
// is asked for with "please" ("Mails only when a backup fails please").
func RuleHead(s string) bool {
	return ruleHead.MatchString(s) || prose.Standing(s) || askedPlease.MatchString(s) && change.Restricts(s)
}

var (
	ruleHead    = lazyre.New(`(?i)^\s*(?:please |always |never |don't |do not |keep |use |stop |avoid |no |only )`)
	askedPlease = lazyre.New(`(?i)\bplease[.!]?\s*$`)
)

// OnlyOfRule reports whether clause c says with "only" the other side
// of a rule a gone clause of its sentence (parts) forbade: "deploys only
// go through the GitHub Actions workflow" once "please don't deploy from
// your laptop" was taken back.
func OnlyOfRule(c string, parts []string, gone []bool) bool {
	if !onlyWord.MatchString(c) {
		return false
	}
	ck := change.TopicKeys(c)
	for j, p := range parts {
		if !gone[j] || !change.Forbids(p) {
			continue
		}
		for k := range change.TopicKeys(p) {
			if len(k) >= 4 && ck[k] {
				return true
			}
		}
	}
	return false
}

var onlyWord = lazyre.New(`(?i)\bonly\b`)
