package summarize

import (
	"sort"
	"strings"
	"unicode"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
	"github.com/cairn-mem/cairn/internal/summarize/telling"
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
	if cue.PrefAsk.MatchString(s) {
		return impPrefStated
	}
	if cue.BareReply.MatchString(s) {
		return 0 // "Keep it, yes.": the proposal it answers is the decision
	}
	s = cue.NoIdiom.ReplaceAllString(s, "") // "No worries, please go ahead"
	s = cue.Unknowing.ReplaceAllString(s, "")
	if rest := afterVerb(s); (cue.PronounTask.MatchString(s) || cue.ThisTask.MatchString(s)) && !cue.PrefCue.MatchString(rest) && !cue.Scope.MatchString(rest) {
		return 0 // "Put it back in service.", "Put Caddy in front of it so the family can watch": a task, not "Use it for every new package."
	}
	if !cue.PrefCue.MatchString(noneFor(habitual(s))) || strings.HasSuffix(s, "?") || telling.WhAsk.MatchString(s) || telling.TellAsk.MatchString(s) && onlyLater(s) || telling.Fault.MatchString(s) || telling.FaultShows.MatchString(s) && !cue.RuleAsk.MatchString(s) || described(s) || cue.TaskSpec.MatchString(s) || cue.OneThing.MatchString(s) && !cue.Standing.MatchString(s) || cue.DoThat.MatchString(s) && !cue.PrefCue.MatchString(afterVerb(s)) || holderSaid.MatchString(s) {
		return 0
	}
	imp := impPrefStated
	if cue.PrefRule.MatchString(s) {
		imp = impPrefRule
	}
	if cue.OneOff.MatchString(s) {
		imp -= impPrefOneOff
	}
	return imp
}

// holderSaid is who holds a thing, said of someone other than the user or
// the agent: "so Tomás owns the Stripe account from now on" is a fact,
// no rule for the agent.
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

// pronounTask reports whether s asks, in a few words, for something done
// to what was just said: "Put it back in service." or "Keep it, yes."
// names nothing a later session could hold to.
func pronounTask(s string) bool {
	return cue.BareReply.MatchString(s) || cue.PronounTask.MatchString(s) && len(prose.ContentWords(s)) <= 4 && !prose.HasValue(s) && !cue.Scope.MatchString(s)
}

// asksThat reports whether s only asks for what was just said to be
// done: "Put that in, please."
func asksThat(s string) bool { return cue.DoThat.MatchString(s) && len(strings.Fields(s)) < 6 }

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
