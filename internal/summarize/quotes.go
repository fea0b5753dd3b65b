package summarize

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/prose"
)

// minQuotedWords is the fewest words a sentence of a quote needs to be
// taken back on its own, wherever it is said.
const minQuotedWords = 4

// minBeginWords is the fewest words a statement needs to be taken back
// as the beginning of a quote: a core item's title cut from the bullet
// the quote names ("The test slept a fixed 10ms and raced with the
// worker goroutine" of "…; it now waits on `q.Done()`"), or the pack's
// shortening of it.
const minBeginWords = 5

// Quotes are statements quoted as no longer true (Result.Untrue, a
// summary's "**No longer true**"), each with a number the caller gives
// (the index of the newest summary that quotes it). The zero value is
// empty and ready.
type Quotes struct {
	at   map[string]int // by QuoteKey, with each sentence of a quote of several
	keys []string       // the quotes' own keys, for At's beginnings
}

// Add adds a quote said at k; a smaller k wins (newer). For a quote of
// several sentences, each of a few words or more is one too ("Done." or
// "Staging too." says nothing alone).
func (q *Quotes) Add(quote string, k int) {
	if q.at == nil {
		q.at = make(map[string]int)
	}
	set := func(key string) {
		if at, ok := q.at[key]; !ok || k < at {
			q.at[key] = k
		}
	}
	key := QuoteKey(quote)
	if key == "" {
		return
	}
	if _, ok := q.at[key]; !ok {
		q.keys = append(q.keys, key)
	}
	set(key)
	if xs := prose.Line(quote); len(xs) > 1 {
		for _, x := range xs {
			if len(strings.Fields(x)) >= minQuotedWords {
				set(QuoteKey(x))
			}
		}
	}
}

// At reports whether s is quoted, and the k of the newest quote naming
// it: said as quoted (a trailing "…" aside), as one sentence of a quote,
// or, with five words or more, as the beginning of one up to a word's
// end.
func (q Quotes) At(s string) (int, bool) {
	if q.at == nil {
		return 0, false
	}
	key := QuoteKey(strings.TrimSuffix(strings.TrimSpace(s), "…"))
	if k, ok := q.at[key]; ok {
		return k, true
	}
	if len(strings.Fields(key)) < minBeginWords {
		return 0, false
	}
	at, found := 0, false
	for _, qk := range q.keys {
		if len(qk) > len(key) && strings.HasPrefix(qk, key) && !wordByte(qk[len(key)]) {
			if k := q.at[qk]; !found || k < at {
				at, found = k, true
			}
		}
	}
	return at, found
}

// Empty reports whether nothing is quoted.
func (q Quotes) Empty() bool { return len(q.at) == 0 }

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}
