package open

import (
	"slices"
	"strings"
	"unicode"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
)

// A later session that names an open item names it in one breath: "the
// redirect handler counts views now" for "nothing ever increments views
// … until the redirect handler starts counting them". Across a whole
// session the item's words turn up by chance: one about rate limiting
// POST /shorten says "it needs rate limiting", "the counters in Redis"
// and "there is no POST /shorten handler", three of the item's words in
// three sentences, none about views. And in a memory of two or three
// sessions every word is rare, so the weights of Refers cannot tell
// "handler" from "redirect". So a session that shares with the item
// only words any project uses ("rate", "handler", "test") mentions it in
// one sentence, where they stand together as they do in the item
// ("error messages"): words of a term, not two words met by chance. Two
// words of the item's own, or one the session was asked about, still
// name it anywhere in the session: held to one sentence, fifteen items
// of the 170 test projects that a later session dealt with in two
// ("Sessions and CSRF today." … "CSRF: http.CrossOriginProtection wraps
// the whole mux") stayed open. Two more say what a sentence's words alone
// do not: the item's number with one of its words ("The router runs
// 23.05.5 from today"), and work asked for on the item's thing
// (workedOn).

// sentence is what a later session says in one sentence, or one item it
// leaves open: its keys as Vocab.mentions reads them, and its content
// words' keys in order, for the words that stand together.
type sentence struct {
	keys map[string]bool
	seq  []string
}

// mentioned reports whether later names the item todo, of distinctive
// keys d (rarest first), in one of its sentences, by words or by its
// number (sharesNumber), or was asked for the item's thing and worked on
// it (workedOn).
func (v *Vocab) mentioned(todo string, d []string, later *digest.Summary) bool {
	if said := v.mentions(later); v.Refers(d, said) { // else in no sentence either
		if n := specific(d, said); n >= 2 || n == 1 && specific(d, v.asked(later)) == 1 {
			// Two words of the item's own, or one the session was
			// asked about or says it came to ("Sessions and CSRF
			// today."), speak of its thing wherever they are said: a
			// closure is often a request that names the thing and a
			// report of what was done, in two sentences.
			return true
		}
		item := keySeq(todo)
		nums := numberPairs(item)
		for _, s := range v.of(later).sents {
			if v.Refers(d, s.keys) && (!allGeneric(d, s.keys) || adjacent(item, s.seq, s.keys)) {
				return true
			}
			if len(nums) > 0 && sharesNumber(d, nums, s) {
				return true
			}
		}
	}
	return v.workedOn(d, later)
}

// numberPairs are the numbers next to each other in the keys seq: the
// first parts of a version or an address ("23 05" of 23.05.3).
func numberPairs(seq []string) [][2]string {
	var out [][2]string
	for i := 1; i < len(seq); i++ {
		if isNumber(seq[i-1]) && isNumber(seq[i]) {
			out = append(out, [2]string{seq[i-1], seq[i]})
		}
	}
	return out
}

// sharesNumber reports whether sentence s names the item's thing by one
// of its words (of d) and by the number the item gives it, or its first
// parts (nums, numberPairs): "The router runs 23.05.5 from today" for
// "The router is still on 23.05.3". A number is no key of d (too short,
// or no word), so the sentence shares one word of d alone.
func sharesNumber(d []string, nums [][2]string, s sentence) bool {
	named := false
	for _, k := range d {
		if s.keys[k] && !genericWords[k] {
			named = true
			break
		}
	}
	if !named {
		return false
	}
	for _, p := range numberPairs(s.seq) {
		if slices.Contains(nums, p) {
			return true
		}
	}
	return false
}

// isNumber reports whether key k is all digits.
func isNumber(k string) bool {
	return k != "" && strings.Trim(k, "0123456789") == ""
}

// workedOn reports whether later was asked for the thing the item of
// distinctive keys d names, changed a file named after it, and says
// another of d's words: "Now the audio" and worker/audio.py for
// "loudness normalisation in the audio path", where what it did says
// "normalisation" in a sentence of its own. A word any project uses
// ("rate" of "it needs rate limiting") is no thing of the item's. What
// the session did weighs here, not how rare the words are: once most
// sessions say "audio", Refers no longer takes it for a word of the
// item's.
func (v *Vocab) workedOn(d []string, later *digest.Summary) bool {
	if len(later.Parts[digest.Files]) == 0 {
		return false
	}
	said, n := v.mentions(later), 0
	for _, k := range d {
		if said[k] {
			n++
		}
	}
	if n < min(2, len(d)) {
		return false
	}
	asked := make(map[string]bool)
	for _, b := range later.Parts[digest.Request] {
		for k := range named(b) {
			asked[k] = true
		}
	}
	files := make(map[string]bool)
	for _, b := range later.Parts[digest.Files] {
		for k := range named(digest.ChangedFile(b)) {
			files[k] = true
		}
	}
	for _, k := range d {
		if !genericWords[k] && asked[k] && files[k] {
			return true
		}
	}
	return false
}

// allGeneric reports whether the keys of d that keys holds are all
// generic words while d has others: a to-do made of generic words only
// ("fix the flaky tests") is named by them.
func allGeneric(d []string, keys map[string]bool) bool {
	specific := false
	for _, k := range d {
		if !genericWords[k] {
			specific = true
			if keys[k] {
				return false
			}
		}
	}
	return specific
}

// specific counts the keys of d in keys that are no word any project
// uses.
func specific(d []string, keys map[string]bool) int {
	n := 0
	for _, k := range d {
		if keys[k] && !genericWords[k] {
			n++
		}
	}
	return n
}

// adjacent reports whether two keys of the item stand next to each
// other, in the same order, in both the item (item, its content keys in
// order) and the sentence (seq), and the sentence holds both (keys): a
// term, so neither is a verb of routine work ("both tests pass now" and
// "make test passes" share no term).
func adjacent(item, seq []string, keys map[string]bool) bool {
	pairs := make(map[[2]string]bool)
	for i := 1; i < len(seq); i++ {
		pairs[[2]string{seq[i-1], seq[i]}] = true
	}
	for i := 1; i < len(item); i++ {
		a, b := item[i-1], item[i]
		if a != b && !routineVerbs[a] && !routineVerbs[b] && keys[a] && keys[b] && pairs[[2]string{a, b}] {
			return true
		}
	}
	return false
}

// keySeq returns the keys of s's content words in the order s says
// them, as lex.ContentWords and lex.Key make them.
func keySeq(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		if len(w) < 2 || lex.StopWords[w] {
			continue
		}
		out = append(out, lex.Key(w))
	}
	return out
}

// genericWords are words any software project's sessions use, for roles
// and routine work rather than a thing of their own: two of them in a
// later session say nothing of which item it dealt with. Made by
// change.KeySet, as Distinct's keys are.
var genericWords = change.KeySet(`test tests pass passes fail fails failure fix fixes bug bugs error errors issue issues problem problems
	file files code function functions method methods class classes module modules handler handlers helper helpers
	run runs build builds check checks call calls value values rate rates count counts counter counters number numbers
	line lines field fields row rows data type types name names
	request requests response responses result results output input message messages event events
	time times size state status version versions update updates change changes work works
	start starts stop stops return returns show shows every ever old last
	part parts case cases point points end kind kinds way ways`)

// routineVerbs are the generic words that say what happened to a thing,
// not what it is: next to a generic noun they make a clause ("tests
// pass"), not a term ("error messages").
var routineVerbs = change.KeySet(`pass passes fail fails fix fixes run runs start starts stop stops show shows work works return returns`)
