package agree

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// Proposing reports whether s is worded as the agent putting a choice to
// the user, whatever its verb.
func Proposing(s string) bool { return proposal.MatchString(s) }

// Proposes reports whether s puts a choice to the user: worded so, with a
// verb that proposes ("I'd use", not "I'd say"), and for no case that may
// not come.
func Proposes(s string) bool {
	return proposal.MatchString(s) && !notProposal.MatchString(s) && !conditional.MatchString(s)
}

// Choice is what proposal s proposes, as what holds once agreed to: "For
// data access I'd use sqlc" is "For data access use sqlc", "My take:
// Postgres 16" is "Postgres 16".
func Choice(s string) string {
	return proposer.ReplaceAllString(proposalLabel.ReplaceAllString(s, ""), "")
}

// Agrees reports whether first, the first sentence of a reply, takes what
// the agent proposed: it opens by agreeing, or names what it takes and
// then agrees ("mirrors + the fast pool, yes."), refuses nothing and sets
// no condition.
func Agrees(first string) bool {
	return (agrees.MatchString(first) || Named(first) != "") && !Refuses(first) && !butCue.MatchString(first) && !strings.HasSuffix(strings.TrimSpace(first), "?")
}

// Taken is what a reply agrees to by naming it and only so ("mirrors +
// the fast pool, yes."), "" when it opens by agreeing ("ok, yes") or does
// not agree: only the proposals it names are taken.
func Taken(first string) string {
	if agrees.MatchString(first) {
		return ""
	}
	return Named(first)
}

// Named is what a reply that agrees after naming it names ("mirrors +
// the fast pool" of "mirrors + the fast pool, yes."), "" for another
// reply or one that names a condition or a delay ("if it stays under 5
// ms, yes", "not this sprint, ok").
func Named(first string) string {
	m := namedYes.FindStringSubmatch(first)
	if m == nil || conditionLead.MatchString(m[1]) {
		return ""
	}
	return m[1]
}

// Refuses reports whether a message opens with a refusal: "No. Keep the
// old parser."
func Refuses(s string) bool { return refuses.MatchString(s) }

// Rejects reports whether the agent's text turns something down in so
// many words: "I'd not add RabbitMQ or Kafka for this".
func Rejects(text string) bool { return rejects.MatchString(text) }

