package lex

import (
	"strings"
	"unicode"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// ContentWords are the distinct words of s worth comparing, lower-cased,
// without stop words and crudely stemmed: enough to tell whether two
// statements are about the same thing.
func ContentWords(s string) map[string]bool {
	out := make(map[string]bool)
	for _, w := range words(s) {
		if len(w) < 2 || StopWords[w] {
			continue
		}
		out[Stem(w)] = true
	}
	return out
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	})
}

// Compounds returns the stems of the nouns that the phrasal verbs of s
// compound into: "the rig blacked out" tells of a blackout, "we rolled
// back" of a rollback. What an open item names and what a later session
// says of it may be told either way ("Found the blackouts").
func Compounds(s string) []string {
	var out []string
	prev := ""
	for _, w := range words(s) {
		if c, ok := phrasal[prev+" "+w]; ok {
			out = append(out, c)
		}
		prev = Stem(w)
	}
	return out
}

// phrasal maps a phrasal verb, its verb stemmed ("black out", "roll
// back"), to the stem of the noun it compounds into ("blackout",
// "rollback"). Only compounds that name one thing either way; "check
// out" (a branch, or a shop's checkout) and "pick up" do not.
var phrasal = func() map[string]string {
	m := make(map[string]string)
	for _, c := range strings.Fields(`black/out brown/out back/up set/up log/in log/out sign/up sign/in roll/back roll/out
		shut/down lock/out time/out clean/up fail/over fall/back look/up start/up tear/down cut/over hand/off break/down`) {
		verb, particle, _ := strings.Cut(c, "/")
		forms := []string{verb, verb + "s", verb + "ed", verb + "d", verb + "ing", strings.TrimSuffix(verb, "e") + "ing", verb + verb[len(verb)-1:] + "ed", verb + verb[len(verb)-1:] + "ing"}
		forms = append(forms, strings.Fields(irregular[verb])...)
		for _, f := range forms {
			m[Stem(f)+" "+particle] = Stem(verb + particle)
		}
	}
	return m
}()

// irregular are the past forms of the verbs of phrasal that are not
// made with -ed.
var irregular = map[string]string{"set": "set", "shut": "shut", "cut": "cut", "fall": "fell fallen", "tear": "tore torn", "break": "broke broken"}

// Stem strips common English endings, so that "retries", "retried" and
// "retry" compare equal often enough. It strips until none is left, so
// that a stem stems to itself: Keys, which stems ContentWords' stems,
// and Key of the word itself give one key ("settings" and "setting" are
// "set", "blindness" is "blindn" both ways).
func Stem(w string) string {
	for {
		s := stemOnce(w)
		if s == w {
			return w
		}
		w = s
	}
}

// stemOnce strips one ending.
func stemOnce(w string) string {
	for _, suf := range []string{"ies", "ied", "ing", "ed", "es", "ly", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			w = strings.TrimSuffix(w, suf)
			if suf == "ies" || suf == "ied" {
				w += "y"
			}
			if (suf == "ed" || suf == "ing") && undoubled(w) {
				w = w[:len(w)-1] // "capped" is "cap", "planning" "plan"
			}
			break
		}
	}
	return w
}

// undoubled reports whether w, a verb's stem once -ed or -ing is gone,
// ends in a consonant doubled before the ending ("capp", "stopp",
// "committ"), not one the verb has anyway ("install", "pass", "buzz").
func undoubled(w string) bool {
	n := len(w)
	return n >= 3 && w[n-1] == w[n-2] && strings.IndexByte("bdgmnprt", w[n-1]) >= 0 && strings.IndexByte("aeiou", w[n-3]) >= 0
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

// Key is a word's comparison key: stemmed and cut to seven letters, so
// that "debounce" and "debounces", "paginate" and "pagination" meet.
func Key(w string) string {
	w = Stem(strings.ToLower(w))
	if r := []rune(w); len(r) > 7 {
		w = string(r[:7])
	}
	return w
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

// HasBounded reports whether s holds w at a place bounded accepts, given
// the offsets of w's first byte and of the byte after it.
func HasBounded(s, w string, bounded func(j, end int) bool) bool {
	for i := 0; i <= len(s); {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		if bounded(j, j+len(w)) {
			return true
		}
		i = j + 1
	}
	return false
}

// HasWord reports whether s holds w with no letter or digit on either
// side.
func HasWord(s, w string) bool {
	return HasBounded(s, w, func(j, end int) bool {
		return (j == 0 || !IsWordByte(s[j-1])) && (end == len(s) || !IsWordByte(s[end]))
	})
}

// IsWordByte reports whether c is an ASCII letter, digit or "_".
func IsWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// WrittenAsName reports whether text writes word w as a name: in code,
// or with a capital inside a sentence ("Netlify for now", not "Netlify"
// opening a sentence).
func WrittenAsName(text, w string) bool {
	lower, lw := ASCIILower(text), ASCIILower(w) // byte offsets kept
	for j := 0; j < len(text); {
		k := strings.Index(lower[j:], lw)
		if k < 0 {
			return false
		}
		k += j
		before := strings.TrimRight(text[:k], " ")
		if strings.HasSuffix(text[:k], "`") || k > 0 && text[k] >= 'A' && text[k] <= 'Z' && before != "" && !strings.HasSuffix(before, ".") && !strings.HasSuffix(before, ":") {
			return true
		}
		j = k + len(lw)
	}
	return false
}

// ASCIILower lower-cases the ASCII letters of s only, so that an offset
// into it is one into s.
func ASCIILower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// CodeName reports whether s is a name in code that no word of prose
// is: two words or more joined in camel case or by "_" (RetryHandler,
// io_utils; not Startup).
func CodeName(s string) bool { return codeName.MatchString(s) }

var codeName = lazyre.New(`^(?:[A-Za-z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)$`)
