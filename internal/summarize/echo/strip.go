package echo

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// itemRE starts a unit of its own: a list item or a heading, with the
// marker a rewritten unit keeps.
var itemRE = lazyre.New(`^\s*(?:[-*+]|\d{1,3}[.)]|#{1,6})\s+`)

// Strip takes out of an agent's Markdown text the sentences that echo
// t, and the paragraphs and list items left with none. Code blocks,
// tables and quotes stay as they are; a unit that keeps some of its
// sentences is written again as one line of them.
func (t *Told) Strip(text string) string {
	if t == nil || text == "" {
		return text
	}
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	var unit []string
	changed := false
	flush := func() {
		if len(unit) > 0 {
			kept, ok := t.unit(unit)
			changed = changed || ok
			out = append(out, kept...)
			unit = unit[:0]
		}
	}
	fence := ""
	for _, l := range lines {
		trim := strings.TrimSpace(l)
		switch {
		case fence != "":
			out = append(out, l)
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
			continue
		case strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~"):
			flush()
			fence = trim[:3]
			out = append(out, l)
			continue
		case trim == "" || strings.HasPrefix(trim, "|") || strings.HasPrefix(trim, ">"):
			flush()
			out = append(out, l)
			continue
		case itemRE.MatchString(l):
			flush()
		}
		unit = append(unit, l)
	}
	flush()
	if !changed {
		return text
	}
	return strings.Join(out, "\n")
}

// unit is a paragraph or list item (its lines) without the sentences
// that echo t; ok says whether any did.
func (t *Told) unit(lines []string) (kept []string, ok bool) {
	sents := prose.Sentences(strings.Join(lines, "\n"))
	var rest []string
	for _, s := range sents {
		if t.Echoes(s) {
			ok = true
			continue
		}
		rest = append(rest, s)
	}
	switch {
	case !ok:
		return lines, false
	case len(rest) == 0:
		return nil, true
	}
	return []string{itemRE.FindString(lines[0]) + strings.Join(rest, " ")}, true
}
