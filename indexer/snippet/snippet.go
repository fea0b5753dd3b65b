package snippet

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
)

// Marks around matched words in snippets. Guillemets, because Markdown
// emphasis (**word**) would collide with the emphasis memory text
// already has.
const (
	markOpen  = "«"
	markClose = "»"
)

// snippetChars is about how long a snippet is.
const snippetChars = 240

// Make returns about 240 characters of text around the densest
// cluster of query terms, whitespace collapsed, with each word whose
// analysed form (by analyze) is one of terms marked «like this». Without
// matches it is the start of the text.
func Make(analyze func([]byte) analysis.TokenStream, text string, terms []string) string {
	want := make(map[string]bool, len(terms))
	for _, t := range terms {
		want[t] = true
	}
	type span struct{ start, end int }
	var matches []span
	var matchTerms []string
	if len(want) > 0 {
		for _, tok := range analyze([]byte(text)) {
			if want[string(tok.Term)] && tok.Start >= 0 && tok.End <= len(text) && tok.Start < tok.End {
				matches = append(matches, span{tok.Start, tok.End})
				matchTerms = append(matchTerms, string(tok.Term))
			}
		}
	}

	// The window with the most distinct terms, then the most matches.
	from := 0
	if len(matches) > 0 {
		bestDistinct, bestCount := -1, -1
		for i := range matches {
			distinct := make(map[string]bool)
			count := 0
			for j := i; j < len(matches) && matches[j].end-matches[i].start <= snippetChars; j++ {
				distinct[matchTerms[j]] = true
				count++
			}
			if len(distinct) > bestDistinct || (len(distinct) == bestDistinct && count > bestCount) {
				bestDistinct, bestCount = len(distinct), count
				from = matches[i].start
			}
		}
		// A little context before the first match, from a word start.
		from = max(0, from-snippetChars/6)
		for from > 0 && !isBoundary(text, from) {
			from--
		}
	}
	to := min(len(text), from+snippetChars)
	for to < len(text) && !isBoundary(text, to) {
		to++
	}

	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	m := 0
	for m < len(matches) && matches[m].start < from {
		m++
	}
	space, wrote := false, false
	for i := from; i < to; {
		if m < len(matches) && i == matches[m].start && matches[m].end <= to {
			if space && wrote {
				b.WriteByte(' ')
			}
			space, wrote = false, true
			b.WriteString(markOpen)
			b.WriteString(text[matches[m].start:matches[m].end])
			b.WriteString(markClose)
			i = matches[m].end
			m++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && wrote {
			b.WriteByte(' ')
		}
		space, wrote = false, true
		b.WriteRune(r)
	}
	if to < len(text) {
		b.WriteString("…")
	}
	return b.String()
}

// isBoundary reports whether i in s is at a rune start next to a space.
func isBoundary(s string, i int) bool {
	if i <= 0 || i >= len(s) {
		return true
	}
	if !utf8.RuneStart(s[i]) {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return unicode.IsSpace(r)
}
