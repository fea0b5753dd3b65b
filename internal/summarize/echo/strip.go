package echo

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

var (
	// itemRE starts a unit of its own: a list item or a heading, with
	// the marker a rewritten unit keeps.
	itemRE = lazyre.New(`^\s*(?:[-*+]|\d{1,3}[.)]|#{1,6})\s+`)
	// recalled opens what the agent says it has from memory: "From
	// memory:", "Based on the project memory,", "The notes from the last
	// session say", "I see from the earlier sessions that". A fact said
	// again without it may be one the agent checked again ("The gemspec
	// says >= 3.2" after reading it), which is current as of this
	// session; one said from memory is not.
	recalled = lazyre.New(`(?i)^\W*(?:(?:so|ok(?:ay)?|right|alright),?\s+)?(?:(?:from what|as far as) i (?:have|remember|recall|know|can (?:see|tell))\b|if i (?:remember|recall) (?:right|rightly|correctly)\b|(?:based on|from|according to|per|going by|as (?:noted|recorded|saved|kept|said) in|recapping|to recap)\s+(?:what\s+)?(?:the |my |our |your |cairn(?:'s)? )?(?:project(?:'s)? |saved |stored |earlier |previous |prior |injected |loaded |last |past )?(?:memory|memories|notes|context|sessions?|session notes|history)\b|(?:the |my |our |cairn(?:'s)? )?(?:project )?(?:memory|memories|notes)(?: from [\w ]{1,30})? (?:says?|said|shows?|notes?|mentions?|records?|tells? me|lists?)\b|i (?:see|recall|remember|note|know) (?:from|in) (?:the |my |our )?(?:project )?(?:memory|memories|notes|context|previous sessions?|earlier sessions?|last session)\b|(?:in |from )?(?:the )?(?:last|previous|earlier|prior) sessions?\b[^.:]{0,40}(?:we|you|i)\b|(?:to )?recap\b)`)
	// frameRE is the framing a recalled sentence leads with, up to its
	// colon or comma, when it has one.
	frameRE = lazyre.New(`^[^:,;]{0,80}[:,]\s*`)
)

// Strip takes out of an agent's Markdown text the sentences it says
// from memory (recalled) that echo t, and the paragraphs and list items
// left with none; the list right after a recalled lead ("From memory:")
// is read as said from memory. Code blocks, tables and quotes stay as
// they are; a unit that keeps some of its sentences is written again as
// one line of them.
func (t *Told) Strip(text string) string {
	if t == nil || text == "" || !strings.Contains(text, " ") {
		return text
	}
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	var unit []string
	changed := false
	// inList: the units are the items of a list a recalled lead opened.
	inList := false
	flush := func() {
		if len(unit) == 0 {
			return
		}
		item := itemRE.MatchString(unit[0]) && !strings.HasPrefix(strings.TrimSpace(unit[0]), "#")
		if !item {
			inList = false
		}
		kept, ok, lead := t.unit(unit, item && inList)
		if lead {
			inList = true
		}
		changed = changed || ok
		out = append(out, kept...)
		unit = unit[:0]
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
			inList = false
			fence = trim[:3]
			out = append(out, l)
			continue
		case trim == "":
			flush()
			out = append(out, l)
			continue
		case strings.HasPrefix(trim, "|") || strings.HasPrefix(trim, ">"):
			flush()
			inList = false
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

// unit is a paragraph or list item (its lines) without its recalled
// sentences that echo t (every one, when framed: an item of a recalled
// list; those after a recalled one in the paragraph); ok says whether any went, lead whether the unit ends by
// introducing what it recalls ("From memory:").
func (t *Told) unit(lines []string, framed bool) (kept []string, ok, lead bool) {
	sents := prose.Sentences(strings.Join(lines, "\n"))
	var rest []string
	// on: a recalled sentence frames the ones after it in its paragraph
	// ("From what I have: relaybox takes …. Failed deliveries wait in …").
	on := false
	for _, s := range sents {
		rec := recalled.MatchString(s)
		said := framed || on || rec
		on = on || rec
		body := s
		if rec && !framed {
			body = frameRE.ReplaceAllString(s, "")
			if strings.HasSuffix(strings.TrimSpace(s), ":") && len(prose.ContentWords(body)) < minWords {
				lead, ok = true, true // "From the project memory:" introduces; its items say
				continue
			}
		}
		if said && t.Echoes(body) {
			ok = true
			continue
		}
		rest = append(rest, s)
	}
	switch {
	case !ok:
		return lines, false, lead
	case len(rest) == 0:
		return nil, true, lead
	}
	return []string{itemRE.FindString(lines[0]) + strings.Join(rest, " ")}, true, lead
}
