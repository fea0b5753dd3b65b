package cause

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
)

// Is reports whether s states a root cause; "since" that starts a
// time ("failing since at least Tuesday") gives no reason.
func Is(s string) bool {
	if cue.Supposed.MatchString(s) {
		return false // "If the slot turns out to be full, cancel the intent": what to do then
	}
	s = cue.ChoseWhy.ReplaceAllString(cue.FineWhy.ReplaceAllString(cue.Feeling.ReplaceAllString(s, " "), " "), "so")
	return cue.RootCause.MatchString(cue.SinceTime.ReplaceAllString(s, "after")) || cue.NarrowCause.MatchString(s)
}

// Announces reports whether s announces an explanation that follows it
// ("Found it.", "Here's what happens:"), rather than giving it: "Found
// it: receipt() ran the text through TextEncoder, …" is the cause
// itself, and the sentence after it is not.
func Announces(s string) bool {
	return cue.CauseIntro.MatchString(s) && !(cue.FoundColon.MatchString(s) && Is(s))
}

// End returns the index of the last sentence of the explanation that
// starts at ss[i] after an announcement ("Found it.", "Here's what
// happens."): the sentences that follow while they fit in one statement
// and still explain, not ask, plan or narrate.
func End(ss []string, i int) int {
	const maxExplained = 400 // the longest root cause line kept
	n, end := len(ss[i]), i
	for j := i + 1; j < len(ss); j++ {
		s := ss[j]
		n += 1 + len(s)
		if n > maxExplained || strings.HasSuffix(s, "?") || strings.HasSuffix(s, ":") || cue.Narrate.MatchString(s) || cue.IsPlan(s) || cue.Hedge.MatchString(s) || cue.Remedy.MatchString(s) {
			break
		}
		end = j
	}
	return end
}

// Start is where the explanation that ss[i] closes begins: up
// to three sentences back, after done, that tell what happened rather than
// ask, announce or hedge, within the longest root cause line kept; i when
// none does.
func Start(ss []string, i, done int) int {
	n, from := len(ss[i]), i
	for j := i - 1; j > done && j >= i-3; j-- {
		s := ss[j]
		n += 1 + len(s)
		if n > 400 || strings.HasSuffix(s, "?") || strings.HasSuffix(s, ":") || cue.Narrate.MatchString(s) || cue.IsPlan(s) || cue.Hedge.MatchString(s) {
			break
		}
		from = j
	}
	return from
}

// Named reports whether s names the fault an explanation tells
// (cue.NamedFault), not one it denies or another one it turns to ("That's
// a separate problem.").
func Named(s string) bool {
	return cue.NamedFault.MatchString(s) && !cue.NotThisFault.MatchString(s)
}

// Name is the fault s names, as a line's label: "Coordinated omission"
// of "That's coordinated omission."
func Name(s string) string {
	return prose.Capitalize(faultTail.ReplaceAllString(faultLead.ReplaceAllString(s, ""), ""))
}

var (
	faultLead = lazyre.New(cue.NamedFaultLead)
	faultTail = lazyre.New(`(?:\s+(?:in action|again|at work))?[.!]$`)
)
