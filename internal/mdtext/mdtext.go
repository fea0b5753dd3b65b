package mdtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Cut shortens s to at most n runes, at a space in its second half when
// there is one, and marks the cut with an ellipsis.
func Cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	cut := n - 1
	for i := cut; i > n/2; i-- {
		if r[i] == ' ' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(r[:cut]), " ,;:") + "…"
}

// Code puts text in backticks, with as many as it needs.
func Code(s string) string {
	if s == "" {
		return "``"
	}
	ticks := "`"
	for strings.Contains(s, ticks) {
		ticks += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return ticks + " " + s + " " + ticks
	}
	return ticks + s + ticks
}

// OneLine folds runs of white space, newlines included, into one space.
func OneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Prefixed returns pre+s(+post), or "" when s is empty.
func Prefixed(pre, s string, post ...string) string {
	if s == "" {
		return ""
	}
	return pre + s + strings.Join(post, "")
}

// Plural says n nouns: "1 file", "2 files".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return fmt.Sprintf("%d %sies", n, noun[:len(noun)-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Truncate shortens s to n runes, marking the cut.
func Truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
