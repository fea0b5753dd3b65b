package retire

import (
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/change"
)

// distinctShare is the largest share of the statements a key may appear
// in and still say what a statement is about; in a small memory, a few
// (a fact, its core item, the outcome that did it) always may.
const distinctShare = 0.1

func (r *Retirer) limit() int { return limitOf(r.distinct) }

func limitOf(distinct int) int { return max(4, int(distinctShare*float64(distinct))) }

// asideLimit is the most statements a key of the looser tests (near,
// aside and the like) may appear in: asideShare of them, or four.
func (r *Retirer) asideLimit() int { return asideLimitOf(r.distinct) }

func asideLimitOf(distinct int) int { return max(4, int(asideShare*float64(distinct))) }

// sameTopic reports whether statements a and b are about the same thing:
// they share at least two distinctive keys, words or code tokens that
// few of this memory's statements hold.
func (r *Retirer) sameTopic(a, b map[string]bool) bool {
	return r.shared(a, b, r.limit(), nil) >= 2
}

// topicKeysOf returns the keys of a that sameTopic counts, never nil:
// sameTopic(a, b) is sameTopicOf(r.topicKeysOf(a), b).
func (r *Retirer) topicKeysOf(a map[string]bool) []string {
	out := []string{}
	limit := r.limit()
	for k := range a {
		if r.df[k] <= limit && len(k) > 2 {
			out = append(out, k)
		}
	}
	return out
}

// sameTopicOf reports whether b holds two or more of keys.
func sameTopicOf(keys []string, b map[string]bool) bool {
	n := 0
	for _, k := range keys {
		if b[k] {
			if n++; n >= 2 {
				return true
			}
		}
	}
	return false
}

// near reports whether statements a and b share two keys that a fifth
// of the statements hold at most: a looser topic test, for a change that
// names the very value a statement gives.
func (r *Retirer) near(a, b map[string]bool) bool {
	return r.shared(a, b, r.asideLimit(), nil) >= 2
}

// shared counts the keys of more than two characters that a and b both
// hold, that at most limit statements hold, and that also, when it is
// given, pass keep.
func (r *Retirer) shared(a, b map[string]bool, limit int, keep func(k string) bool) int {
	n := 0
	for k := range a {
		if b[k] && r.df[k] <= limit && len(k) > 2 && (keep == nil || keep(k)) {
			n++
		}
	}
	return n
}

// asideShare is the largest share of the statements a word two
// statements share besides a change's values may appear in: the topic is
// settled by distinctive keys already, so a commoner word ("filters", in
// a dashboard's memory) says the change is about this use of the values.
const asideShare = 0.2

// aside reports whether statements a and b share a distinctive key
// besides the values change c names: "the Zustand store holds the
// filters" and "filters now live in the URL instead of the Zustand store"
// share "filters"; "Argo CD rolls it out" and "add-ons go in Terraform
// rather than Argo CD" share only what was turned down.
func (r *Retirer) aside(a, b map[string]bool, c *change.Change) bool {
	limit := r.asideLimit()
	for k := range a {
		if !b[k] || r.df[k] > limit || len(k) <= 2 {
			continue
		}
		named := false
		for _, v := range slices.Concat(c.Old, c.New) {
			named = named || v[k]
		}
		if !named {
			return true
		}
	}
	return false
}

// notFlag keeps the keys that are no level flag: what two statements
// giving -Oz and -O3 share must be the tool.
func notFlag(k string) bool { return !strings.HasPrefix(k, "-") && len(change.Flags(" -"+k)) == 0 }

// sharesBesides reports whether keys a and b share a word besides unit
// (a unitKey) that few statements hold: "keeps 7 daily" and "keeps 14
// dailies" are one setting, "7 days of logs" and "14 days of
// snapshots" two. A count said to be so now is a change, and a word a
// fifth of the statements hold says enough.
func (r *Retirer) sharesBesides(a, b map[string]bool, unit string, now bool) bool {
	limit := r.limit()
	if now {
		limit = r.asideLimit() // "judgements/v2.csv has 312 queries now": the count is a change
	}
	return r.shared(a, b, limit, func(k string) bool {
		return !change.IsNumber(k) && strings.TrimRight(k, "eiy") != unit && len(change.CodeTokens(k)) == 0
	}) > 0
}
