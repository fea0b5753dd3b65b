package openwork

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
)

// PointsBack reports whether s opens on a pronoun for what the sentence
// before said: "That's fine at today's volume, but …", "It only bites
// under load".
func PointsBack(s string) bool { return itemRef.MatchString(s) }

var itemRef = lazyre.New(`(?i)^(?:that's|that is|this is|it's|it is|that|this|it)\s`)

// List returns the items of a labelled list of work left said in
// one sentence, split at its semicolons ("Still open: A; B; and C."), or
// nil when s is no such list, an item would be shorter than three words
// or one points back to the one before.
func List(s string) []string {
	s = prose.TrimLead(s)
	m := cue.OpenLabel.FindStringIndex(s)
	if m == nil || !strings.Contains(s[m[1]:], "; ") || strings.Count(s[m[1]:], "`")%2 != 0 {
		return nil
	}
	var out []string
	for i, p := range strings.Split(s[m[1]:], "; ") {
		p = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p), "and "))
		if len(strings.Fields(p)) < 3 || i > 0 && backRef.MatchString(p) {
			return nil // "…, because there is no POST /shorten handler; wiring the limiter into it is the next step": one item
		}
		if !strings.HasSuffix(p, ".") && !strings.HasSuffix(p, "!") {
			p += "."
		}
		out = append(out, prose.Capitalize(p))
	}
	return out
}

// backRef is a word that points back to what a clause before named.
var backRef = lazyre.New(`(?i)\b(?:it|its|them|they|this|that|those|these)\b`)

// Text is the item s says, without the label that says it is left
// ("Still open: ", "Next time, ").
func Text(s string) string {
	s = prose.TrimLead(s)
	if t := cue.OpenLabel.ReplaceAllString(s, ""); len(t) >= 8 {
		return prose.Capitalize(t)
	}
	return s
}
