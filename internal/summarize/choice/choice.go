package choice

import (
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/agree"
	"github.com/cairn-mem/cairn/internal/summarize/cause"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
	"github.com/cairn-mem/cairn/internal/summarize/telling"
)

// LaterReason reads a sentence that gives the reason for something said
// before it: "Why both: …", "The reason: …" (the reason is what follows
// the label), "That way …", "This means …", "Otherwise …" (the whole
// sentence).
func LaterReason(s string) (string, bool) {
	if m := cue.ReasonLabel.FindStringIndex(s); m != nil && m[1] < len(s) {
		return prose.Capitalize(strings.TrimSpace(s[m[1]:])), true
	}
	if m := cue.ReasonIs.FindStringIndex(s); m != nil && m[1] < len(s) {
		return prose.Capitalize(strings.TrimSpace(s[m[1]:])), true
	}
	if cue.ReasonLead.MatchString(s) {
		return s, true
	}
	return "", false
}

// StateLead is s without what leads a statement of a state: "So ",
// "Now, ".
func StateLead(s string) string {
	return cue.NowLead.ReplaceAllString(cue.SoLead.ReplaceAllString(s, ""), "")
}

// NowState: a statement of the state a change left, "X now streams …",
// "Now the handler reads …", "X is Y now", "switched X to Y".
func NowState(s string) bool {
	s = cue.NowThat.ReplaceAllString(s, " ") // "now that the disks have some hours" says when, not what holds
	rest := StateLead(s)
	if rest != s && !prose.VerbAfterSubject(rest) {
		return false // "Now the X-Ray patching in both handlers.": the next step, named
	}
	if i := strings.Index(rest, ": "); rest != s && i > 0 && !prose.IsClause(rest[i+2:]) {
		return false // "Now the load test I owed you: `hey -n 200` at one session": the step and how
	}
	return (cue.NowStateRE.MatchString(s) || pluralNow(s)) && !cue.NowHas.MatchString(s) && !cue.NowNext.MatchString(s) && !cue.NowDoing.MatchString(s) && prose.IsFullClause(cue.ReportLead.ReplaceAllString(rest, ""))
}

// AfterReason reports whether s is a choice said after its
// reason (cue.ChoiceAfterReason), the reason a clause of its own: not a
// time ("Since Tuesday, we drop about 5% …") nor what the user can see.
func AfterReason(s string) bool {
	m := cue.ChoiceAfterReason.FindStringIndex(s)
	if m == nil {
		return false
	}
	lead, _, _ := strings.Cut(s[:m[1]], ",")
	_, reason, _ := strings.Cut(lead, " ")
	return prose.IsClause(reason) && finite.MatchString(reason) && !strings.HasPrefix(strings.ToLower(reason), "you ")
}

// finite is a word a clause with a finite verb has: "the ETA has no
// year", "the API returns strings"; "the last deploy" has none.
var finite = lazyre.New(`(?i)\b(?:is|are|was|were|has|have|had|does|do|did|can|could|will|would|must|should|may|might)\b|n't\b|\b[a-z]{2,}(?:s|ed)\b`)

// UnderLabel is what s says under a design answer's label, and whether
// it answers one part of a design there, in a clause of its own that
// gives a value: "Storage: positions go into hourly Parquet files,
// /data/ais/positions/YYYY/MM/DD/HH.parquet, and we query them with
// DuckDB". The caller tells an environment fact apart.
func UnderLabel(s string) (string, bool) {
	m := cue.DesignLabel.FindStringSubmatchIndex(s)
	if m == nil {
		return "", false
	}
	label := strings.Fields(strings.ToLower(s[m[2]:m[3]]))
	if labelReports[label[len(label)-1]] || labelLead[label[0]] {
		return "", false // "The catch: …", "On compute: claim consumes ~31.9k CU …"
	}
	rest := s[m[1]:]
	return rest, prose.IsFullClause(rest) && prose.HasValue(rest) && !pastTold.MatchString(rest) && !measured.MatchString(rest) && !agree.Proposes(rest) && !cue.IsPlan(rest) && !strings.HasSuffix(rest, "?")
}

