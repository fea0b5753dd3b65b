// Package supersede finds values a newer statement says were replaced
// ("now 4100 instead of 3001", "no longer 8080", "was 128Mi") and drops
// the older sentences that still state them as current. No I/O.
package supersede

import (
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// replacedMark finds a value a statement says is no longer current:
// "now 4100 instead of 3001", "no longer 8080", "moved from 1.7.5",
// "was 128Mi".
var replacedMark = lazyre.New("(?i)\\b(?:instead of|no longer(?: on| at| uses?)?|moved (?:away )?from|replac\\w* |was|used to be|formerly|previously|from) [`\"']?([\\w.~^>=<:/#-]*\\d[\\w.~^>=<:/#-]*)")

// replacedValues returns the values (with a digit: ports, versions,
// sizes) that s says were replaced, with the keys of the sentence that
// says so.
func replacedValues(s string) (vals []string, ks map[string]bool) {
	for _, x := range digest.Sentences(s) {
		for _, m := range replacedMark.FindAllStringSubmatch(x, -1) {
			v := strings.TrimRight(m[1], ".,;:")
			if v != "" {
				vals = append(vals, v)
				if ks == nil {
					ks = make(map[string]bool)
				}
				for k := range change.Keys(x) {
					ks[k] = true
				}
			}
		}
	}
	return vals, ks
}

// Value is a value a newer statement says was replaced, with what that
// statement is about.
type Value struct {
	value string
	keys  map[string]bool
}

// By lists what the sessions say was replaced.
func By(sums []*digest.Summary) []Value {
	var out []Value
	for _, d := range sums {
		for p, bullets := range d.Parts {
			if p == digest.Commands || p == digest.Read || p == digest.Files {
				continue
			}
			for _, b := range bullets {
				vals, ks := replacedValues(b)
				for _, v := range vals {
					out = append(out, Value{v, ks})
				}
			}
		}
	}
	return out
}

// Drop returns s without the sentences that state as current a
// value one of rs says was replaced: the sentence holds the value as a
// word, says nothing of its own about it being replaced, and shares two
// other words with the statement that replaced it. Of a sentence of
// several clauses only those that hold the value go: "the dev server
// listens on 8085, and production runs as the linkshort-api unit" is
// still right about production once the dev port is 8181.
func Drop(s string, rs []Value) string {
	if len(rs) == 0 {
		return s
	}
	var kept []string
	for _, x := range digest.Sentences(s) {
		old := stated(x, rs)
		if len(old) == 0 {
			kept = append(kept, x)
			continue
		}
		if left := clausesLeft(x, old); left != "" {
			kept = append(kept, left)
		}
	}
	return strings.Join(kept, " ")
}

// stated returns the values of rs that sentence x states as current.
func stated(x string, rs []Value) []string {
	if own, _ := replacedValues(x); len(own) > 0 {
		return nil
	}
	var old []string
	ks := change.Keys(x)
	for _, r := range rs {
		if !lex.HasWord(x, r.value) {
			continue
		}
		n := 0
		for k := range ks {
			if r.keys[k] && !strings.ContainsAny(k, "0123456789") {
				n++
			}
		}
		if n >= 2 {
			old = append(old, r.value)
		}
	}
	return old
}

// clausesLeft returns sentence x without its clauses that hold one of
// the old values, as a sentence; "" when every clause holds one, or
// what is left only points back at one that went ("…, and nginx proxies
// to it") or says nothing alone, or no one clause holds the value.
func clausesLeft(x string, old []string) string {
	if strings.Contains(x, " — ") || strings.Contains(x, " – ") {
		// A dash sets off an aside or a heading as often as a clause:
		// "Poll intervals — my suggestion: …" and "anyone … — eduroam
		// visitors — gets 230" leave no clause that stands alone.
		return ""
	}
	holds := func(c string) bool { return slices.ContainsFunc(old, func(v string) bool { return lex.HasWord(c, v) }) }
	lead := digest.LeadIn(x)
	parts := digest.WithoutLead(prose.FullClauses(x), lead)
	if len(parts) < 2 {
		// "The nightly export runs as the export-cron job with its
		// output in /data/exports/v1": the job still runs so.
		if head, tail, ok := digest.WithTail(strings.TrimPrefix(x, lead+", ")); ok && holds(tail) && !holds(head) {
			return digest.JoinClauses(lead, []string{head}, "")
		}
		return ""
	}
	var still []string
	for _, c := range parts {
		switch {
		case holds(c) || digest.PointsBack(c):
			// "…, and nginx proxies to it": it went with the value.
		case !standsAlone(c):
			return "" // says nothing alone: the sentence goes whole
		default:
			still = append(still, c)
		}
	}
	if len(still) == 0 || len(still) == len(parts) {
		return ""
	}
	return digest.JoinClauses(lead, still, "; ")
}

// standsAlone reports whether clause c states something alone: three
// words or more with a verb of its own before any relative word. "the
// part of the job where the big disks are read" names a time, and says
// nothing without the clause before it.
func standsAlone(c string) bool {
	head := c
	if loc := relativeWord.FindStringIndex(c); loc != nil {
		head = c[:loc[0]]
	}
	return len(strings.Fields(c)) >= 3 && prose.IsFullClause(head)
}

// relativeWord opens a relative clause.
var relativeWord = lazyre.New(`(?i)\s(?:where|which|who|whom|whose|that|when)\s`)
