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
// two things are open.", "Three things remain:", "Two notes for later."
var OpenCount = lazyre.New(`(?i)^(?:[\w' -]{0,40}?,? )?(?:two|three|four|2|3|4) (?:things|items|points|issues|problems|questions) (?:are |remain |stay |still )*(?:open|left|pending|outstanding|unresolved|to do)\s*[.:]?$|^(?:two|three|four|2|3|4) (?:notes|things|items|points|todos|to-dos) (?:for later|for next time|for another day|for the next session|left for later)\s*[.:]?$|^(?:[\w' -]{0,40}?,? )?(?:two|three|four|2|3|4) (?:things|items|points|issues|problems|questions) remain\s*[.:]?$`)

// OrdinalLead opens an item of a counted list: "One, …", "Second: …".
var OrdinalLead = lazyre.New(`(?i)^(?:one|two|three|four|first|second|third|fourth|[1-4])[,.:)]\s+`)

// TellAsk asks to be told something, with a question word after the
// ask: "look around the repo and tell me how you'd render labels going
// forward" asks for a plan; "going forward" is of the labels, no rule.
var TellAsk = lazyre.New(`(?i)\b(?:tell|show|explain to|walk) (?:me|us)(?: through)? (?:how|what|which|why|where|whether|if)\b`)

// WhAsk is a question asked without its question mark: "What's the dev
// loop, I've never done a mod".
var WhAsk = lazyre.New(`(?i)^(?:so |and |ok,? )?(?:what|how|why|where|which|who)(?:'s|'re| is| are| do| does| did| should| would| can)\b`)

// Fault is a failure told with "never" or "every time", which
// makes no rule: "photos taken on iPhones never arrive", "goes NaN at
// around step 3k, every time", "always after a couple of hours".
var Fault = lazyre.New(`(?i)\b(?:never|always)\s+(?:arrives?|shows? up|loads?|works?|reach(?:es)?|finish(?:es)?|starts?|comes? (?:through|back|in)|gets? (?:through|there)|appears?|fires?|triggers?|succeeds?|completes?)\b|\b(?:goes nan|nans?|crash(?:es)?|fails?|hangs?|breaks?|times? out|resets?|drops?|gets? stuck|freezes)\b[^.;]{0,60}\bevery (?:single )?time\b|\bevery (?:single )?time\b[^.;,]{0,80}\b(?:gets? stuck|freezes|hangs|crashes)\b[^,;]*$|\balways (?:after|around|at about|within) (?:a |an |about |roughly )?(?:couple of |few )?(?:\d+ |one |two |three )?(?:seconds?|minutes?|hours?|days?|layers?|runs?|requests?|prints?|builds?)\b`)

// FirstPerson opens what the speaker did or does: "I replayed the 41 by
// hand", "We now have three Observations".
var FirstPerson = lazyre.New(`(?i)^(?:i|we|i'm|we're|i've|we've|i'll|we'll|my|our)\b`)

// Recap announces the report that follows: "Here's where this landed.",
// "Here's the whole picture.", "The measurements are in."
var Recap = lazyre.New(`(?i)^(?:ok,?\s+|so,?\s+)?(?:here's|here is|this is)\s+(?:where\s+(?:this|it|things|we|everything)\s+(?:landed|stands?|ended up|is|are)|the\s+(?:whole\s+|full\s+|short\s+)?(?:picture|summary|rundown|recap|state of (?:things|play))|what\s+(?:changed|i did|i changed|we have|we've got))\b[^.]{0,20}[.:!]?$|^(?:ok,?\s+|so,?\s+)?(?:the\s+)?(?:new\s+)?(?:measurements?|results?|numbers|figures|benchmarks?|logs?|data|readings?)\s+(?:are|is)\s+(?:in|back|done|clear)[.:!]?$`)

// CountsReasons announces the reasons the next sentences give: "Two
// reasons decide it for me.", "Both can work, but they fail
// differently."
var CountsReasons = lazyre.New(`(?i)^(?:two|three|four|a few|several|a couple of|\d) (?:reasons|arguments|things) (?:decide|decided|settle|settled|tip|tipped|matter|mattered|count)\b[^.]{0,30}[.:]$|^(?:both|either|all three|each) (?:can|could|would|will) work\b[^.;:]{0,50}[.:]$`)

// Weighed is an alternative the speaker says they weighed, with no
// verdict yet: "I thought about running each step as a child workflow,
// which some saga examples do." The verdict follows.
var Weighed = lazyre.New(`(?i)^(?:i|we) (?:thought about|considered|looked at|toyed with|weighed|played with the idea of)\b[^.;:—]*\.?$`)

// NoObject is a verdict that turns down what the sentence before it
// named: "I'd rather not: every child adds its own history …".
var NoObject = lazyre.New(`(?i)^(?:but )?(?:(?:i'd|i would|we'd|we would) rather not|(?:i|we) decided against it|not worth it|(?:i|we) (?:ruled|left) it out)\b`)

