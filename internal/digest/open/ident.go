package open

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
)

// A thing named by a number is named so again when a later session
// deals with it, and seldom by any other of the to-do's words: "slave 5
// (the joint_6 drive) gets occasional WKC mismatches and we don't know
// why yet" is answered by "the frame loss on slave 5 came from the
// unshielded cable", "I'll check the 04-15/16 thing tomorrow" by "that's
// the root cause of the 04-15/04-16 pair". Numbers are no keys, so
// Refers never sees them.

// numbered matches a thing named by a number: a word and its number
// ("slave 5", "osd.7", "firmware 66.86"), in group 1 and 2.
var numbered = lazyre.New(`(?i)\b([a-z]{2,})(?:[ .#]|\s+#)(\d+(?:\.\d+)*)\b(\s*[%a-z]+)?`)

// coded matches a name with digits inside ("PM9A3", "T46U", "pve2") or a
// date or version with dashes or two dots ("04-15", "1.2.0").
var coded = lazyre.New(`(?i)\b(?:[a-z]+\d+[a-z0-9]*|\d+(?:-\d+)+|\d+\.\d+\.\d+)\b`)

// notName are words before a number that give a quantity, a time or a
// place in a list, not a thing: "every 10", "under 500", "top 3", "about
// 40".
var notName = lazyre.New(`(?i)^(?:every|takes?|took|around|roughly|approx|approximately|about|under|over|below|above|within|last|first|next|top|than|till|since|from|into|onto|upto|plus|minus|times|by|x|p|step|line|lines|page|part|day|days|week|weeks|hour|hours|minute|minutes|second|seconds|month|months|year|years|row|rows|run|runs|item|items|of|and|or|is|are|was|were|at|to|in|on|for|with)$`)

// unit is a word after a number that makes it a quantity: "retry 3
// times", "takes 671 ms".
var unit = lazyre.New(`(?i)^(?:%|x|times|ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?|days?|weeks?|months?|years?|[kmgt]i?b|bytes?|[kmg]?hz|fps|px|pt|mm|cm|m|km|kg|g|percent|rows?|requests?|runs?|items?|lines?|files?|users?|workers?|threads?|connections?|per)$`)

// idents are the things s names by a number, lower case, a word and its
// number joined by one space.
func idents(s string) map[string]bool {
	var out map[string]bool
	add := func(id string) {
		if out == nil {
			out = make(map[string]bool)
		}
		out[strings.ToLower(id)] = true
	}
	for _, m := range numbered.FindAllStringSubmatch(s, -1) {
		if !lex.StopWords[strings.ToLower(m[1])] && !notName.MatchString(m[1]) && !unit.MatchString(strings.TrimSpace(m[3])) {
			add(m[1] + " " + m[2])
		}
	}
	for _, m := range coded.FindAllString(s, -1) {
		if len(m) >= 4 {
			add(m)
		}
	}
	return out
}

// endedSaid is a clause that says what it names is done, gone, or its
// cause found: "osd.7 is done", "with the shielded one it's gone",
// "the frame loss on slave 5 came from the unshielded cable", "that's
// the root cause of the 04-15/04-16 pair".
var endedSaid = lazyre.New(`(?i)\b(?:is|are|'s|was|were)\s+(?:now\s+|all\s+|finally\s+)?(?:done|fixed|resolved|sorted|gone|closed|replaced|tagged|released|published|shipped|merged)\b|\b(?:came|comes) from\b|\bcaused by\b|\broot cause\b|\bturned out\b|\bno longer\b|\b(?:fixed|resolved|replaced|swapped out)\b`)

// putOff is a clause that puts off, asks for or denies what it says
// ended: "once slave 5 is replaced", "if osd.7 is done".
var putOff = lazyre.New(`(?i)\b(?:once|when|until|if|unless|whether|before|after|not|never|nothing|no one|nobody)\b|n't\b`)

// identDone reports whether a newer session (of newer) says a thing
// todo names by a number is done, gone, or its cause found, in a clause
// that names it so too.
func (v *Vocab) identDone(todo string, newer []*digest.Summary) bool {
	ids := idents(todo)
	if len(ids) == 0 {
		return false
	}
	for _, later := range newer {
		for id := range v.endedIdents(later) {
			if ids[id] {
				return true
			}
		}
	}
	return false
}

// endedIdents are the things summary d names by a number in a clause
// that says they are done, gone or explained. Read once a summary.
func (v *Vocab) endedIdents(d *digest.Summary) map[string]bool {
	r := v.of(d)
	if r.ended != nil {
		return r.ended
	}
	r.ended = map[string]bool{}
	for p, bullets := range d.Parts {
		if p == digest.Commands || p == digest.Read || p == digest.Errors || p == digest.Files || p == digest.Open {
			continue
		}
		for _, b := range bullets {
			for _, x := range digest.Sentences(b) {
				if strings.HasSuffix(x, "?") {
					continue
				}
				for _, c := range identClauses(x) {
					if endedSaid.MatchString(c) && !putOff.MatchString(c) {
						for id := range idents(c) {
							r.ended[id] = true
						}
					}
				}
			}
		}
	}
	return r.ended
}

// identClauses splits a sentence at commas, semicolons, colons and
// dashes: a clause says one thing of what it names.
func identClauses(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ';' || r == ':' || r == '—' || r == '–'
	})
}

// siblingClosed reports whether another open item of sums[k] about the
// same thing as todo was said done by a newer session (saidDone): two
// items of one list about one thing go together, and the session that
// dealt with the thing names it by what one of them said. A mention
// of the other item is not enough: two shared words by chance ("blocked
// on the tunnel" for "blocked on the backordered PM9A3") would take
// this one with it. The same thing is one named
// by the same number ("osd.7 is out …; we're blocked on the backordered
// PM9A3" and "the replacement needs to be ordered: a Samsung PM9A3"), or
// two items each of which holds the other's rarest words ("getStatus
// only shows the step, not which compensations have already run" and
// "the compensation list in getStatus stays on the list for later").
func (v *Vocab) siblingClosed(todo string, sums []*digest.Summary, k int) bool {
	if k >= len(sums) || len(sums[k].Open) < 2 {
		return false
	}
	ids, d, keys := idents(todo), v.Distinct(todo), change.Keys(todo)
	for _, o := range sums[k].Open {
		if o == todo {
			continue
		}
		od := v.Distinct(o)
		shared := v.Refers(d, change.Keys(o)) && v.Refers(od, keys)
		for id := range idents(o) {
			shared = shared || ids[id]
		}
		if shared && v.saidDone(o, od, sums[:k]) {
			return true
		}
	}
	return false
}
