package rule

import (
	"strings"
	"unicode"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
	"github.com/cairn-mem/cairn/internal/summarize/telling"
)

// Strength is how firmly a sentence states a rule.
type Strength int

const (
	None     Strength = iota // no rule: a task, a report, a question
	Stated                   // prefer, avoid, please use
	Standing                 // always, never, from now on
)

// Of reads how firmly user sentence s states a rule, and whether it
// holds only for now ("for now", "this time", "yet").
func Of(s string) (st Strength, oneOff bool) {
	if cue.PrefAsk.MatchString(s) {
		return Stated, false
	}
	if cue.BareReply.MatchString(s) {
		return None, false // "Keep it, yes.": the proposal it answers is the decision
	}
	s = cue.NoIdiom.ReplaceAllString(s, "") // "No worries, please go ahead"
	s = cue.Unknowing.ReplaceAllString(s, "")
	if rest := afterVerb(s); (cue.PronounTask.MatchString(s) || cue.ThisTask.MatchString(s)) && !cue.PrefCue.MatchString(rest) && !cue.Scope.MatchString(rest) {
		return None, false // "Put it back in service.", "Put Caddy in front of it so the family can watch": a task, not "Use it for every new package."
	}
	if !cue.PrefCue.MatchString(noneFor(habitual(s))) || strings.HasSuffix(s, "?") || telling.WhAsk.MatchString(s) || telling.TellAsk.MatchString(s) && onlyLater(s) || telling.Fault.MatchString(s) || telling.FaultShows.MatchString(s) && !cue.RuleAsk.MatchString(s) || described(s) || cue.TaskSpec.MatchString(s) || cue.OneThing.MatchString(s) && !cue.Standing.MatchString(s) || cue.DoThat.MatchString(s) && !cue.PrefCue.MatchString(afterVerb(s)) || Holder(s) {
		return None, false
	}
	st = Stated
	if cue.PrefRule.MatchString(s) {
		st = Standing
	}
	return st, cue.OneOff.MatchString(s)
}

// Holder reports whether s says who holds a thing, someone other than
// the user or the agent: "so Tomás owns the Stripe account from now on"
// is a fact, no rule for the agent.
func Holder(s string) bool { return holderSaid.MatchString(s) }

var holderSaid = lazyre.New(`\b(?:[A-Z][\p{L}-]+) (?:now )?(?:owns|maintains|looks after|is (?:now )?(?:responsible for|in charge of|the (?:person|contact|owner) (?:for|of)))\b`)

// onlyLater reports whether the only rule s says is the future it asks
// about: "tell me how you'd render labels going forward"; not "please
// make sure to tell me if the schema changes".
func onlyLater(s string) bool {
	return cue.Later.MatchString(s) && !cue.PrefCue.MatchString(cue.Later.ReplaceAllString(s, ""))
}

// afterVerb is what an imperative says after its verb, its first word:
// whether that holds a rule's cue tells a rule from a task. "" when s
// has no word (an idiom stripped it bare).
func afterVerb(s string) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[i:]
	}
	return ""
}

// noneFor blanks in s a count of none over a time after a measured report
// ("droop is 3.17V min now, no resets in an hour"): what was seen, not a
// rule ("Please, no deploys for two weeks").
func noneFor(s string) string {
	if m := cue.NoneFor.FindStringIndex(s); m != nil && cue.Measured.MatchString(s[:m[0]]) {
		return s[:m[0]] + " " + s[m[1]:]
	}
	return s
}

// PronounTask reports whether s asks, in a few words, for something done
// to what was just said: "Put it back in service." or "Keep it, yes."
// names nothing a later session could hold to.
func PronounTask(s string) bool {
	return cue.BareReply.MatchString(s) || cue.PronounTask.MatchString(s) && len(prose.ContentWords(s)) <= 4 && !prose.HasValue(s) && !cue.Scope.MatchString(s)
}

// AsksThat reports whether s only asks for what was just said to be
// done: "Put that in, please."
func AsksThat(s string) bool { return cue.DoThat.MatchString(s) && len(strings.Fields(s)) < 6 }

// described reports whether every preference cue in s is a verb that
// follows its own subject: "security review flagged that we keep the
// session token in localStorage" tells what is done, not what the user
// asks for ("keep the token out of localStorage").
func described(s string) bool {
	for _, loc := range cue.PrefCue.FindAllStringIndex(s, -1) {
		f := strings.Fields(strings.ToLower(s[:loc[0]]))
		if len(f) == 0 || !doerWords[f[len(f)-1]] || !cue.VerbCues.MatchString(s[loc[0]:loc[1]]) {
			return false
		}
	}
	return true
}

// habitual is s without what it tells as a habit: a behaviour with how
// often it happens, or a thing that always or never does something
// ("the staff view never needs more"), which describes it, and what
// someone never did. A rule for
// the agent names it: "the agent never pushes".
func habitual(s string) string {
	s = cue.Habit.ReplaceAllString(s, " ")
	s = cue.NeverDid.ReplaceAllStringFunc(s, func(m string) string {
		if cue.Past(cue.NeverDid.FindStringSubmatch(m)[1]) {
			return " " // "never touched Spack": what was, not a rule
		}
		return m
	})
	if m := cue.ThingHabit.FindStringSubmatchIndex(s); m != nil && !cue.AgentWord.MatchString(s[m[2]:m[3]]) {
		s = s[m[1]:]
	}
	return s
}

var (
	// doerWords are the subjects before a verb that make it a report.
	doerWords = prose.WordSet(`we they it he she who which that still also`)
)
