package match

import (
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest"
)

// Unsaid is b without the sentences a bullet shown already holds: a
// root cause that joins two outcome bullets keeps only what it adds.
func Unsaid(b string, shown []map[string]bool) string {
	if len(shown) == 0 {
		return b
	}
	ss := digest.Sentences(b)
	if len(ss) < 2 {
		return b
	}
	return without(b, ss, func(x string) bool { return Covered(x, shown) })
}

// Unrepeated is request b without the sentences a bullet shown already
// holds word for word (a preference the user stated in it, shown under
// its own label), "" when it has none left. A request keeps what it
// shares only in part: what the user decided and why often sit in two of
// its sentences, and a bullet that holds one of them loses the other.
func Unrepeated(b string, shown []map[string]bool) string {
	if len(shown) == 0 {
		return b
	}
	return without(b, digest.Sentences(b), func(x string) bool { return repeated(x, shown) })
}

// without is b, whose sentences are ss, less those said; b itself when
// none is.
func without(b string, ss []string, said func(string) bool) string {
	keep := ss[:0:0]
	for _, x := range ss {
		if !said(x) {
			keep = append(keep, x)
		}
	}
	if len(keep) == len(ss) {
		return b
	}
	return strings.Join(keep, " ")
}

// repeated reports whether one of the word sets of shown holds every
// word and number of s, of three or more.
func repeated(s string, shown []map[string]bool) bool { return heldAt(s, shown, 1, 3) }

// Covered reports whether one of the word sets of shown holds s: most
// of its words and every one of its numbers, so that "every 4 hours" is
// not taken for "every 6 hours".
func Covered(s string, shown []map[string]bool) bool { return heldAt(s, shown, 0.8, 2) }

// heldAt reports whether one of the word sets of shown holds at least
// share of the words of s (minWords of them or more) and every one of its
// numbers.
func heldAt(s string, shown []map[string]bool, share float64, minWords int) bool {
	w := CoverWords(s)
	if len(w) < minWords {
		return false
	}
	for _, o := range shown {
		if lex.Overlap(w, o) < share {
			continue
		}
		all := true
		for x := range w {
			if !o[x] && strings.ContainsAny(x, "0123456789") {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// CoverWords are the content words of s and its numbers, one digit
// long included.
func CoverWords(s string) map[string]bool {
	w := lex.ContentWords(s)
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r < '0' || r > '9' }) {
		w[f] = true
	}
	return w
}
