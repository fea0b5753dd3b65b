package change

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
)

// worksNow is a thing said to work now, at the head of a sentence or
// clause: "Pagination works: shopfront follows the next link", "the
// login throttle is fixed".
var worksNow = lazyre.New(`(?i)(?:^|[.:;!]\s+)(?:the\s+|our\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:works|work now|is fixed|are fixed|is working|are working)\b`)

// problem is a statement of something that does not work: "the spider
// never follows pagination", "the export fails on …".
var problem = lazyre.New(`(?i)\b(?:never|doesn't|does not|don't|can't|cannot|isn't|is not|won't|fails?|failing|broken|breaks)\b`)

// Works are the keys of the things s says work now, each a set.
func Works(s string) []map[string]bool {
	if !containsAny(strings.ToLower(s), "work", "fixed") {
		return nil
	}
	var out []map[string]bool
	for _, m := range worksNow.FindAllStringSubmatch(s, -1) {
		ks := map[string]bool{}
		for w := range lex.ContentWords(m[1]) {
			if k := lex.Key(w); len(k) > 2 {
				ks[k] = true
			}
		}
		if len(ks) > 0 {
			out = append(out, ks)
		}
	}
	return out
}

// Problem reports whether s states something that does not work.
func Problem(s string) bool { return problem.MatchString(s) }

// WorksFor reports whether one of the things works names (Works) is
// what a problem of keys xk is about: every key of it is xk's.
func WorksFor(xk map[string]bool, works []map[string]bool) bool {
	for _, ks := range works {
		if hasAll(xk, ks) {
			return true
		}
	}
	return false
}
