package prose

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// alternative is what a decision turned down, as it says it, and what it
// chose in its place: "copying it" and "rename" in "rename instead of
// copying it"; "Redis" in "we're dropping Redis after all" (the whole
// decision is the choice). A sentence that names nothing chosen beside
// it has none: "replace the old module and point server.ts at it" (what
// replaces it is not said), "make test three times over" (an adverb).
func Alternative(what string) (alt, choice string) {
	if alt, rest, ok := LeadingDrop(what); ok {
		return alt, rest
	}
	m := dropRE.FindStringSubmatchIndex(what)
	if m == nil {
		return "", ""
	}
	before, kw, phrase := what[:m[0]], strings.ToLower(what[m[0]:m[4]]), what[m[4]:m[5]]
	alt = strings.TrimSpace(cutAtPrep(phrase))
	switch {
	case strings.HasPrefix(kw, "over") && !preferVerb.MatchString(before):
		return "", "" // "three times over": no choice
	case strings.HasPrefix(kw, "drop") && dropTo.MatchString(phrase):
		return "", "" // "drop the pool to 15": a value lowered, nothing turned down
	case strings.HasPrefix(kw, "replac"):
		if replaceWith.MatchString(what) {
			return alt, what
		}
		return "", "" // "replace the old module": nothing named in its place
	}
	after := strings.TrimSpace(what[m[5]:])
	subject := before
	if i := strings.LastIndex(subject, ":"); i >= 0 {
		subject = subject[i+1:]
	}
	switch rest := strings.TrimSpace(strings.TrimLeft(after, ",")); {
	case strings.HasPrefix(after, ":") || strings.HasPrefix(after, ";") || relativeAfter.MatchString(after):
		// "a store rather than splitting the context: with contexts …":
		// what follows is the reason, not the choice; "over
		// fast-xml-parser, whose builder only escapes …" says what the
		// alternative lacks.
		choice = strings.TrimSpace(before)
	case strings.HasPrefix(after, ",") && len(ContentWords(subject)) == 0 && IsClause(rest):
		// "we're dropping 3.9, bump requires-python to 3.11": the next
		// clause is the choice.
		choice = rest
	default:
		choice = strings.TrimSpace(before + " " + strings.TrimLeft(after, ","))
	}
	if len(ContentWords(choice)) == 0 {
		choice = what // "we're dropping Redis after all"
	}
	return alt, choice
}

// relativeAfter opens a relative clause on the alternative just named.
var relativeAfter = lazyre.New(`^,\s+(?:whose|which|where|who)\b`)

// dropTo is what "drop" lowers, with the value it lowers it to.
var dropTo = lazyre.New(`(?i)^[^\d]{1,40}?\s(?:down )?to\s+[$€£]?\d`)

// preferVerb: the words before "over" that make it a preference ("chose
// chi over gorilla/mux"), not an adverb ("three times over").
var preferVerb = lazyre.New(`(?i)\b(prefer\w*|cho(?:se|ose|sen)|pick\w*|went with|go(?:ing)? with|opt\w*|favou?r\w*|use|using|keep|stick\w*)\b`)

// leadDrop is a sentence that starts with what it turns down: "Rather
// than X, Y", "Instead of X, Y".
var leadDrop = lazyre.New(`(?i)^(?:(?:so|ok|okay|and|but),?\s+)?(?:rather than|instead of)\s+(?:the |our |a |an )?`)

// leadingDrop splits "Rather than ask everyone to switch AirPlay off,
// I'll move the API" into what is turned down and the clause that says
// what is done instead (after the first comma outside parentheses).
func LeadingDrop(what string) (alt, rest string, ok bool) {
	loc := leadDrop.FindStringIndex(what)
	if loc == nil {
		return "", "", false
	}
	depth := 0
	for i := loc[1]; i < len(what); i++ {
		switch what[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth > 0 {
				continue
			}
			alt = strings.TrimSpace(what[loc[1]:i])
			if j := strings.IndexByte(alt, '('); j > 0 {
				alt = strings.TrimSpace(alt[:j])
			}
			rest = strings.TrimSpace(what[i+1:])
			if alt == "" || !IsClause(rest) {
				return "", "", false
			}
			return alt, rest, true
		}
	}
	return "", "", false
}

// strongValue: a statement holds a value that says where or how
// something runs (a URL, host, port, version, variable or command),
// not only the path of a source file, which the file lists carry anyway.
func StrongValue(s string) bool {
	return urlRE.MatchString(s) || hostRE.MatchString(s) || portRE.MatchString(s) && portHint.MatchString(s) ||
		versionNum.MatchString(s) || envVarRE.MatchString(s) || cmdRE.MatchString(s)
}
