package prose

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// A change is often told in two clauses, the thing and then what was
// done to it, by a pronoun: "retry_after has to be larger than the
// longest job timeout; I set it to 300". An item needs the thing named
// ("Set retry_after to 300"), and the clause before gives its reason.
var (
	setItRE = lazyre.New(`(?i)^(?:(?:so|and|then|which is why|that's why)\s+)?(?:i|we)(?:'ve| have)?(?:\s+(?:just|now|also))?\s+(set|raised|bumped|lowered|increased|decreased|reduced|changed|cut|moved|capped|pinned|doubled|halved)\s+(?:it|that|this|them)\s+((?:up |down |back )?(?:to|at)\s+\S.*?)[.!]?$`)
	// subjectEnd is the verb a clause's subject comes before.
	subjectEnd  = lazyre.New(`(?i)\s(?:is|are|was|were|has|have|had|needs?|must|should|can|could|will|would|stays?|remains?|defaults?|keeps?|takes?|goes|went|did|does)\b`)
	subjectLead = lazyre.New(`(?i)^(?:the|our|its|their|your|a|an)\s+`)
)

// SetIt reads a change told by a pronoun, in the second clause of s
// ("…; I set it to 300") or as all of s with its subject in the sentence
// before, prev. It returns the change with its subject named, and the
// clause that named the subject, which gives the reason.
func SetIt(s, prev string) (what, why string, ok bool) {
	s = strings.TrimSpace(s)
	first, second := prev, s
	if i := strings.LastIndex(s, "; "); i > 0 {
		first, second = s[:i], s[i+2:]
	}
	m := setItRE.FindStringSubmatch(second)
	if m == nil {
		return "", "", false
	}
	subj := subjectOf(first)
	if subj == "" {
		return "", "", false
	}
	verb := strings.ToUpper(m[1][:1]) + strings.ToLower(m[1][1:])
	return verb + " " + subj + " " + strings.TrimRight(m[2], ".!"), strings.TrimSpace(first), true
}

// subjectOf is the subject of clause s: its words before the first verb,
// at most five, none a pronoun.
func subjectOf(s string) string {
	s = strings.TrimSpace(leadIn.ReplaceAllString(s, ""))
	loc := subjectEnd.FindStringIndex(s)
	if loc == nil {
		return ""
	}
	subj := strings.TrimSpace(subjectLead.ReplaceAllString(s[:loc[0]], ""))
	f := strings.Fields(subj)
	if len(f) == 0 || len(f) > 5 || strings.ContainsAny(subj, ",;:()") {
		return ""
	}
	for _, w := range f {
		switch strings.ToLower(w) {
		case "it", "this", "that", "they", "these", "those", "i", "we", "you", "he", "she", "there", "what", "which":
			return ""
		}
	}
	return subj
}