var (
	// proposal is the agent putting a choice to the user: "My take:
	// Postgres 16, and not CockroachDB", "For data access I'd use sqlc on
	// top of pgx/v5", "I suggest we hand trials to Stripe".
	proposal = lazyre.New(`(?i)^(?:(?:so|overall|honestly|then),? )?(?:my (?:take|pick|vote|suggestion|recommendation|proposal)(?:\s*[:—–-]\s*\S| (?:is|would be)(?:\s*[:—–-]\s*\S|\s+(?:a|an|the|to|that|this|one|two|three|\d)\b)| here\s*[:—–-]\s*\S)|(?:(?:for|on|as for|about|regarding) [^,;:.]{1,40}?[,:]? )?(?:i'd|i would) (?:just |simply )?[a-z]{3,}\b|i (?:suggest|propose|recommend)\b)`)
	// notProposal is "I'd" with a verb that proposes nothing: "I'd say
	// it's the cache", "I'd expect 40 ms", "I'd rather not".
	notProposal = lazyre.New(`(?i)\b(?:i'd|i would) (?:say|guess|expect|think|bet|assume|imagine|like|love|hate|need|have|be|rather not|prefer not|wait|hold off|avoid|advise against|argue against|vote against|hesitate|worry|check|look|want|ask|leave (?:it|that|this) (?:alone|out|as is))\b`)
	// conditional is a proposal for a case that may not come: "If the
	// queue grows, I'd use Redis".
	conditional = lazyre.New(`(?i)^(?:if|unless|when|once|should|in case)\b`)
	// proposalLabel is the label a proposal may open with: "My take:",
	// or the topic the rest names again ("About uploading: I'd leave
	// the upload to ADP manual").
	proposalLabel = lazyre.New(`(?i)^(?:(?:so|overall|honestly|then),? )?my (?:take|pick|vote|suggestion|recommendation|proposal)(?:\s*[:—–-]\s*| (?:is|would be)(?:\s*[:—–-]\s*|\s+(?:to\s+)?)| here\s*[:—–-]\s*)|^(?:about|regarding|as for) [^,;:.]{1,40}:\s+`)
	// proposer is the agent proposing, which the agreement makes
	// a decision of the two.
	proposer = lazyre.New(`(?i)\b(?:i'd|i would|i) (?:just |simply |rather )?(?:(?:suggest|propose|recommend)(?: that)?(?: we)?\s+)?`)
	// agrees opens a reply that takes what the agent proposed, or
	// reports it done: "flashed, it connects".
	agrees = lazyre.New(`(?i)^\s*(?:ok(?:ay)?\b|yes\b|yep\b|yeah\b|sure\b|agreed\b|i agree\b|sounds (?:good|right|great|fine|reasonable)\b|good[,.!]|great[,.!]|perfect\b|fine[,.!]|lgtm\b|makes sense\b|go (?:ahead|for it)\b|do it\b|let'?s do (?:it|that|this)\b|deal\b|works for me\b|fair enough\b|all good\b|done[.!,]|(?:flashed|applied|deployed|installed|ran|rebuilt|switched|merged|pushed)(?: it| that)?,\s+(?:it|that|everything) (?:works|connects|boots|runs|builds|passes|starts|is (?:up|back|fine|green))\b)`)
	// namedYes names in a few words what the reply takes, then agrees.
	namedYes = lazyre.New(`(?i)^\s*([^,.;:?!]{2,50}),\s*(?:yes|yep|yeah|agreed|ok(?:ay)?|sounds good|go ahead|deal|do it|let'?s do (?:it|that))(?:[.!]+(?:\s|$)|\s*$)`)
	// conditionLead opens a named part that is no choice taken.
	conditionLead = lazyre.New(`(?i)^\s*(?:if|unless|when|once|maybe|perhaps|later|not|only|just|after|before)\b`)
	// butCue is agreement with a condition that may change what was
	// proposed: "ok, but not sqlc", "yes, except the TTL".
	butCue  = lazyre.New(`(?i)\b(?:but|except|instead|rather|however|although|though)\b`)
	refuses = lazyre.New(`(?i)^\s*(?:no|nope)\b`)
	rejects = lazyre.New(`(?i)\b(?:i'd|i would) not\b|\bi wouldn't\b`)
)

// Label is what a pronoun of sentence s of msg stands for: the label
// that opens s's paragraph ("Developer fields: the Karoo files have …"),
// else the sentence before s in it, when s names its object by "both" or
// a pronoun alone ("The fix is a hop limit on pointers (and, strictly,
// pointers may only point backwards). I'd add both."); "" if there is
// none.
func Label(msg, s string) string {
	for _, p := range strings.Split(msg, "\n\n") {
		p = strings.Join(strings.Fields(p), " ") // a paragraph's lines are wrapped
		i := strings.Index(p, s)
		if i < 0 {
			continue
		}
		if m := labelLead.FindStringSubmatch(p[:i]); m != nil {
			return m[1]
		}
		if ss := prose.Sentences(p[:i]); len(ss) > 0 && pronounOnly.MatchString(s) {
			if last := strings.TrimRight(ss[len(ss)-1], "."); len(last) <= 200 && prose.IsFullClause(last) && !strings.HasSuffix(last, "?") {
				return last
			}
		}
		return ""
	}
	return ""
}

// pronounOnly is a proposal that names what it takes by "both" or a
// pronoun and nothing else: "I'd add both.", "I'd do that.", not "I'd
// make that the rule for every dataset: …".
var pronounOnly = lazyre.New(`(?i)^(?:so,? )?(?:i'd|i would|let's|we'll) (?:just )?[a-z]+ (?:both|it|them|that|those|these|all three|all of them)[.!]?\s*$`)

// labelLead is a paragraph's label: a few words and a colon.
var labelLead = lazyre.New(`^((?-i:[A-Z])[\w /-]{2,40}):\s`)
