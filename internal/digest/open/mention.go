package open

import (
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
// "handler" from "redirect". So a mention is one sentence that refers
// to the item, and when all the words it shares with the item are words
// any project uses ("rate", "handler", "test"), they stand together
// there as they do in the item ("rate limiting", "redirect handler"):
// words of a term, not two words met by chance.

// sentence is what a later session says in one sentence, or one item it
// leaves open: its keys as Vocab.mentions reads them, and its content
// words' keys in order, for the words that stand together.
type sentence struct {
	keys map[string]bool
	seq  []string
}

// mentioned reports whether later names the item todo, of distinctive
// keys d (rarest first), in one of its sentences.
func (v *Vocab) mentioned(todo string, d []string, later *digest.Summary) bool {
	if !v.Refers(d, v.mentions(later)) {
		return false // not in all it says, not in a sentence either
	}
	var item []string // the item's keys in order, read when needed
	for _, s := range v.of(later).sents {
		if !v.Refers(d, s.keys) {
			continue
		}
		if !allGeneric(d, s.keys) {
			return true
		}
		if item == nil {
			item = keySeq(todo)
		}
		if adjacent(item, s.seq, s.keys) {
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

// adjacent reports whether two keys of the item stand next to each
// other, in the same order, in both the item (item, its content keys in
// order) and the sentence (seq), and the sentence holds both (keys).
func adjacent(item, seq []string, keys map[string]bool) bool {
	pairs := make(map[[2]string]bool)
	for i := 1; i < len(seq); i++ {
		pairs[[2]string{seq[i-1], seq[i]}] = true
	}
	for i := 1; i < len(item); i++ {
		a, b := item[i-1], item[i]
		if a != b && keys[a] && keys[b] && pairs[[2]string{a, b}] {
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
