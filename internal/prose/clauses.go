package prose

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// clauseSep separates the clauses of a sentence.
var clauseSep = lazyre.New(`;\s+|,\s+(?:and|but|while|whereas)\s+|\s+—\s+`)

// FullClauses splits sentence s into the clauses that stand alone (at
// semicolons, dashes and ", and/but/while/whereas"; Clauses splits at the
// first two only and keeps every part); a part
// that is not one stays with the part before it, as it was written.
func FullClauses(s string) []string {
	var out []string
	last, sep := 0, ""
	add := func(p string) {
		p = strings.TrimSpace(p)
		if len(out) > 0 && !IsFullClause(p) {
			out[len(out)-1] += sep + p
			return
		}
		out = append(out, p)
	}
	for _, m := range clauseSep.FindAllStringIndex(s, -1) {
		if strings.Count(s[:m[0]], "`")%2 != 0 {
			continue // inside code
		}
		add(s[last:m[0]])
		last, sep = m[1], s[m[0]:m[1]]
	}
	add(s[last:])
	return out
}

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
