package digest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/prose"
)

// The pack never cuts inside a sentence: it shows whole sentences and
// drops the ones at the end. These helpers find sentences in text that
// holds code, file names, abbreviations and ellipses.

// Sentences splits one line of text into sentences, each with its end
// mark, as prose.Line does: a mark inside `code`, an ellipsis, a period
// inside a word (main.go, v1.2) or after an abbreviation ends nothing;
// one before a lower-case word ends a sentence only after a plain word
// or a file name ("ok fair enough. and please …").
func Sentences(s string) []string { return prose.Line(s) }

// Whole returns the longest run of s's first whole sentences of at most
// n tokens, "" if the first is longer.
func Whole(s string, n int) string {
	s = mdtext.OneLine(s)
	if indexer.EstimateTokens(s) <= n {
		return s
	}
	var b strings.Builder
	for _, x := range Sentences(s) {
		t := x
		if b.Len() > 0 {
			t = b.String() + " " + x
		}
		if indexer.EstimateTokens(t) > n {
			break
		}
		b.Reset()
		b.WriteString(t)
	}
	return b.String()
}

// Shorten returns the longest run of s's first whole sentences of at
// most n tokens. When even the first is longer, it is kept whole if it
// has at most 2n tokens; else it is cut at the last clause boundary (or,
// failing one, word) that fits, and the cut is marked with "…" at the
// end: the only place the pack cuts a sentence, and only a sentence too
// long to show.
func Shorten(s string, n int) string {
	s = mdtext.OneLine(s)
	if indexer.EstimateTokens(s) <= n {
		return s
	}
	if w := Whole(s, n); w != "" {
		return w
	}
	first := s
	if ss := Sentences(s); len(ss) > 0 {
		first = ss[0]
	}
	if indexer.EstimateTokens(first) <= 2*n {
		return first
	}
	return CutClause(first, n)
}

// CutClause cuts a sentence too long to show at its last clause
// boundary (", ", "; ", " — ") or word within n tokens, marking the cut.
func CutClause(s string, n int) string {
	lo, hi := 0, len(s)
	for lo < hi { // the longest prefix that fits, by bisection
		mid := (lo + hi + 1) / 2
		if indexer.EstimateTokens(s[:mid]+"…") <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	cut := s[:lo]
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	best := -1
	for _, sep := range []string{", ", "; ", " — ", " - ", ": "} {
		if i := strings.LastIndex(cut, sep); i > len(cut)/2 && i > best {
			best = i
		}
	}
	if best < 0 {
		best = strings.LastIndexByte(cut, ' ')
	}
	if best > 0 {
		cut = cut[:best]
	}
	cut = strings.TrimRight(cut, " ,;:—-")
	if cut == "" {
		return ""
	}
	return cut + "…"
}

// ContentWords are the distinct words of s worth comparing, lower-cased,
// without stop words and crudely stemmed: enough to tell whether two
// statements are about the same thing.
func ContentWords(s string) map[string]bool {
	out := make(map[string]bool)
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if len(w) < 2 || StopWords[w] {
			continue
		}
		out[Stem(w)] = true
	}
	return out
}

// Stem strips common English endings, so that "retries", "retried" and
// "retry" compare equal often enough.
func Stem(w string) string {
	for _, suf := range []string{"ies", "ied", "ing", "ed", "es", "ly", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			w = strings.TrimSuffix(w, suf)
			if suf == "ies" || suf == "ied" {
				w += "y"
			}
			break
		}
	}
	return w
}

// Overlap is the share of a's words that b holds (0 when a has none).
func Overlap(a, b map[string]bool) float64 {
	if len(a) == 0 {
		return 0
	}
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// StopWords are English words that say nothing about a subject.
var StopWords = func() map[string]bool {
	m := make(map[string]bool)
	for _, w := range strings.Fields(`a about above after again against all also am an and any are as at be because
		been before being below between both but by can could did do does doing done down during each few for from
		further had has have having he her here hers herself him himself his how i if in into is it its itself just
		me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she
		should so some such than that the their theirs them themselves then there these they this those through to
		too under until up very was we were what when where which while who whom why will with would you your yours
		yourself yourselves let lets get got make made use used using need needs want wants please should shall may
		might must one two new via per still yet again already`) {
		m[w] = true
	}
	return m
}()
