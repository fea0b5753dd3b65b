package digest

import (
	"strings"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/lazyre"
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

// EndsOnIt reports whether sentence s has for its object what the
// sentence before it named: "Read it first before writing to it.",
// "Don't do that.". A sentence dropped from a bullet (retired, or a to-do
// dealt with) takes such a sentence after it along; one that opens on
// "it" ("It reads config/server.yaml at start") speaks of the subject,
// which may outlive a value the sentence before gave.
func EndsOnIt(s string) bool { return endsOnIt.MatchString(strings.TrimSpace(s)) }

var endsOnIt = lazyre.New(`(?i)\b(?:it|them|this|that)[.!]?$|\b(?:do|does|did|doing) that\b`)

// OnlyAside reports whether what is left of a bullet is only a remark in
// parentheses ("(tool error)" once the error's sentences were dropped):
// it says nothing alone.
func OnlyAside(s string) bool { return onlyAside.MatchString(strings.TrimSpace(s)) }

var onlyAside = lazyre.New(`^\([^()]*\)[.!]?$`)

// MaxBodyBytes is the most of an item's body the pack reads and weighs:
// its entry shows a few hundred tokens at most, so a body of megabytes
// (a pasted log) would cost a session start its whole length in every
// sentence rule for text it never shows. The rest stays in the file,
// searchable, and cairn show prints it whole.
const MaxBodyBytes = 64 << 10

// FirstPart returns s when it is at most n bytes long, else its first
// part of at most n bytes, cut at the last paragraph, line, sentence or
// word boundary in the second half of those n bytes (never inside a
// UTF-8 sequence), and true.
func FirstPart(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n-- // s[n] opens the first rune left out
	}
	head := s[:n]
	half := len(head) / 2
	if i := strings.LastIndex(head, "\n\n"); i >= half {
		return strings.TrimRight(head[:i], " \t\r\n"), true
	}
	if i := strings.LastIndexByte(head, '\n'); i >= half {
		return strings.TrimRight(head[:i], " \t\r\n"), true
	}
	best := -1
	for _, end := range []string{". ", "! ", "? ", ".\t", "!\t", "?\t"} {
		if i := strings.LastIndex(head, end); i > best {
			best = i
		}
	}
	if best >= half {
		return head[:best+1], true
	}
	if i := strings.LastIndexAny(head, " \t"); i >= half {
		return strings.TrimRight(head[:i], " \t"), true
	}
	return head, true
}