// DesignWhy is how a thing is built, said in plain present with why: "The
// add is done in fp32 and the sum goes back into the residual buffer in
// place, because the next block consumes it anyway", "The enclosure
// length in the feed stays the plain file's — apps cope with a different
// size".
var DesignWhy = lazyre.New(`(?i)^(?:the|each|every|all|both|our)\s[^.;:?]{3,120}?\b(?:is|are|goes|go|runs|run|stays|stay|lives|live|uses|use|gets|get|keeps|keep|reads|read|writes|write|holds|hold|skips|skip|takes|take|returns|return|sends|send|waits|wait)\b[^;?]{3,160}?,\s(?:because|since|so that)\s[^;?]{8,}$|^(?:the|each|every|all|both|our)\s[^.;:?]{3,120}?\b(?:goes|go|stays|stay|lives|live|uses|use|keeps|keep|holds|hold|skips|skip)\b[^;?—–]{3,160}?\s[—–]\s[^;?]{8,}$`)

// DesignSo reports whether s tells how a thing is built with what it
// keeps from happening: "Outputs are written under a per-attempt prefix
// and the master playlist is copied into place last, so players never
// see half a ladder.", "Each feed carries podcast:locked with the show's
// owner email so nobody else can import it into another host." "…, so
// you can merge" reports a state to the user.
func DesignSo(s string) bool {
	var who string // what the purpose speaks of: "players", not "you"
	if m := designSo.FindStringSubmatch(s); m != nil {
		who = m[1]
	} else if m := doesSo.FindStringSubmatch(s); m != nil && !notDoer[strings.ToLower(m[1])] && !notDoer[strings.ToLower(m[2])] {
		who = m[3]
	} else {
		return false
	}
	return !strings.EqualFold(who, "you") && !strings.EqualFold(who, "we") && !strings.EqualFold(who, "i")
}

var designSo = lazyre.New(`(?i)^(?:(?:the|each|every|all|both|our)\s|[a-z][\w-]*s\s)[^.;:?]{3,120}?\b(?:is|are)\s[^;?]{3,160}?,\s(?:and\s)?so\s(?:(?:the|a|an|every|each|no)\s)?([a-z][\w-]*)\s(?:never|always|only|can|cannot|can't|don't|won't|doesn't|do not|does not)\b|^(?:each|every)\s[\w-]+\s(?:[a-z]+s)\s[^;?]{3,160}?\sso\s(?:that\s)?(nobody|no one|noone|nothing|no \w+)(?:\selse)?\s(?:can|could|will|ever)\b`)

// doesSo is a thing named by its name that is given a value in code so
// that something else does not happen: "Caddy … proxies `/events/*` with
// `flush_interval -1` so SSE events aren't held in a buffer." Its groups
// are the thing, its verb and what the purpose speaks of.
var doesSo = lazyre.New(`(?i)^([\w.-]+)\s[^.;:?]{0,120}?\b([a-z]+s)\s[^;?]{0,160}?\b(?:with|to|at|as|via|using)\s` + "`[^`]+`" + `[^;?]{0,80}?,?\sso(?: that)?\s(?:(?:the|a|an|every|each|no)\s)?([a-z][\w-]*)(?:\s[a-z][\w-]*)?\s(?:never|always|only|can't|cannot|don't|won't|doesn't|do not|does not|aren't|isn't|are not|is not)\b`)

// notDoer are the first words and verbs doesSo does not take for a thing
// and what it does: "The error is `nil` here, so …" reports, "Postgres
// has `max_connections = 100` set, so …" tells what is.
var notDoer = prose.WordSet(`it this that there the a an we you i they he she its is was has does goes seems looks`)

// BehaviourIf is what a thing does in a case, with the value it gives:
// "If the API is down or answers 5xx the hook exits 75 (EX_TEMPFAIL), so
// Postfix keeps the DSN in its queue".
var BehaviourIf = lazyre.New(`(?i)^(?:if|when|whenever)\s[^.;?]{5,100}?\b(?:exits?|returns?|retries|answers|falls back|closes|replies|responds|rejects|drops|fails over)\b(?:\s+(?:with|to|on|after|at))?\s+(?:code\s+|status\s+)?` + "`?" + `\d[^;?]*$`)

// CodeAssign is a setting given in code with its value, which a sentence
// about what it does holds: "`disable_mime_output_conversion = yes` in
// main.cf stops the rewriting".
var CodeAssign = lazyre.New("^`[A-Za-z_][\\w.-]*\\s*=\\s*[^`\\s][^`]*`\\s+(?:in|on)\\s")

// TimeLead is a time said before a sentence's subject: "Until now Fiona
// did them in one giant Excel workbook", "So far the job runs nightly".
var TimeLead = lazyre.New(`^(?i:until now|till now|up to now|so far|by now|these days|nowadays|right now|for now|at the moment|currently|today|last (?:year|month|week)|this (?:year|month|week)|twice a (?:year|month))\b,?\s+`)

