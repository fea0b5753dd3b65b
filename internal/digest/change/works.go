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

// passesNow is a test said to pass run after run: "t/minion.t passes
// 200 runs in a row", "the flaky spec passes 50 runs in a row now".
var passesNow = lazyre.New(`(?i)(?:^|[.:;!]\s+|,\s+and\s+)(?:the\s+|our\s+)?([\w./-]*[a-z][\w./-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:now\s+)?(?:pass(?:es)?|(?:is|are) green)\s+(?:\d+|all|every)\b[^.;]{0,20}\b(?:runs?|times|in a row)\b(?:\s+(?:on|in|under|with|for)\s+([A-Za-z][\w.+-]*))?`)

var pronoun = map[string]bool{"it": true, "this": true, "that": true, "they": true}

// testFile is a test named by its file: t/minion.t, e2e/alerting.spec.ts.
var testFile = lazyre.New(`\b[\w-]+(?:/[\w.-]+)*\.(?:t|spec\.[jt]sx?|test\.[jt]sx?|go|py|rb|pl)\b`)

// problem is a statement of something that does not work: "the spider
// never follows pagination", "the export fails on …".
var problem = lazyre.New(`(?i)\b(?:never|doesn't|does not|don't|can't|cannot|isn't|is not|won't|fails?|failing|broken|breaks)\b`)

// Works are the keys of the things s says work now, each a set.
func Works(s string) []map[string]bool {
	if !containsAny(strings.ToLower(s), "work", "fixed", "pass", "green") {
		return nil
	}
	var out []map[string]bool
	for _, m := range append(worksNow.FindAllStringSubmatch(s, -1), passesNow.FindAllStringSubmatch(s, -1)...) {
		ks := map[string]bool{}
		subj := m[1]
		if pronoun[strings.ToLower(subj)] {
			subj = testFile.FindString(s) // "t/minion.t used to …; it passes 200 runs in a row"
		}
		if len(m) > 2 && m[2] != "" {
			subj += " " + m[2] // "passes 10 runs in a row on Chrome" is Chrome's
		}
		for w := range lex.ContentWords(subj) {
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
func Problem(s string) bool {
	return problem.MatchString(s) || flaky.MatchString(s) && !causal.MatchString(s)
}

// flaky is a test that fails now and then: "t/minion.t failed once in
// the runs before these (about one run in ten)". Said with its cause
// ("was flaky because it slept 2 s") it is a root cause, which a test
// passing later does not take back.
var flaky = lazyre.New(`(?i)\b(?:flaky|flaked|flakes|intermittent(?:ly)?|failed once|fails? (?:now and then|sometimes|occasionally|about one|one run))\b`)

var causal = lazyre.New(`(?i)\b(?:because|since|due to|caused by)\b`)

// WorksFor reports whether one of the things works names (Works) is
// what a problem of keys xk is about: every key of it is xk's.
func WorksFor(xk map[string]bool, works []map[string]bool) bool {
	for _, ks := range works {
		if HasAll(xk, ks) {
			return true
		}
	}
	return false
}
