package main

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/indexer"
)

// prefixRunes is how much of a turn must be found: its first 60
// characters, or all of it when shorter.
const prefixRunes = 60

// normalize lower-cases s, drops Markdown emphasis marks and makes every
// run of white space one space.
func normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == '*':
			continue
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// needle is what of a turn's text (without its speaker) a returned text
// must contain for the turn to be found.
func needle(turn string) string {
	n := normalize(turn)
	if utf8.RuneCountInString(n) <= prefixRunes {
		return n
	}
	i := 0
	for k := 0; k < prefixRunes; k++ {
		_, size := utf8.DecodeRuneInString(n[i:])
		i += size
	}
	return n[:i]
}

// cutTokens returns the texts joined in order and cut at budget tokens
// (indexer.EstimateTokens): the first text that does not fit whole is cut
// at the last word that fits.
func cutTokens(texts []string, budget int) string {
	var b strings.Builder
	left := budget
	for _, t := range texts {
		n := indexer.EstimateTokens(t)
		if n <= left {
			b.WriteString(t)
			b.WriteByte('\n')
			left -= n
			continue
		}
		b.WriteString(headTokens(t, left))
		break
	}
	return b.String()
}

// headTokens returns the longest run of whole words from the start of s
// that holds at most budget tokens.
func headTokens(s string, budget int) string {
	if budget <= 0 {
		return ""
	}
	// Word ends, then a binary search over them: the estimate only grows
	// as words are added.
	var ends []int
	in := false
	for i, r := range s {
		sp := unicode.IsSpace(r)
		if sp && in {
			ends = append(ends, i)
		}
		in = !sp
	}
	if in {
		ends = append(ends, len(s))
	}
	lo, hi := 0, len(ends) // ends[:lo] fit
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if indexer.EstimateTokens(s[:ends[mid-1]]) <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 {
		return ""
	}
	return s[:ends[lo-1]]
}

// share is the part of the needles found in text (normalised).
func share(needles []string, text string) float64 {
	text = normalize(text)
	found := 0
	for _, n := range needles {
		if strings.Contains(text, n) {
			found++
		}
	}
	return float64(found) / float64(len(needles))
}

// ranks returns, per needle, the 1-based rank of the first text that holds
// it, 0 when none does.
func ranks(needles []string, texts []string) []int {
	out := make([]int, len(needles))
	for r, t := range texts {
		t = normalize(t)
		for i, n := range needles {
			if out[i] == 0 && strings.Contains(t, n) {
				out[i] = r + 1
			}
		}
	}
	return out
}
