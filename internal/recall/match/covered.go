package match

import (
	"slices"
	"strings"
	"unicode"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
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

// Answered reports whether the bullets shown, whose words are shown and
// whose text is told, say all that an ended session's request b asked,
// between them ("go from 36 to 24 months" once its outcome says "the
// training window is 24 months now"): each of its sentences of three
// words or more, by most of its words and every one of its numbers, and
// at least one such; and every name it gives, whole ("shop-prod-1" is not
// said by "shop", "prod" and "1" scattered over three bullets, nor "Ann"
// by "planned"), a sentence's first word among them when it is
// capitalised and no stop word. A request
// they say only in part is kept whole: the reason for a decision often
// sits in the sentence next to it.
func Answered(b string, shown []map[string]bool, told string) bool {
	if len(shown) == 0 {
		return false
	}
	all := map[string]bool{}
	for _, o := range shown {
		for w := range o {
			all[w] = true
		}
	}
	lower := strings.ToLower(told)
	held := 0
	for _, x := range digest.Sentences(b) {
		if digest.IsChitChat(interjection.ReplaceAllString(x, "")) {
			continue // "Thanks.", "Ugh, good catch." ask nothing
		}
		for i, f := range strings.Fields(x) {
			n := strings.Trim(f, nameTrim)
			switch {
			case named(n, i) && !lex.HasWord(told, n):
				return false
			case i == 0 && len(n) > 1 && unicode.IsUpper([]rune(n)[0]) && !lex.StopWords[strings.ToLower(n)] && !lex.HasWord(lower, strings.ToLower(n)):
				// A sentence's first word may be a name ("Ann wants the
				// report"): said whole by the bullets, or no answer.
				return false
			}
		}
		if len(CoverWords(x)) < 3 {
			continue
		}
		if !heldAt(x, []map[string]bool{all}, 0.8, 3) {
			return false
		}
		held++
	}
	return held > 0
}

// Restated reports whether one of the bullets shown, whose texts are
// told and whose words are shown, says again what bullet b says in other
// words: every name b gives, of two or more (its numbers, paths, names in
// code, proper nouns), and half of its words. "Billing decided about 24
// and 31 December: off-peak from 12:00." says nothing once "24 and 31
// December are off-peak from 12:00 (`offpeak_from` in holidays.csv)" is
// shown; a bullet that shares its words and not its numbers tells another
// value.
func Restated(b string, told []string, shown []map[string]bool) bool {
	b = bulletLead.ReplaceAllString(b, "")
	var names []string
	for i, f := range strings.Fields(b) {
		if n := strings.Trim(f, nameTrim); named(n, i) {
			names = append(names, n)
		}
	}
	if len(names) < 2 {
		return false
	}
	w := CoverWords(b)
	marks := markers.FindAllString(strings.ToLower(b), -1)
	for j, t := range told {
		if lex.Overlap(w, shown[j]) < 0.5 {
			continue
		}
		if lt := strings.ToLower(t); slices.ContainsFunc(marks, func(m string) bool { return !strings.Contains(lt, m) }) {
			continue // "Never restart it before 17:00", "…, so folds stay balanced": what the other does not say
		}
		if !slices.ContainsFunc(names, func(n string) bool { return !lex.HasWord(t, n) }) {
			return true
		}
	}
	return false
}

// interjection opens a sentence with a sigh or a nod: "Ugh, good catch."
// asks no more than "Good catch."
var interjection = lazyre.New(`(?i)^(?:ugh+|argh+|hmm+|oops|wow|whoa|ah|oh)\b[,.!]*\s*`)

// bulletLead is the start of a pack's bullet: "- Decision: ",
// "- Request (done): ".
var bulletLead = lazyre.New(`^- (?:[A-Z][a-z]+(?: [a-z]+)?(?: \(done\))?: )?`)

// markers are the words that turn what a bullet names into a rule, a
// negation or a reason: the names alone do not say them.
var markers = lazyre.New(`\b(?:never|not|no|don't|doesn't|didn't|isn't|aren't|won't|can't|cannot|without|always|only|must|because|since|so)\b|n't\b`)

// nameTrim is what surrounds a name in prose.
const nameTrim = ".,;:!?()[]\"'`*"

// named reports whether w, the i-th word of its sentence, names
// something: a path, a host, a version, a name in code, a proper noun.
func named(w string, i int) bool {
	switch {
	case len(w) < 2:
		return false
	case strings.ContainsAny(w, "0123456789/_-.:") || lex.CodeName(w):
		return true
	}
	return i > 0 && unicode.IsUpper([]rune(w)[0])
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
