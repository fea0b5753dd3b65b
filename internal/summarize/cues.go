package summarize

import (
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
	"github.com/cairn-mem/cairn/internal/summarize/rule"
)

// Importance of the candidates, 0..1: what each kind starts at, and what
// adds to it. Decisions matter most when they give a reason; preferences
// when they are stated as standing rules; facts when they hold a value.
const (
	impDecision     = 0.6  // a decision
	impDecisionWhy  = 0.15 // ... with a reason
	impDecisionUser = 0.1  // ... stated by the user
	impDecisionVs   = 0.05 // ... naming what it was chosen over
	impPrefRule     = 0.85 // always, never, from now on
	impPrefStated   = 0.7  // prefer, avoid, please use
	impPrefOneOff   = 0.3  // less for "for now", "this time", "yet"
	impRootCause    = 0.6  // a root cause found
	impFact         = 0.5  // an environment fact
	impFactValue    = 0.05 // ... with a URL, host, port, version, variable or command
	impFactUser     = 0.1  // ... stated by the user
	maxPerKind      = 8
)

func clamp(x, lo, hi float64) float64 { return max(lo, min(hi, x)) }

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// isChitchat reports whether a prompt asks for nothing: an
// acknowledgement, a "go on", or a slash command.
func isChitchat(p string) bool {
	p = strings.TrimSpace(p)
	return p == "" || cue.SlashCmd.MatchString(p) || cue.Chitchat.MatchString(p) || cue.SignOff.MatchString(p) ||
		strings.HasPrefix(p, "<command-") || strings.HasPrefix(p, "<local-command") || strings.HasPrefix(p, "Caveat: ")
}

// preference is the importance of a user's sentence as a standing
// preference, 0 when it is none.
func preference(s string) float64 {
	st, oneOff := rule.Of(s)
	var imp float64
	switch st {
	case rule.Stated:
		imp = impPrefStated
	case rule.Standing:
		imp = impPrefRule
	default:
		return 0
	}
	if oneOff {
		imp -= impPrefOneOff
	}
	return imp
}

// tagsOf takes a sentence's short names in backticks as tags: `postgres`,
// `go test`. Paths give their file name.
func tagsOf(s string) []string {
	var tags []string
	for _, m := range cue.InlineCode.FindAllStringSubmatch(s, -1) {
		t := strings.TrimRight(strings.ToLower(strings.TrimSpace(m[1])), "/:")
		if i := strings.LastIndexByte(t, '/'); i >= 0 && i < len(t)-1 {
			t = t[i+1:]
		}
		if !cue.TagWord.MatchString(t) || len(t) > 30 {
			continue
		}
		tags = prose.AppendNew(tags, t)
		if len(tags) == 4 {
			break
		}
	}
	sort.Strings(tags)
	return tags
}

// capped keeps at most maxPerKind of each kind, the most important (the
// earlier on ties), in their original order.
func capped(list []Candidate) []Candidate {
	byKind := map[Kind][]int{}
	for i, c := range list {
		byKind[c.Kind] = append(byKind[c.Kind], i)
	}
	keep := make([]bool, len(list))
	for _, idx := range byKind {
		sort.SliceStable(idx, func(a, b int) bool { return list[idx[a]].Importance > list[idx[b]].Importance })
		for i, j := range idx {
			keep[j] = i < maxPerKind
		}
	}
	var out []Candidate
	for _, k := range []Kind{Decision, Preference, Fact, Pattern} {
		for i, c := range list {
			if keep[i] && c.Kind == k {
				out = append(out, c)
			}
		}
	}
	return out
}
