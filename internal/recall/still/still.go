package still

import (
	"slices"
	"strings"
	"unicode"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/digest/supersede"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/recall/derived"
	"github.com/cairn-mem/cairn/internal/summarize"
	"github.com/cairn-mem/cairn/internal/summarize/weigh"
)

// Says is what bullet b of part p of session k still says once
// newer sessions had their say: "" when nothing.
func Says(r *derived.Retirer, p, k int, b string, replaced []supersede.Value, current bool) string {
	switch {
	case p == digest.Root || p == digest.Rejected && !change.Forbids(b) && !strings.Contains(b, summarize.PassedOver):
		// A root cause tells what happened, a rejection what was
		// turned down and why: a later change of what it names does not
		// make it untrue ("it keeps one environment warm" once ten are
		// provisioned). A rule said as a rejection ("unsafe is ruled out
		// across the workspace") is one a permission takes back, and
		// the alternative a decision names ("X — passed over for: Y")
		// goes as the decision does.
		left := r.DropDoneCause(k, b)
		if p == digest.Root {
			left = dropLimits(r, k, b, left)
		}
		return left
	case p != digest.Request:
		left := r.DropRetired(supersede.Drop(r.DropDone(k, b), replaced), k)
		if p == digest.Preferences && !KeepsHead(b, left) {
			return ""
		}
		return left
	case !current:
		// What a session asked is history; a to-do it states, once a
		// newer session dealt with it, is not left to do, and a setting
		// it describes ("the backend runs on 5000") a newer session, or
		// its own work, changed is not current.
		return Headless(b, r.DropRetiredAsked(r.DropDoneCause(k, b), k))
	}
	return b
}

// dropLimits drops from left, what is left of root cause b of session
// k, each sentence that blames a value being only so much ("the pool is
// only 10 connections", "ops-02 only has Python 3.9") once a newer
// session, or a later segment of b's, gave what it names another number
// and the retirer agrees: the cause no longer holds, and its value is no
// longer current.
func dropLimits(r *derived.Retirer, k int, b, left string) string {
	if !strings.Contains(strings.ToLower(left), "only") {
		return left
	}
	said := r.Said(k)
	if len(said) <= k {
		return left // a session the retirer does not know
	}
	// Said after b: in a newer session, or in a later segment of b's.
	later := func(d *digest.Summary, x string) bool { return d != said[k] || d.Seg[x] > d.Seg[b] }
	var kept []string
	dropped := false
	for _, s := range digest.Sentences(left) {
		if m := onlyValue.FindStringSubmatch(s); m != nil && renumbered(said, later, limitNames(m), m[3]) && r.DropRetired(s, k) != s {
			dropped = true
			continue
		}
		kept = append(kept, s)
	}
	if !dropped {
		return left
	}
	return strings.Join(kept, " ")
}

// onlyValue is a value said to be only so much, with the word before it
// (1), the words between (2), the number (3) and the word after (4): "pool
// is only 10 connections", "ops-02, only has Python 3.9", "our lookback
// is only 3 days".
var onlyValue = lazyre.New(`(?i)(?:\b([\w-]+)\s+(?:is\s+|was\s+)?)?\bonly\s+(?:(?:is|has|had|was|runs|keeps|allows|gets)\s+)?((?:[A-Za-z][\w.+-]*\s+){0,2})(\d[\d.]*\d|\d)(?:\s+([A-Za-z]+))?`)

