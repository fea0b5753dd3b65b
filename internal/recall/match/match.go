package match

import (
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"strings"
	"unicode"
)

// Words are the query's words that count.
func Words(query string) []string {
	var out []string
	seen := make(map[string]bool)
	for _, w := range words(query) {
		if len(w) < 2 || lex.StopWords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// words splits s into lower-case words.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// Score is the weighted share of the query words q that text holds.
func Score(q []string, text string) float64 {
	if len(q) == 0 {
		return 0
	}
	have := make(map[string]bool)
	for _, w := range words(text) {
		have[w] = true
	}
	var got, all float64
	for _, w := range q {
		weight := float64(min(len([]rune(w)), 8))
		all += weight
		if holds(have, w) {
			got += weight
		}
	}
	return got / all
}

// holds reports whether the words have w, a word of its stem, or one a
// letter or two away (a typo).
func holds(have map[string]bool, w string) bool {
	if have[w] {
		return true
	}
	for h := range have {
		if sameStem(w, h) || typo(w, h) {
			return true
		}
	}
	return false
}

// sameStem reports whether two words share a stem: the shorter is at
// least five letters and all but its last two (three from seven) start
// the longer ("migrating" and "migrations", "retries" and "retry"); a
// word of four letters starts the other ("test", "tests").
func sameStem(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	switch {
	case len(a) < 4:
		return false
	case len(a) == 4:
		return len(b)-len(a) <= 3 && strings.HasPrefix(b, a) // "test", "tests"
	}
	n := len(a) - 2
	if len(a) >= 7 {
		n = len(a) - 3
	}
	return len(b)-len(a) <= 5 && b[:n] == a[:n]
}

// typo reports whether two words of five letters or more are at most
// one edit apart (two for words of eight or more), a swap of neighbours
// counting as one.
func typo(a, b string) bool {
	la, lb := len(a), len(b)
	if la < 5 || lb < 5 || la-lb > 2 || lb-la > 2 {
		return false
	}
	limit := 1
	if min(la, lb) >= 8 {
		limit = 2
	}
	return osa(a, b, limit) <= limit
}

// osa is the optimal string alignment distance of a and b, stopping
// early past limit.
func osa(a, b string, limit int) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			low = min(low, cur[j])
		}
		if low > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
