package summarize

import (
	"github.com/cairn-mem/cairn/internal/prose"

	"strconv"
	"strings"
	"unicode"
)

// MaxTitle bounds a candidate's title, in bytes.
const MaxTitle = 90

// Title makes a statement an item's title: one line, at most maxTitle
// bytes cut at a clause or word boundary, no final period, no ellipsis.
func Title(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimRight(strings.TrimSpace(strings.TrimSuffix(s, "…")), ". ")
	s = prose.CutAtBoundary(s, MaxTitle)
	return strings.TrimRight(strings.TrimSuffix(s, "…"), ".:;, ")
}

// normalize is a key for duplicates: lowercase letters and digits.
func normalize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }

// code wraps s in backticks for Markdown, using more of them when s has
// some.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
