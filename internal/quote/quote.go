package quote

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

// Set holds statements quoted as no longer true (summarize.Result.Untrue,
// a summary's "**No longer true**"), each with a number the caller gives
// (the index of the newest summary that quotes it). The zero value is
// empty and ready.
type Set struct {
	at map[string]int // by Key, with each sentence of a quote of several
	// byHead lists the quotes' own keys by their first five words, for
	// At's beginnings: a lookup reads those that may begin with it, not
	// all (BenchmarkQuotesAt: a scan of 10,000 quotes cost 31 µs a
	// lookup; with the index 0.86 µs at 100 or 10,000, making the key).
	byHead map[string][]string
}

// head is key's first minBeginWords words, "" if it has fewer.
func head(key string) string {
	n := 0
	for i := 0; i < len(key); i++ {
		if key[i] == ' ' {
			if n++; n == minBeginWords {
				return key[:i]
			}
		}
	}
	if n == minBeginWords-1 && key != "" {
		return key
	}
	return ""
}

// Add adds a quote said at k; a smaller k wins (newer). For a quote of
// several sentences, each of a few words or more is one too ("Done." or
// "Staging too." says nothing alone).
func (q *Set) Add(quote string, k int) {
	if q.at == nil {
		q.at, q.byHead = make(map[string]int), make(map[string][]string)
	}
	set := func(key string) {
		if at, ok := q.at[key]; !ok || k < at {
			q.at[key] = k
		}
	}
	key := Key(quote)
	if key == "" {
		return
	}
	if _, ok := q.at[key]; !ok {
		if h := head(key); h != "" {
			q.byHead[h] = append(q.byHead[h], key)
		}
	}
	set(key)
	if xs := prose.Line(quote); len(xs) > 1 {
		for _, x := range xs {
			if len(strings.Fields(x)) >= minQuotedWords {
				set(Key(x))
			}
		}
	}
}

// At reports whether s is quoted, and the k of the newest quote naming
// it: said as quoted (a trailing "…" aside), as one sentence of a quote,
// or, with five words or more, as the beginning of one up to a word's
// end.
func (q Set) At(s string) (int, bool) {
	if q.at == nil {
		return 0, false
	}
	key := Key(strings.TrimSuffix(strings.TrimSpace(s), "…"))
	if k, ok := q.at[key]; ok {
		return k, true
	}
	h := head(key)
	if h == "" {
		return 0, false
	}
	at, found := 0, false
	for _, qk := range q.byHead[h] {
		if len(qk) > len(key) && strings.HasPrefix(qk, key) && !wordByte(qk[len(key)]) {
			if k := q.at[qk]; !found || k < at {
				at, found = k, true
			}
		}
	}
	return at, found
}

// Empty reports whether nothing is quoted.
func (q Set) Empty() bool { return len(q.at) == 0 }

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}

// Key is what a statement offered to a model (summarize.Request.Earlier)
// and a quote of it share: their words, whatever their case, spacing and
// closing stop.
func Key(s string) string {
	return strings.ToLower(strings.TrimRight(strings.Join(strings.Fields(s), " "), ".;:!"))
}
