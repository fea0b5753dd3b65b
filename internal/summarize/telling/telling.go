package telling

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// ReasonAt is where s gives its reason, past its first few words; -1
// if it gives none.
func ReasonAt(s string) int {
	for off := 0; off < len(s); {
		i := prose.ReasonAt(s[off:])
		if i == nil {
			return -1
		}
		if at := off + i[0]; at > 8 && !wantsTo.MatchString(s[:at]) {
			return at
		}
		off += i[1]
	}
	return -1
}

// wantsTo ends with a verb whose object is the "to …" after it: "we
// decided to keep linear backoff" keeps it as the decision, where "…, to
// keep the API fast" gives a purpose.
var wantsTo = lazyre.New(`(?i)\b(?:decided|decide|chose|choose|agreed|opted|want|wanted|plan|planned|prefer|preferred|going|need|needed|have|had|try|tried|like|'d like|would like|asked you|told you)\s*$`)

// OnlyRunLog reports whether the one value s holds, times of day
// aside, is a log of one run kept in the project's logs/ folder ("from
// 05:58 to 06:14 into logs/create-booking-2026-11-02.log"): the
// session's evidence, not where anything runs.
func OnlyRunLog(s string) bool {
	return runLog.MatchString(s) && !prose.HasValue(clock.ReplaceAllString(runLog.ReplaceAllString(s, " "), " "))
}

// OnlyClockPast reports whether s tells what happened, a time of day its
// only value: "With more environments running in parallel at 06:00 it
// was only a matter of time."
func OnlyClockPast(s string) bool {
	return ToldPast.MatchString(s) && !prose.HasValue(clock.ReplaceAllString(s, " "))
}

var (
	clock  = lazyre.New(`\b\d{1,2}:\d{2}\b`)
	runLog = lazyre.New("(?:^|[\\s`(])(?:\\./)?logs/[\\w.-]+")
)

// Wish is a good wish for later, no work left: "Luck with the k6 run
// tomorrow."
var Wish = lazyre.New(`(?i)^(?:good )?luck (?:with|on|for|tomorrow)\b|^good luck\b|^(?:have fun|enjoy|see you|talk (?:to you )?(?:soon|tomorrow|later)|have a good)\b`)

// triedIt is someone telling what they tried and saw: "I ran the
// integration test 10 times: 9 green, 4 winners instead of 5" reports,
// it decides nothing.
var triedIt = lazyre.New(`(?i)^(?:so |and )?(?:i|we) (?:ran|re-?ran|tried|tested|checked|measured|timed|profiled|benchmarked)\b`)

// ReportOnly reports whether s tells what someone tried and saw, and
// decides nothing: "We tried SQLite first, but we'll use Postgres" and "I
// measured both and chose zstd" decide.
func ReportOnly(s string) bool {
	return triedIt.MatchString(s) && !decidedAfter.MatchString(s)
}

// StepAhead reports whether s is the agent naming the step it takes
// next in a few words, led by what it is doing: "Installing
// libxcb-cursor0 on the runner and bundling it.", "Bumping the API
// version everywhere."
func StepAhead(s string) bool {
	return gerundLead.MatchString(s) && len(strings.Fields(s)) <= 14 && ReasonAt(s) < 0 && !stepPurpose.MatchString(s)
}

// stepPurpose is what a step is for: "… to cut the bundle size". A step
// with its reason or purpose is a choice said as it is made.
var stepPurpose = lazyre.New(`(?i)\b(?:because|since|so that|so|in order to|to (?:cut|avoid|keep|make|get|save|reduce|fix|stop|speed|match|support|allow))\b`)

var gerundLead = lazyre.New(`(?i)^(?:swapping|installing|adding|updating|bumping|moving|writing|creating|removing|deleting|renaming|fixing|switching|changing|replacing|building|trying|testing|looking|rerunning|re-running|wiring|porting|applying|patching|pinning|upgrading|downgrading|setting up|cleaning up|pointing|running|checking|reading|editing|rewriting|putting)\b`)

// AsItIs ends a sentence with how a thing is left, not a choice made
// ("Now the repository — as it is."), which "X it is" would read as one.
var AsItIs = lazyre.New(`(?i)\b(?:as|that|what|where|how|however|whatever|wherever)\s+it is[.!]?$`)

// decidedAfter is a choice said after a report: "we tried SQLite first,
// but we'll use Postgres".
var decidedAfter = lazyre.New(`(?i)\b(?:decided|chose|picked|settled|went with|go with|going with|we'll use|we will use|let's use|switch(?:ed)? to|stick with|keep)\b`)

// Ack is an acknowledgment, which promises nothing to do: "Understood
// for next time."
var Ack = lazyre.New(`(?i)^(understood|noted|got it|will do|sure|of course|sorry)\b[,.!]?(?:\s+[\w']+){0,3}[.!]?$`)

// ToldPast is a clause that tells what happened, the reason for what
// was done: "the stops were one big transfer overrunning the buffer".
var ToldPast = lazyre.New(`(?i)\b(was|were|had been|came from|caused|happened)\b`)

// CheckReport is how a check came out, which argues for nothing:
// "All 126 tests pass."
var CheckReport = lazyre.New(`(?i)\b(?:pass(?:es|ed)?|fail(?:s|ed)?|green|builds|built|compiles|compiled)\b`)

// Before labels what held until the session changed it: "Before:
// first row 121 ms, peak RSS 1.11 GiB. After, three runs: …".
var Before = lazyre.New(`(?i)^(?:before|previously|originally|until now)\s*[:—–]\s*`)

// OpenCount says how many things are left open: "On the Envoy side
// two things are open.", "Three things remain:".
var OpenCount = lazyre.New(`(?i)^(?:[\w' -]{0,40}?,? )?(?:two|three|four|2|3|4) (?:things|items|points|issues|problems|questions) (?:are |remain |stay |still )*(?:open|left|pending|outstanding|unresolved|to do)\s*[.:]?$|^(?:[\w' -]{0,40}?,? )?(?:two|three|four|2|3|4) (?:things|items|points|issues|problems|questions) remain\s*[.:]?$`)

// OrdinalLead opens an item of a counted list: "One, …", "Second: …".
var OrdinalLead = lazyre.New(`(?i)^(?:one|two|three|four|first|second|third|fourth|[1-4])[,.:)]\s+`)

// WhAsk is a question asked without its question mark: "What's the dev
// loop, I've never done a mod".
var WhAsk = lazyre.New(`(?i)^(?:so |and |ok,? )?(?:what|how|why|where|which|who)(?:'s|'re| is| are| do| does| did| should| would| can)\b`)

// Fault is a failure told with "never" or "every time", which
// makes no rule: "photos taken on iPhones never arrive", "goes NaN at
// around step 3k, every time".
var Fault = lazyre.New(`(?i)\b(?:never|always)\s+(?:arrives?|shows? up|loads?|works?|reach(?:es)?|finish(?:es)?|starts?|comes? (?:through|back|in)|gets? (?:through|there)|appears?|fires?|triggers?|succeeds?|completes?)\b|\b(?:goes nan|nans?|crash(?:es)?|fails?|hangs?|breaks?|times? out|resets?|drops?)\b[^.;]{0,60}\bevery (?:single )?time\b`)

// FirstPerson opens what the speaker did or does: "I replayed the 41 by
// hand", "We now have three Observations".
var FirstPerson = lazyre.New(`(?i)^(?:i|we|i'm|we're|i've|we've|i'll|we'll|my|our)\b`)