// limitNames are the words of a limit that may name it in another
// statement, lower-case: what it is of, and what it counts.
func limitNames(m []string) []string {
	var out []string
	for _, w := range append(strings.Fields(m[2]), m[1], m[4]) {
		w = strings.ToLower(w)
		if len(w) >= 3 && !lex.StopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// renumbered reports whether a bullet of sums said later gives a number
// other than v soon after one of names, a word of its own: "Python 3.12", "lookback
// default is 5 days"; not "python3 tools/set_interval.py 1800".
func renumbered(sums []*digest.Summary, later func(*digest.Summary, string) bool, names []string, v string) bool {
	for _, d := range sums {
		for _, bullets := range d.Parts {
			for _, b := range bullets {
				if !later(d, b) {
					continue
				}
				lower := strings.ToLower(b)
				for _, n := range names {
					other := lex.HasBounded(lower, n, func(start, at int) bool {
						if start > 0 && lex.IsWordByte(lower[start-1]) || at < len(lower) && lex.IsWordByte(lower[at]) {
							return false // "python3 tools/…" names no Python version
						}
						m := firstNumber.FindString(lower[at:min(len(lower), at+24)])
						return m != "" && m != v
					})
					if other {
						return true
					}
				}
			}
		}
	}
	return false
}

// firstNumber is the first number of a text.
var firstNumber = lazyre.New(`\d[\d.]*\d|\d`)

// Weighed reports whether outcome b lists the options its session then
// chose among ("Options: Redis, or a small table in the SQLite database
// we already have. Redis would be fast, but …"): the session's decision
// and its Rejected line say what came of it, and once a later session
// reverses the pick the list reads as current.
func Weighed(b string, d *digest.Summary) bool {
	ss := digest.Sentences(b)
	return len(ss) > 0 && weigh.Lists(ss[0]) && len(d.Parts[digest.Decisions])+len(d.Parts[digest.Rejected]) > 0
}

// Stated is what a request states, without the questions it asks.
func Stated(b string) string {
	var kept []string
	for _, s := range digest.Sentences(b) {
		if !strings.HasSuffix(s, "?") {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, " ")
}

// Headless drops from left, what is left of bullet once clauses went,
// each sentence that lost its head and kept no rule: "the bundle is
// heavy" once "please don't add npm dependencies without asking me
// first, the bundle is heavy" was taken back.
func Headless(bullet, left string) string {
	if left == bullet || left == "" {
		return left
	}
	whole := digest.Sentences(bullet)
	leftSents := digest.Sentences(left)
	// lost reports whether the sentence before whole[i] went.
	lost := func(s string) bool {
		i := slices.Index(whole, s)
		return i > 0 && !slices.Contains(leftSents, whole[i-1])
	}
	var kept []string
	for _, s := range leftSents {
		if slices.Contains(whole, s) && !(leansBack(s) && lost(s)) {
			kept = append(kept, s)
			continue
		}
		if slices.Contains(whole, s) {
			continue // "not today though" once the to-do it put off was done
		}
		for _, w := range whole {
			if strings.HasSuffix(strings.TrimRight(strings.ToLower(w), ".!?"), strings.TrimRight(strings.ToLower(s), ".!?")) {
				if KeepsHead(w, s) && !leansBack(s) {
					kept = append(kept, s)
				}
				s = ""
				break
			}
		}
		if s != "" {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, " ")
}

// leansBack reports whether sentence s of a prompt says nothing without
// the sentence before it: a few words in lower case ("not today
// though"), or a pronoun for what that sentence named ("we use it at
// another client").
func leansBack(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 || len(f) > 8 || strings.ContainsAny(s, "0123456789`") || !unicode.IsLower([]rune(f[0])[0]) {
		return false
	}
	if len(f) <= 4 {
		return true
	}
	for _, w := range f {
		switch strings.Trim(strings.ToLower(w), ".,;:!?") {
		case "it", "that", "this", "them", "those", "these":
			return true
		}
	}
	return false
}

// KeepsHead reports whether what is left of a preference bullet once the
// sentences and clauses shown or taken back elsewhere are dropped still
// holds its rule: it starts with (what is left of) its first sentence
// ("Download links are signed with HS256." without the clause a newer
// one changed), or what is left says what to do ("…, so keep to APIs
// that exist there"). "The retries live there." says nothing without the
// rule it gave the reason for.
func KeepsHead(bullet, left string) bool {
	ss := digest.Sentences(bullet)
	if left == bullet || len(ss) == 0 || strings.HasPrefix(left, ss[0]) {
		return true
	}
	ls := digest.Sentences(left)
	if len(ls) == 0 {
		return false
	}
	first := func(s string) string {
		for _, w := range strings.Fields(strings.ToLower(s)) {
			if w = strings.Trim(w, ".,;:!?\"'`()"); w != "" && !lex.StopWords[w] {
				return w
			}
		}
		return ""
	}
	if first(ls[0]) == first(ss[0]) {
		return true
	}
	for _, w := range strings.Fields(strings.ToLower(ls[0])) {
		if ruleWords[strings.Trim(w, ".,;:!?\"'`()")] {
			return true
		}
	}
	return false
}

// ruleWords say what to do: what a preference is.
var ruleWords = map[string]bool{"keep": true, "never": true, "always": true, "don't": true, "only": true,
	"must": true, "avoid": true, "prefer": true, "use": true}
