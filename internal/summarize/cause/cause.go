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
	if cue.FixOpens.MatchString(s) {
		return false // "The fix is to give corosync its own network.": the remedy of a cause told before it
	}
	if m := cue.ReasonIs.FindStringIndex(s); m != nil {
		// "The reason is that the app's tokens aren't tied to a
		// person" justifies a choice; "the reason was that the cron
		// ran twice because …" explains a fault.
		return m[1] < len(s) && Is(s[m[1]:])
	}
	if cue.NotTheCause.MatchString(s) {
		return false // "That isn't what caused this, but it's a margin we need": a remedy beside the cause
	}
	if cue.CauseIntro.MatchString(s) && !cue.FoundColon.MatchString(s) {
		// "Oh that explains a lot." gives no cause, it acknowledges one;
		// "I found what happened: the cron ran twice because …" gives one.
		_, told, ok := strings.Cut(s, ": ")
		return ok && mechanism.MatchString(told)
	}
	if strings.Contains(s, "again") {
		s = prevention.ReplaceAllString(s, "") // Is is asked of every sentence of a session
	}
	s = cue.ChoseWhy.ReplaceAllString(cue.FineWhy.ReplaceAllString(cue.Feeling.ReplaceAllString(s, " "), " "), "so")
	return cue.RootCause.MatchString(cue.SinceTime.ReplaceAllString(s, "after")) || cue.NarrowCause.MatchString(s)
}

// Announces reports whether s announces an explanation that follows it
// ("Found it.", "Here's what happens:"), rather than giving it: "Found
// it: receipt() ran the text through TextEncoder, …" is the cause
// itself, and the sentence after it is not.
func Announces(s string) bool {
	if !cue.CauseIntro.MatchString(s) || cue.FoundColon.MatchString(s) && Is(s) {
		return false
	}
	// "I found what happened to Nether Edge: the double croissants
	// weren't their mistake." announces; "I found what happened: the
	// cron ran twice because …" tells.
	_, told, ok := strings.Cut(s, ": ")
	return !ok || !Is(told) && !mechanism.MatchString(told)
}

// maxExplained is the longest root cause line kept.
const maxExplained = 400

// explains reports whether s may go on an explanation: it does not ask,
// announce, narrate, plan or hedge, and it is not the remedy, a decision
// or the state a change left ("Standing orders are now stored by day
// name").
func explains(s string) bool {
	return !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, ":") && !cue.Narrate.MatchString(s) && !cue.IsPlan(s) && !cue.Hedge.MatchString(s) && !cue.Remedy.MatchString(s) &&
		!cue.DecisionCue.MatchString(s) && !cue.NowStateRE.MatchString(s)
}

// End returns the index of the last sentence of the explanation that
// starts at ss[i] after an announcement ("Found it.", "Here's what
// happens."): the sentences that follow while they fit in one statement
// and still explain.
func End(ss []string, i int) int {
	n, end := len(ss[i]), i
	for j := i + 1; j < len(ss); j++ {
		if n += 1 + len(ss[j]); n > maxExplained || !explains(ss[j]) {
			break
		}
		end = j
	}
	return end
}

// Told returns the root cause that ss[i] names the fault of (Named) and
// the index of its last sentence: the fault's name first, then the
// sentences before ss[i] that explain it ("… were never sent, so k6's p95
// stayed near 420 ms. That's coordinated omission."), or, when none
// does, ss[i] and the explanation after it ("That's an MTU problem.
// PPPoE takes 8 bytes, …"). The sentences before it start after done,
// and none is taken (filed as something else). "" when ss[i] names no
// fault or nothing around it explains one.
func Told(ss []string, i, done int, taken func(string) bool) (text string, end int) {
	name := Named(ss[i])
	if name == "" {
		return "", i
	}
	if from, ok := start(ss, i, done, taken); ok {
		return name + ": " + strings.Join(ss[from:i], " "), i
	}
	if end = End(ss, i); end == i {
		return "", i
	}
	return strings.Join(ss[i:end+1], " "), end
}

// start returns where the explanation that ss[i] closes begins: up to
// three sentences back, after done and none of them taken, that still
// explain and fit in one statement, from the first that tells a
// mechanism ("because", "so", "when", …). ok is false when none does, or
// one supposes it ("If two workers claim it, …").
func start(ss []string, i, done int, taken func(string) bool) (from int, ok bool) {
	n, from := len(ss[i]), i
	for j := i - 1; j > done && j >= i-3; j-- {
		s := ss[j]
		if n += 1 + len(s); n > maxExplained || !explains(s) || taken(s) {
			break
		}
		if cue.Supposed.MatchString(s) {
			return i, false
		}
		from = j
	}
	// It starts at the first that tells one: "Both are right." before it
	// is a verdict.
	for j := from; j < i; j++ {
		if mechanism.MatchString(ss[j]) {
			return j, true
		}
	}
	return i, false
}

// prevention is what a fix keeps from happening again: "…, so a number
// never gets compared with another kind of number again" tells no cause.
var prevention = lazyre.New(`(?i),?\s*\bso (?:that )?[^.;]*\bagain\b`)

// Mechanism reports whether s tells how one thing led to another.
func Mechanism(s string) bool { return mechanism.MatchString(s) }

// mechanism is a sentence that tells how one thing led to another.
var mechanism = lazyre.New(`(?i)\b(?:because|since|so|when|whenever|while|which|until|after|never|without|means|meant|led to|ended up)\b`)

// Named returns the name of the fault s names (cue.NamedFault), as a
// line's label ("Coordinated omission" of "That's coordinated
// omission."); "" when s names none, or judges one ("That's a hard
// problem.", "That's not a bug."), or names only a problem, a bug or an
// issue with nothing to say which ("That's the problem.").
func Named(s string) string {
	m := cue.NamedFault.FindStringSubmatch(s)
	if m == nil || cue.JudgedFault.MatchString(m[1]) {
		return ""
	}
	switch strings.ToLower(m[2]) {
	case "problem", "bug", "issue":
		if len(strings.Fields(m[1])) < 2 {
			return ""
		}
	}
	return prose.Capitalize(m[1])
}
