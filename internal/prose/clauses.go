package prose

import (
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// clauseSep separates the clauses of a sentence.
var clauseSep = lazyre.New(`;\s+(?:and\s+)?|,\s+(?:and|but|while|whereas)\s+|\s+—\s+`)

// FullClauses splits sentence s into the clauses that stand alone (at
// semicolons, dashes and ", and/but/while/whereas"; Clauses splits at the
// first two only and keeps every part); a part
// that is not one stays with the part before it, as it was written.
func FullClauses(s string) []string {
	var out []string
	last, sep := 0, ""
	add := func(p string) {
		p = strings.TrimSpace(p)
		if len(out) > 0 && !IsFullClause(p) && !saysPast(p) {
			out[len(out)-1] += sep + p
			return
		}
		out = append(out, p)
	}
	seps := clauseSep.FindAllStringIndex(s, -1)
	// "Dev store is leaf-dev, I have CLI 3.58 installed": a comma before
	// a subject of its own; "… in /data/in and the CSVs go to …": "and"
	// before one. The subject stays with its clause.
	for _, m := range spliceSep.FindAllStringSubmatchIndex(s, -1) {
		seps = append(seps, []int{m[0], m[2]})
	}
	slices.SortFunc(seps, func(a, b []int) int { return a[0] - b[0] })
	for _, m := range seps {
		if m[0] < last || strings.Count(s[:m[0]], "`")%2 != 0 {
			continue // inside code, or within a separator taken
		}
		if strings.HasSuffix(strings.TrimSpace(s[m[0]:m[1]]), "and") && compoundSubject(s[last:m[0]]) {
			continue // "…, so Bunny and the apps can cache them": one subject of two names
		}
		if strings.TrimSpace(s[m[0]:m[1]]) == "—" && strings.TrimSpace(sep) == "—" && predicateFirst(s[m[1]:]) {
			// "…, so Bunny — and apps behind it — kept serving the old
			// feed": the dash closes an aside, and what follows is the
			// predicate of the subject before it, no clause of its own.
			continue
		}
		add(s[last:m[0]])
		last, sep = m[1], s[m[0]:m[1]]
	}
	add(s[last:])
	return out
}

// predicateFirst reports whether s opens on a verb that goes on with a
// subject said before it: a past form ("kept", "served") or an
// auxiliary ("is", "can").
func predicateFirst(s string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	if w == "" || strings.ToLower(w) != w {
		return false
	}
	return len(w) > 3 && strings.HasSuffix(w, "ed") || predicateWords[w]
}

// predicateWords are the irregular past forms and the auxiliaries
// predicateFirst reads as a verb.
var predicateWords = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "has": true, "have": true, "had": true,
	"can": true, "could": true, "will": true, "would": true, "should": true, "must": true, "may": true, "might": true,
	"kept": true, "sent": true, "made": true, "went": true, "took": true, "got": true, "ran": true, "held": true,
	"left": true, "put": true, "said": true, "told": true, "gave": true, "came": true, "began": true, "brought": true,
	"built": true, "found": true, "lost": true, "paid": true, "set": true, "stood": true, "wrote": true, "broke": true,
	"fell": true, "grew": true, "hit": true, "let": true, "meant": true, "met": true, "saw": true, "spent": true, "won": true,
}

// compoundSubject reports whether the words an "and" follows, back to
// the last comma, open a clause with a name and no verb ("so Bunny"):
// what follows the "and" is the rest of its subject, not a clause of its
// own.
func compoundSubject(left string) bool {
	if i := strings.LastIndex(left, ", "); i >= 0 {
		left = left[i+2:]
	}
	left = strings.TrimSpace(left)
	for _, lead := range []string{"so ", "but ", "then ", "while ", "because ", "since ", "when ", "if "} {
		if rest, ok := strings.CutPrefix(left, lead); ok {
			// A clause opened and no verb yet: "so Bunny and the apps
			// can …". "…, vault infra-prod, and every command …" has
			// no opener: an aside, then a clause of its own.
			return rest != "" && len(strings.Fields(rest)) <= 3 && !IsFullClause(rest)
		}
	}
	return false
}

// spliceSep is a comma or an "and" before a clause's own subject; its
// first group starts the subject.
// "…, I'd rather fail fast" is one too.
var spliceSep = lazyre.New(`(?:,|\s+and)\s+((?:I|[Ww]e|[Yy]ou|[Tt]hey|the|our)\s|(?:I|[Ww]e|[Yy]ou|[Tt]hey)'(?:d|ll|m|re|ve)\s)`)

// ListItems splits s at its commas outside code and parentheses when it
// lists three things or more; nil otherwise.
func ListItems(s string) []string {
	var out []string
	depth, tick, last := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '`':
			tick = !tick
		case tick:
		case c == '(' || c == '[':
			depth++
		case (c == ')' || c == ']') && depth > 0:
			depth--
		case c == ',' && depth == 0 && i+1 < len(s) && s[i+1] == ' ':
			out = append(out, strings.TrimSpace(s[last:i]))
			last = i + 1
		}
	}
	if len(out) < 2 {
		return nil
	}
	return append(out, strings.TrimSpace(s[last:]))
}
