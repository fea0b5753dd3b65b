package offer

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/agree"
	"github.com/cairn-mem/cairn/internal/summarize/block"
	"github.com/cairn-mem/cairn/internal/summarize/cause"
	"github.com/cairn-mem/cairn/internal/summarize/choice"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
	"github.com/cairn-mem/cairn/internal/summarize/telling"
)

// Proposal is a choice the agent put to the user, with the sentence
// after it (Next), which often says why.
type Proposal struct {
	S, Next string
	// Term is a rule of the design the message proposes, said as plain
	// present ("Dead letters are kept 30 days."): agreed to with the
	// proposal, it holds as a decision of its own.
	Term bool
}

// Proposals are the choices the agent's message text puts to the user,
// each with the sentence after it when that is in its paragraph: not a
// choice it states as made (a decision) or turns down, asks about, hedges,
// plans for later or makes only for a case that may not come.
func Proposals(text string) []Proposal {
	var out []Proposal
	ss := prose.Sentences(strings.ReplaceAll(text, "’", "'"))
	for i, s := range ss {
		if !agree.Proposes(s) || strings.HasSuffix(s, "?") ||
			cue.Hedge.MatchString(s) || cue.IsPlan(s) || cue.ActionLine.MatchString(s) || cue.DecisionCue.MatchString(s) || cue.RejectCue.MatchString(s) {
			continue
		}
		next := ""
		if i+1 < len(ss) {
			next = block.Same(text, s, ss[i+1])
		}
		if strings.HasSuffix(s, ":") {
			// "My recommendation is a hybrid, weighted heavily to one
			// side:" proposes what the list after it says.
			items := block.ListAfter(text, s, 2)
			for len(items) > 0 && len(strings.Join(items, " ")) > 290 {
				items = items[:len(items)-1]
			}
			next = strings.Join(items, " ")
		}
		out = append(out, Proposal{S: s, Next: next})
	}
	// "So restic to B2 for tank/enc/home only, and the photos rely on
	// vault + kestrel.": what the message's argument comes to is its
	// proposal, said without "I'd".
	var so []Proposal
	for _, s := range ss {
		if m := cue.SoConclusion.FindStringSubmatch(s); m != nil && len(s) <= 220 && !strings.HasSuffix(s, "?") && !cue.Hedge.MatchString(s) && !cue.IsPlan(s) && !cue.NotSettled.MatchString(s) &&
			!cause.Is(s) && !cue.Symptom.MatchString(s) && !telling.CheckReport.MatchString(s) && !cue.RejectCue.MatchString(s) && !choice.NowState(s) {
			so = append(so, Proposal{S: prose.Capitalize(m[1])})
		}
	}
	out = append(out, so[max(0, len(so)-2):]...)
	if len(out) == 0 && !agree.Rejects(text) {
		return out
	}
	for _, s := range ss {
		if telling.OpenCount.MatchString(s) {
			break // what follows is work left ("two things are open. One, …")
		}
		if designTerm(s) {
			out = append(out, Proposal{S: s, Term: true})
		}
	}
	return out
}

// designTerm is a rule a proposed design states with its value, as plain
// present: "Dead letters are kept 30 days.", "4xx goes straight to the
// dead letter as `FHIR_REJECTED`." Not what the agent did or found, asks,
// plans or hedges.
func designTerm(s string) bool {
	// What could be ("the free 867 GB could become a special vdev, but
	// …", "a bad `zfs destroy -r` … can take both copies", "RAIDZ2
	// would give the same 16 TB") is an option weighed or a risk, not
	// a term.
	return !cue.CouldBe.MatchString(mainClause(s)) && len(s) >= 20 && len(s) <= 220 && strings.ContainsAny(s, "0123456789`") && prose.IsFullClause(s) &&
		!strings.HasSuffix(s, "?") && !telling.FirstPerson.MatchString(s) && !cue.Hedge.MatchString(s) && !cue.IsPlan(s) &&
		!cue.Narrate.MatchString(s) && !cue.ActionLine.MatchString(s) && !cue.DecisionCue.MatchString(s) && !cue.RejectCue.MatchString(s) &&
		!cause.Is(s) && !cue.Symptom.MatchString(s) && !agree.Proposing(s) && !cue.Flagged.MatchString(s) && !telling.CheckReport.MatchString(s) && !telling.ToldPast.MatchString(s) && !cue.PastDeed.MatchString(s) && !telling.OrdinalLead.MatchString(s) && !cue.OpenSaid(s)
}

// mainClause is s before a clause that gives a reason or a consequence
// (", so …", ", which …"): "Dead letters are kept 30 days, so ops can
// replay them" states a term whatever its reason may allow.
func mainClause(s string) string {
	if i := cue.SubClause.FindStringIndex(s); i != nil {
		return s[:i[0]]
	}
	return s
}