// measured is a clause that gives a measurement: "the query takes 4.2 s
// on the 10M-row table".
var measured = lazyre.New(`(?i)\b(?:takes?|took|costs?|averages?|peaks? at|sits? at|is at|runs? at|measures?|uses? about|consumes?)\b[^.;]{0,20}\d`)

// pastTold is a clause that tells what happened: "Duplicates: we did a
// plain `POST` each time" explains, it builds nothing.
var pastTold = lazyre.New(`(?i)\b(?:was|were|did|had|created|caused|happened|broke|failed|crashed|went)\b`)

// labelReports are labels that report, warn or ask rather than say how a
// part is built.
var labelReports = prose.WordSet(`problem problems note notes caveat caveats warning warnings update status result results output
	error errors todo next question questions tests test done fixed found outcome summary context background reminder
	heads fyi ps edit update symptom cause bug issue issues risk risks bonus aside catch snag gotcha downside upside
	tradeoff trade-off before after numbers timings measurements benchmark benchmarks`)

// labelLead opens a label that names a topic or a moment, which a report
// is as often given under as a design: "On compute:", "The catch:",
// "Before:".
var labelLead = prose.WordSet(`on for about as regarding re the a an one two this that these those our my your
	before after now then also today yesterday tonight first second finally`)

// Instead is what s says is done in place of what was turned down
// before it ("Instead, every missing clock-out lands on an exceptions
// report …"), capitalised; "" when s opens otherwise, or with "Instead
// of".
func Instead(s string) string {
	loc := cue.InsteadLead.FindStringIndex(s)
	if loc == nil {
		return ""
	}
	rest := s[loc[1]:]
	if len(rest) < 3 || strings.EqualFold(rest[:3], "of ") || !prose.IsFullClause(rest) || agree.Proposes(rest) || insteadSymptom.MatchString(rest) || cue.Symptom.MatchString(rest) || cause.Is(rest) {
		return ""
	}
	return prose.Capitalize(rest)
}

// insteadSymptom is what happened instead of what was expected: "Instead,
// the job hangs at 99% and never exits", "Instead it returns an empty
// list".
var insteadSymptom = lazyre.New(`(?i)\b(?:hangs?|hung|never|nothing|empty|stuck|fails?|crash\w*|errors?|times? out|returns? (?:an? )?(?:empty|nil|null|wrong|zero|0))\b`)

// pluralNow reports whether s says what a plural subject does now
// ("Backtests now draw the universe from …"), the word after "now" a
// verb and not a preposition ("The test fails now with a different
// error").
func pluralNow(s string) bool {
	m := cue.PluralNow.FindStringSubmatch(s)
	return m != nil && !notVerbAfterNow[strings.ToLower(m[1])] && !cue.Symptom.MatchString(s)
}

var notVerbAfterNow = prose.WordSet(`with for and but that too than from after before because the this there here`)

// VerdictOnly reports whether s turns something down without a word of
// why: "On SQLite: I'd advise against it.", "Not worth it."
func VerdictOnly(s string) bool {
	return len(s) < 80 && telling.ReasonAt(s) < 0 && !strings.Contains(s, ",")
}

// WhyOf reports whether next tells why of verdict s: it names what s
// turned down ("On SQLite: …" then "… and SQLite has none of them"), or
// follows a bare verdict ("I'd not do WhatsApp." then "The Business
// Platform needs Meta's business verification, …"), and is no decision,
// question or report of a change of its own.
func WhyOf(s, next string) bool {
	if next == "" || cue.DecisionCue.MatchString(next) || strings.HasSuffix(next, "?") || NowState(next) {
		return false
	}
	if len(strings.Fields(s)) <= 5 && !cue.IsPlan(next) && !cue.Hedge.MatchString(next) {
		return true
	}
	in := prose.ContentWords(next)
	for _, w := range prose.ContentWords(s) {
		if len(w) > 3 && !verdictWords[w] && slices.Contains(in, w) {
			return true
		}
	}
	return false
}

// verdictWords are the words of a verdict, not of what it turns down.
var verdictWords = prose.WordSet(`advise advised recommend recommended against worth rather avoid would wouldn't`)