// FrontedPhrase is a phrase that opens a sentence before its subject:
// "For MTA-STS domains (Gmail and Outlook publish it) the resolver
// answers on 127.0.0.1:8461."
var FrontedPhrase = lazyre.New(`^(?i:for|on|in|with|at|from|behind|inside)\s[^.;:()]{2,80}?(?:\([^)]*\)\s+|,\s+)`)

// FineChoice reports whether s names a thing as good enough ("plain
// database/sql is fine"), not a pronoun ("that is fine") or what a check
// found ("Numerics are fine.").
func FineChoice(s string) bool {
	loc := fineRE.FindStringSubmatchIndex(s)
	if loc == nil || troubleBefore.MatchString(s[:loc[0]]) && !topicLead.MatchString(s) {
		return false // "Lincoln and Oak are full of errors since Friday, HHS is fine": which site is well, no choice
	}
	m := []string{s[loc[0]:loc[1]], s[loc[2]:loc[3]]}
	switch strings.ToLower(strings.Fields(m[1])[0]) {
	case "it", "that", "this", "which", "everything", "all", "both", "either", "what", "there", "here", "the", "one", "yours", "mine", "other", "others", "everyone", "everybody", "most", "some":
		// "Other patrons are fine": who is not hit, no choice
		return false
	}
	// "Numerics are fine.", "the tests are fine", "The hotend is fine, I
	// checked the wiring": a check's verdict. "SQLite is fine for this,
	// we tested it" is a choice the check argues for.
	f := strings.Fields(strings.ToLower(m[1]))
	return !checked[f[len(f)-1]] && !(strings.HasPrefix(strings.ToLower(strings.TrimLeft(m[0], ",.; ")), "the ") && checkedBy.MatchString(s))
}

// checked are what a check finds fine: no choice. "Garmin ones are fine"
// says which of them are not hit.
var checked = prose.WordSet(`numerics numeric tests test results result numbers logs log metrics output outputs
	builds build checks values benchmarks benchmark diffs diff counts timings syntax wiring types lint
	coverage formatting signatures checksums temperatures temps ones`)

// checkedBy is the speaker telling the check that found it fine.
var checkedBy = lazyre.New(`(?i)\b(?:i|we)(?:'ve| have)? (?:checked|tested|verified|measured|inspected|looked at)\b`)

// troubleBefore is a clause that reports trouble somewhere else, which
// a thing that is fine is set against.
var troubleBefore = lazyre.New(`(?i)\b(?:full of|throw(?:s|ing)?|get(?:s|ting)?|got|hit(?:s|ting)?|show(?:s|ing)?|see(?:s|ing)?|log(?:s|ging)?)\s+(?:\w+\s+){0,2}(?:errors?|timeouts?|failures?|alarms?|crash(?:es)?)\b|\b(?:fail(?:s|ed|ing)|crash(?:es|ed|ing)|(?:is|are|was|were|went|goes) (?:down|offline|broken)|timed out|times out)\b`)

// topicLead opens a sentence with its topic or its case, not a report:
// "For error handling, …", "When the primary is down, …".
var topicLead = lazyre.New(`(?i)^(?:for|when|if|once|while|whenever|on|about|as for)\b`)

// FaultShows is a thing said never to show or list what it should: "berth
// 14 never shows anybody". A rule asks for the same in other words
// ("please make sure the API never lists soft-deleted records").
var FaultShows = lazyre.New(`(?i)\bnever\s+(?:shows|displays|lists|updates|refreshes)\b`)

// fineRE is a choice stated as good enough: "plain database/sql is
// fine".
var fineRE = lazyre.New(`(?i)(?:^|[,.;]\s+)(?:plain |just |simple |a |the )?([\w/.-]+(?: [\w/.-]+)?) (?:is|are) (?:fine|enough|good enough|sufficient|all we need)\b`)

// remarkLead opens a remark with what it is about, up to its colon:
// "One thing worth saying about the choice itself, since you asked
// whether to go grblHAL instead: the reason FluidNC is …", "One thing I
// care about: keep durations as integer minutes everywhere".
var remarkLead = lazyre.New(`(?i)^(?:(?:one (?:more |other )?thing|something) (?:(?:that's |that is )?worth (?:saying|explaining|adding|mentioning)|to (?:say|explain|add|mention)) about [^:]{1,160}|(?:(?:the )?one (?:more |other )?thing|the (?:only|main) thing|something|what) (?:i|we) (?:really |do |still )?(?:care about|insist on)(?: (?:most|here|a lot))?):\s+`)

// Remark is s without a remark's lead-in, when what follows its colon
// says something of its own: what the remark says is what a decision,
// an outcome or a detail holds, however it was opened.
func Remark(s string) string {
	if m := remarkLead.FindStringIndex(s); m != nil && len(s)-m[1] > 20 {
		return prose.Capitalize(s[m[1]:])
	}
	return s
}
