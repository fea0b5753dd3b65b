package open

import (
	"github.com/cairn-mem/cairn/internal/quote"
	"math"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
)

// What a session left to do goes stale once a later session deals with
// it, and a later session seldom repeats most of its words: "let's do the
// retry delay now" answers "tomorrow I'll add a retry delay with backoff
// in internal/queue/retry.go". So an open item is matched by its
// distinctive words, the ones rare in this memory (by inverse document
// frequency over the sessions' summaries), against each later session.

// todoMark matches a sentence that states work still to do.
var todoMark = lazyre.New(`(?i)\b(tomorrow|next (time|session|up|step)|still (open|to do|to fix|to be|needs?|has to|have to|missing|pending)|remaining|to-?do|not (done|finished) yet|yet to|plan for|follow-up|left to do|(?:nothing|else|still|work|items?) pending|(?:left|leave|kept|keep|parked|saved?) for later|later:|(?:is|are|'s) (?:the )?(?:obvious |natural |logical )?next(?: thing| step| task| piece| bit| job)?|(?:has|have|shows?) the same (?:pattern|problem|bug|issue|flaw|mistake)|(?:stays?|remains?) (?:that way|as it is|like this|on hold|paused|frozen) until|hold(?:s|ing)? off\b[^.;]{0,80}\buntil|wait(?:s|ing)? until|(?:also )?on (?:my|our|the) (?:list|to-?do list)|(?:they|it|this|that|these|those) needs? (?:\w+ing|to be)|has to be|have to be|i'll [^.;]* (later|next)|(?:i'd|we'd|i would|we would) (?:look at|look into|tackle|deal with|do|fix|handle|try)\b[^.;]{0,30}\bnext\b|we should [^.;]* (later|next time|before)|wait(?:s|ing)? (?:for|on)|blocked (?:on|by)|(?:not|no|don't|haven't|hasn't|isn't|aren't|doesn't)\b[^.;]{0,60}\byet(?:[.;,)!]|$)|we (?:still )?need to|needs? (?:a|an|one more|another) (?:new )?(?:step|script|check|test|fix|migration|job|task)\b|(?:nobody|no one) (?:has )?decided|undecided|not (?:yet )?decided|(?:still|is|as) an open (?:question|point)|open questions? (?:on|for|with|from)\b|(?:we'll|we will|i'll|i will) (?:know|see|hear|find out) (?:more )?(?:then|after|once|when|by|on|next)\b)\b`)

// IsTodo reports whether s states work still to do.
func IsTodo(s string) bool {
	if strings.Contains(s, "morrow's") {
		s = dayAsPlace.ReplaceAllString(s, "")
	}
	s = whileWaiting.ReplaceAllString(s, "")
	return todoMark.MatchString(s) || awaits.MatchString(s) || nextSaid.MatchString(s) || hasTo.MatchString(s) || weNeedA.MatchString(s) && !becauseRE.MatchString(s) || missing.MatchString(s) || laterWork(s)
}

// whileWaiting is what was done while something else ran, no wait left:
// "I rewrote the runbook's queries while waiting for the parity run".
var whileWaiting = lazyre.New(`(?i)\b(?:while|whilst) (?:i was |we were |i'm |we're )?waiting(?: (?:for|on) [^,:;.]{1,60})?`)

// laterWork reports whether s states work left in one of the forms
// below, each of which a later session's work made stale in a pack.
// What they leave out: a rule ("I'd like to keep …"), a state until an
// event ("until the cache has warmed up"), a past step ("after that we
// switched").
func laterWork(s string) bool {
	for _, re := range []*lazyre.Regexp{wished, waitsOnWork, notSince, notYetEnd, underWay, onArrival, afterThat, neededBy, releasePlan, planned, suspected, handIn, gapSaid, fetches} {
		if re.MatchString(s) {
			return true
		}
	}
	for _, re := range []*lazyre.Regexp{promised, visits} {
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			if !notPerson[strings.ToLower(m[1])] {
				return true
			}
		}
	}
	return false
}

// notPerson are capitalised words before "will" that name no one: "It
// will run on Sunday".
var notPerson = prose.WordSet(`it this that there these those what which everything nothing something`)

// weekday and month name a day or a month in an expression.
const (
	weekday = `monday|tuesday|wednesday|thursday|friday|saturday|sunday`
	month   = `january|february|march|april|may|june|july|august|september|october|november|december`
)

// promised is work someone is to do on a day to come: "Alan will measure
// one on Thursday", "Priya's going to send the list next week", "he's
// sending me his list next week", "I'll ask them by Friday". The day is
// one day ("on Thursday", not "on Thursdays", which is a schedule), and
// the one who does it is a person, by name or pronoun (notPerson): "the
// cron will run on Sunday" and "it will run on Sunday" are no promise.
var promised = lazyre.New(`(?:\b((?-i:[A-Z][a-z]+))|(?i:\b(?:i|we|he|she|they|you)))(?i:'ll|'s going to| will| is going to| are going to| am going to| is to| are to| promised to|(?:'s|'re| is| are) (?:sending|bringing|delivering|coming|checking|measuring|getting|writing|fixing|testing|visiting|calling|installing|replacing|ordering)\b)\s*(?i:[^.;?!]{1,60}?)(?i:\b(?:on (?:` + weekday + `)\b(?:[^s]|$)|tomorrow|next (?:week|month|` + weekday + `)|this (?:week|afternoon|evening|weekend)|by (?:` + weekday + `|tomorrow|the end of (?:the|this|next) (?:week|month|day))))`)

// visits is someone to come on a day, said in the present: "Jonas comes
// Thursday with the ACE Service Installer to point the twelve chargers
// at our server". The one who comes is a person (notPerson): "it comes
// Monday" is a delivery, which awaitsDelivery reads.
var visits = lazyre.New(`\b((?-i:[A-Z][a-z]+))(?i: (?:comes|visits|drops by|stops by|comes (?:over|in|round|by)|is (?:in|here|back)) (?:on |this |next )?(?:` + weekday + `|tomorrow|week|weekend))\b(?:[^s]|$)`)

// planned is what someone wants or plans to do on a day to come, and
// what to do then: "Tariq and I want to do a witness cone firing this
// weekend to check the calibration", "For the weekend: put cones 5, 6
// and 7 on a middle shelf …". Not a schedule ("on Thursdays") and not
// what was done ("over the weekend the disk filled up").
var planned = lazyre.New(`(?i)\b(?:want|wants|plan|plans|planning|intend|intends|hope|hoping|going) to\b[^.;?!]{1,60}?\b(?:this (?:week|weekend|afternoon|evening)|next (?:week|weekend|month|` + weekday + `)|tomorrow|on (?:` + weekday + `)(?:[^s]|$))|^for (?:the weekend|this weekend|tomorrow|next week|` + weekday + `)\s*[:,]`)

// suspected is a cause guessed and not yet checked, which a newer
// session that names its thing confirmed or ruled out: "The double peak
// on Y smells like loose belts tbh", "I suspect the PSU", "The Y double
// peak typically means the two belts … aren't at the same tension". Not
// a guess in passing, which tells what a finding looks like ("it failed
// twice, 813 ms instead of 800, which smells like real time read in a
// virtual-time test"): the finding is what to keep.
var suspected = lazyre.New(`(?i)^[^,;:]{0,80}?\b(?:smells like|i suspect|we suspect|my (?:guess|hunch|suspicion) is|(?:typically|probably|most likely) (?:means|points to|indicates))\b`)

// handIn is what the agent waits for the user to hand over: "Send me
// the Svalbard reports that throw when you have them", "paste the
// output once you've run it". The session that has them names them.
var handIn = lazyre.New(`(?i)^(?:please |just )?(?:send|forward|paste|share|mail|email|give) (?:me|us)\b[^.;?!]{0,80}?\b(?:when|once|as soon as|if) you\b`)

// fetches is what the user is to bring: "Megan has a sheet with field
// availability per park, I'll get it from her", "There's an old ThinkPad
// in the office, I'll dig it out". The session that has it names it.
var fetches = lazyre.New(`(?i)\bi(?:'ll| will) (?:get|fetch|dig|bring|grab|send|pull|find) (?:it|them|that|one|those) (?:from (?:her|him|them|(?-i:[A-Z])\w+)|out|over|in)\b`)

// gapSaid is a lack named as what a thing still misses: "One gap in
// the walk-forward report: it has per-fold returns … but not per-fold
// turnover", "Rev B list so far: separate 5.1k on CC1 and CC2, …" (the
// changes gathered for a next revision).
var gapSaid = lazyre.New(`(?i)^(?:one|the one|the only|another|a|the) (?:gap|hole|missing piece)\b[^.:;]{0,60}:|^[^.:;]{0,40}\blist so far\s*:`)

// releasePlan is a release still to make, by its version: "I'll prepare
// 0.3.0: version in Cargo.toml, changelog …", "we'll tag v2.1.0 on
// Monday".
var releasePlan = lazyre.New(`(?i)\b(?:i'll|we'll|i will|we will|let's|going to) (?:prepare|tag|release|publish|cut|ship|push out) (?:the )?v?\d+\.\d+(?:\.\d+)?\b`)

// neededBy is a thing someone needs or must get done before a day or a
// month: "Ute needs signed paper mandates from the two before March".
var neededBy = lazyre.New(`(?i)\b(?:needs?|has to|have to|must) [^.;?!]{1,80}?\bbefore (?:` + month + `|` + weekday + `|next (?:week|month))\b`)

// wished is work left said as a wish: "I'd like to add a fake handler
// …", "One thing I'd still like: …".
var wished = lazyre.New(`(?i)\b(?:i'd|we'd|i would|we would) (?:still )?like to (?:add|write|build|set up|try|wire up|cover|test|tag|release|publish|ship|cut)\b|\b(?:i'd|we'd) still like\b`)

// waitsOnWork is a wait for someone's work: "Until Dana has created the
// OIDC provider, …", "until they regenerate, …", "Billing still owes us
// the list of public holidays".
var waitsOnWork = lazyre.New(`(?i)\bstill owes? (?:us|me|you)\b|^(?:and |but |so )?until [^,;]{1,80}?\b(?:has|have) (?:created|added|set up|built|made|sent|written|fixed|released|merged|deployed|installed|enabled|approved|signed)\b|^(?:and |but |so )?until (?:they|we|you|he|she|someone|somebody) (?:regenerate|rebuild|rerun|update|upgrade|migrate|fix|add|create|ship|release|merge|deploy)\s*,`)

// notSince is a thing nobody did since a change: "Nobody has built it
// since".
var notSince = lazyre.New(`(?i)\b(?:nobody|no one) (?:has|have) (?:built|run|tested|tried|rebuilt|checked|deployed|released|updated|signed) (?:it|them|this|that) since\s*[,.;]`)

// notYetEnd is what is not done or cannot work yet: "The Open VSX side
// can't work yet", "Openfields hasn't created them yet, …". todoMark
// has "not … yet" too, but there the \b after its group never holds
// after the punctuation that ends "yet," or "yet.".
var notYetEnd = lazyre.New(`(?i)\b(?:not|no|none|don't|haven't|hasn't|isn't|aren't|doesn't|didn't|can't|cannot|won't|couldn't)\b[^.;]{0,60}\byet(?:[.;,)!]|$)`)

// underWay is work under way, whose end a later session reports: "The
// search reindex is the one thing still running".
var underWay = lazyre.New(`(?i)\b(?:is|are) (?:the (?:one|only) thing )?still (?:running|in progress|under way|underway|syncing|building|uploading|copying|indexing|reindexing|migrating)\b`)

// onArrival is what is to be done once a thing someone is to send
// arrives: "When they arrive the first bring-up checks are …", "— once
// Dale's list arrives we add HHS", "We'll wire that in when it arrives",
// "Once Julien's Karoo files arrive they go into tests/fixtures/". Not
// what code does when a thing arrives ("When the request arrives, the
// handler checks …", "when the packets arrive they are queued").
var onArrival = lazyre.New(`(?i)(?:^|[,;:—–]\s*|\b(?:and|so)\s+)(?:when|once|as soon as) (?:[^,;.]|\.\d){1,40}?\b(?:arrives?|arrive|comes? in|lands?|gets? here|is here|are here|is delivered|are delivered|is out|are out|is released|ships|is published|is live)\b,?\s+(?:we|i|the first)\b|\b(?:we'll|i'll|we will|i will) [^.;]{1,40}\b(?:when|once|as soon as) [^,;.]{1,30}?\b(?:arrives?|comes? in|lands?|is here|are here)\b|(?:^|[,;:—–]\s*)(?:when|once|as soon as) (?:his|her|their|our|(?-i:[A-Z])\w+'s) (?:[^,;.]|\.\d){1,40}?\b(?:arrive|come in|land|get here|are here|are delivered)\b,?\s+(?:they|these|those)\b`)

// afterThat is what comes once something else is done: "after that we
// rerun".
var afterThat = lazyre.New(`(?i)\bafter (?:that|this)(?: (?:is|are) (?:done|in|up|live|merged))?,? (?:we|i)(?:'ll| will| can)? (?:rerun|retest|retry|remeasure|redeploy|recheck|reindex|rebuild|run|try|test|deploy|merge|ship|switch|measure|check)\b`)

// dayAsPlace is tomorrow's thing named as where or when something is
// not wanted or was before, no work planned: "I want to know within
// minutes, not in tomorrow's digest".
var dayAsPlace = lazyre.New(`(?i)\b(?:in|than|from|of|not)\s+tomorrow's\s+\w+`)

// awaits is a stopgap that holds until something comes or someone
// decides: "the second is backordered for about two weeks, so FV5-FV8
// stay on the CraftBeerPi until it arrives", "I'll leave it at 5 until
// he decides", "the merchant has to approve the GitHub app … first",
// "I'll call our ZKB adviser about single booking", "Until Kate's list
// arrives, object pages are built without images".
var awaits = lazyre.New(`(?i)\b(?:i'll|i will|we'll|we will) (?:call|check with|talk to|email|ping|phone|contact|chase|nag|remind)\b|\b(?:the \w+|someone|somebody|(?-i:[A-Z])\w+) (?:has|have|needs?) to (?:approve|sign off on|confirm|accept|grant|install|enable|create|decide on)\b[^.;]{0,80}\bfirst\b|` + cue.UntilDecidesRE + `|\b(?:back-?ordered|on back-?order)\b|^until (?:[^,;]{1,80}?)\b(?:arrives?|comes? in|ships?|lands?|is (?:here|in|ready|signed)|are (?:here|in|ready)|tells? us|decides?|confirms?|sends? (?:it|them|the \w+))\b(?:,|$)|\b(?:stays?|remains?|keeps? running|runs?) (?:on|with|in|at|from) [^.;]{1,50}\buntil (?:it|they|the|we|our|that|this)\b[^.;]{0,40}\b(?:arrives?|comes?|ships?|lands?|is (?:here|in|delivered|fixed|replaced|back)|are (?:here|in|delivered|fixed|replaced|back))\b`)

// missing is work left said as what is not there: a label ("Open item
// before we can ship anything for macOS: …"), a thing not set up
// ("notarization isn't set up"), a credential still to get, which ends
// the sentence ("CI needs a `BUF_TOKEN` secret", not "needs a token to
// push the tag, which it reads from TAP_TOKEN").
var missing = lazyre.New(`(?i)^open (?:item|point|question|issue|task)s?\b[^.:;]{0,60}:|\b(?:isn't|is not|aren't|are not) (?:set up|configured|wired up|hooked up|in place|automated)\b|\bneeds? (?:a|an) (?:\S+ ){0,2}(?:secret|token|api key|key pair|certificate|cert|credentials?|licen[cs]e|sign-?off|approval)[.!]?$`)

// nextSaid names what comes next: "Next: audio loudness, people
// complain …", "Next would be input shaping", "take a log … so we can
// look at vibration next".
var nextSaid = lazyre.New(`(?i)(?:^|[.;!]\s+)(?:and |then |so )?next(?:\s*:\s*[^\s\d]|\s+(?:would be|will be|i'd like|please)\s)|\b(?:so|then|and) (?:we|i) (?:can|could) [^.;]{1,60}\bnext(?:$|[.;,!)]|\s+[—–-])`)

// weNeedA is something still missing, "we need a fixture with an odd
// width", "we need the groups for sales", "we really should have an
// invariant test", unless the sentence says why it is there ("we need a lock
// because two writers race"): a purpose ("so the stride path is
// exercised") is what the missing thing is for.
var weNeedA = lazyre.New(`(?i)\bwe (?:still |really )?(?:need|should have|should add|should write) (?:a|an|the|some)\b`)

// becauseRE gives the reason a thing is there: what is needed for a
// reason is in place, not missing.
var becauseRE = lazyre.New(`(?i)\b(?:because|since)\b`)

// hasTo is work a clause of its own says must still be done: "(it has to
// run against the Deploy KV too)", not a reason ("because they have to
// exist first").
var hasTo = lazyre.New(`(?i)(?:^|[,;:(])\s*(?:it|this|that|someone|somebody) (?:still )?(?:has|have) to (?:run|be (?:run|done|fixed|deployed|applied|migrated)|go|happen)\b`)

// todoWords are the words of a to-do statement that say it is one, or
// how it came up ("I've noticed the list feels slow"), not what it is
// about.
var todoWords = change.KeySet(`tomorrow next time session up step still open remaining todo do done later plan
	left ll add fix need needs have has be first thing morning today yesterday list item items
	pending nothing else except leave park parked question questions
	notice noticed feel feels felt seem seems seemed look looked looking think guess wonder wondering
	haven hasn isn aren didn doesn wasn weren won`)

// fnWords are words of a to-do that say how it is put, not what it is
// about ("… next week unless you want to", "Separately, the T46Us are
// …", "both are small"), or how work left is put in any project ("wait
// for", "worth a look", "doesn't exist yet", "the next piece", "didn't
// touch"): a session that did the work has no reason to say them, and
// as the to-do's rarest words they kept it from meeting the session that
// did. Made by change.Keys, as Distinct's keys are.
var fnWords = change.Keys(`unless separately though although really actually probably maybe perhaps anyway instead otherwise whether since small quick easy like rather whatever meanwhile besides
	wait see without side exist worth start know piece stay touch anything something someone somebody right way whose almost plus goes become remind caveat different second real much`)

// Vocab holds how many sessions use each key, and what it read of each
// summary: every open item of the older sessions is checked against the
// newer ones, so each is read once.
type Vocab struct {
	df   map[string]int
	n    int
	read map[*digest.Summary]*reading
	// quoted is what the summaries quote as no longer true, by the
	// newest that does (digest.Untrue).
	quoted quote.Set
	// todo holds IsTodo's answers: a pack asks it of the same sentences
	// for each newer session, a quarter of a pack's time when it did not
	// remember them.
	todo map[string]bool
}

// IsTodo is open.IsTodo, each sentence read once a pack.
func (v *Vocab) IsTodo(s string) bool {
	t, ok := v.todo[s]
	if !ok {
		t = IsTodo(s)
		v.todo[s] = t
	}
	return t
}

// Quoted reports whether a summary newer than the k-th, of those v was
// made of (newest first), quotes s as no longer true.
func (v *Vocab) Quoted(s string, k int) bool {
	at, ok := v.quoted.At(s)
	return ok && at < k
}

// reading is what a Vocab read of one summary, each part once asked.
type reading struct {
	mentions, back, asked map[string]bool
	// sents are what mentions read, sentence by sentence.
	sents []sentence
	fixed int // 0 not yet known, 1 yes, -1 no
	// reports are the keys of each thing the summary reports done, in or
	// sorted (doneReports); allDone the keys its changed files name when
	// it says all the work left is done (allDoneKeys). nil: not read yet.
	reports []map[string]bool
	allDone map[string]bool
	// arrivals are the keys of its sentences that say a thing came.
	arrivals []map[string]bool
	// ended are the things it names by a number and says are done,
	// gone or explained (endedIdents). nil: not read yet.
	ended map[string]bool
}

// NewVocab counts the keys of the sessions' summaries.
func NewVocab(sums []*digest.Summary) *Vocab {
	v := &Vocab{df: make(map[string]int), n: len(sums), read: make(map[*digest.Summary]*reading), quoted: digest.Untrue(sums), todo: make(map[string]bool)}
	for _, d := range sums {
		for k := range allKeys(d) {
			v.df[k]++
		}
	}
	return v
}

// of is what v read of d so far.
func (v *Vocab) of(d *digest.Summary) *reading {
	r := v.read[d]
	if r == nil {
		r = &reading{}
		v.read[d] = r
	}
	return r
}

func (v *Vocab) idf(k string) float64 {
	return math.Log(1 + float64(v.n+1)/float64(v.df[k]+1))
}

// maxDistinct is how many of its rarest words stand for an open item.
const maxDistinct = 3

// Distinct returns the keys of s, rarest first, leaving out the words
// that only say it is a to-do.
func (v *Vocab) Distinct(s string) []string {
	var ks []string
	for k := range change.Keys(s) {
		if !todoWords[k] && !fnWords[k] && len(k) > 2 {
			ks = append(ks, k)
		}
	}
	for _, c := range lex.Compounds(s) {
		if k := lex.Key(c); !slices.Contains(ks, k) {
			ks = append(ks, k) // "the rig blacked out" is about the blackouts
		}
	}
	sort.Slice(ks, func(i, j int) bool {
		a, b := v.idf(ks[i]), v.idf(ks[j])
		if a != b {
			return a > b
		}
		if len(ks[i]) != len(ks[j]) {
			return len(ks[i]) > len(ks[j])
		}
		return ks[i] < ks[j]
	})
	return ks
}

// Refers reports whether text (its keys) is about the statement of
// keys d (rarest first): it holds two of them (one if d has one), whose
// weight is at least 0.4 of that of d's maxDistinct rarest. A later
// session names a thing by a few of its rare words, seldom by most of
// its words.
func (v *Vocab) Refers(d []string, text map[string]bool) bool {
	if len(d) == 0 {
		return false
	}
	var got, all float64
	n := 0
	for i, k := range d {
		w := v.idf(k)
		if i < maxDistinct {
			all += w
		}
		if text[k] {
			got += w
			n++
		}
	}
	return n >= min(2, len(d)) && got >= 0.4*all
}

// named are the keys of s's words, and of what a later session names a
// thing by in code: the words of "input_shaper.cfg" and the thing that
// "shaper" does, so that it names "input shaping is next".
func named(s string) map[string]bool {
	ks := change.Keys(s)
	for _, c := range lex.Compounds(s) {
		ks[lex.Key(c)] = true // "blacked out" names the blackouts
	}
	for w := range lex.ContentWords(s) {
		if strings.Contains(w, "_") {
			for _, part := range strings.Split(w, "_") {
				if len(part) > 2 && !lex.StopWords[part] {
					ks[lex.Key(part)] = true
				}
			}
		}
	}
	var doing []string // "shaper" for "shaping"
	for w := range ks {
		if len(w) > 5 && strings.HasSuffix(w, "er") {
			doing = append(doing, lex.Key(w[:len(w)-2]+"ing"))
		}
	}
	for _, k := range doing {
		ks[k] = true
	}
	return ks
}

// allKeys are the keys of everything a session's summary says, for the
// document frequency.
func allKeys(d *digest.Summary) map[string]bool {
	ks := make(map[string]bool)
	for _, p := range d.Parts {
		for _, b := range p {
			for k := range change.Keys(b) {
				ks[k] = true
			}
		}
	}
	for _, o := range d.Open {
		for k := range change.Keys(o) {
			ks[k] = true
		}
	}
	return ks
}

// mentions are the keys of what a session says of its work, the
// sentences that leave work to do apart: what a later session says of an
// open item, whether it dealt with it or said again that it is open
// (then its own statement is the newest).
func (v *Vocab) mentions(d *digest.Summary) map[string]bool {
	r := v.of(d)
	if r.mentions == nil {
		r.mentions = make(map[string]bool)
		for p, bullets := range d.Parts {
			if p == digest.Commands || p == digest.Read || p == digest.Errors {
				continue
			}
			for _, b := range bullets {
				for _, x := range digest.Sentences(b) {
					if p == digest.Request || !v.IsTodo(x) {
						ks := named(x)
						for k := range ks {
							r.mentions[k] = true
						}
						r.sents = append(r.sents, sentence{ks, keySeq(x)})
					}
				}
			}
		}
		// An item it says again is open is its own, newer statement.
		for _, o := range d.Open {
			ks := named(o)
			for k := range ks {
				r.mentions[k] = true
			}
			r.sents = append(r.sents, sentence{ks, keySeq(o)})
		}
	}
	return r.mentions
}

// bare reports whether the to-do clause c asks for a thing by too few
// words to be known alone: "— we need an off-node copy" after "they sit
// only on cp1's local disk, so losing cp1 loses the snapshots too". What
// it is for is what the clauses before it say, and the session that did
// the work names that; the lack they tell goes with it. Only a thing
// asked for: "tomorrow: auth" after a port says nothing of the port.
func bare(c string) bool {
	if !weNeedA.MatchString(c) {
		return false
	}
	n := 0
	for k := range change.Keys(c) {
		if !todoWords[k] && !fnWords[k] && len(k) > 2 {
			n++
		}
	}
	return n <= 2
}

// DropDone returns s without the sentences that state work still to do
// which done says was dealt with; of a sentence whose to-do is a later
// clause, the clauses before it stay ("never pull moment back in — we
// still need a DST test"), what follows it explains the to-do and goes
// with it. "" if nothing is left.
func (v *Vocab) DropDone(s string, done func(todo string) bool) string {
	var kept []string
	cutLast := false  // the sentence before lost its to-do
	goneLast := false // and went whole
	for _, x := range digest.Sentences(s) {
		if !v.IsTodo(x) {
			if goneLast && digest.EndsOnIt(x) {
				// "Write rate.go: File has not been read yet. Read it
				// first before writing to it.": what "it" was is gone.
				continue
			}
			kept = append(kept, x)
			cutLast, goneLast = false, false
			continue
		}
		if cutLast && itTodo.MatchString(x) {
			// "Billing still owes us the holiday list. We'll wire that
			// in when it arrives.": its work is the one before it.
			continue
		}
		if !cutLast && len(kept) > 0 && itTodo.MatchString(x) {
			// "… so VQSR won't work; we need hard filters. can you do
			// that tomorrow": the work is the last clause of the
			// sentence before, which goes with it once done; what that
			// sentence says before it stays.
			cs := clauses(kept[len(kept)-1])
			if last := strings.TrimSpace(cs[len(cs)-1]); done(last + " " + x) {
				head := strings.TrimRight(strings.Join(cs[:len(cs)-1], ""), " ,;:—–-")
				if head != "" {
					kept[len(kept)-1] = head + "."
				} else {
					kept = kept[:len(kept)-1]
				}
				cutLast, goneLast = true, head == ""
				continue
			}
		}
		var rest strings.Builder
		cut := false
		for _, c := range clauses(x) {
			if v.IsTodo(c) && done(c) {
				cut = true
				break
			}
			if v.IsTodo(c) && (thatTodo.MatchString(strings.TrimSpace(c)) || itTodo.MatchString(strings.TrimSpace(c)) || bare(c)) && done(x) {
				// "Nothing backs up ha/config yet; that's the next
				// thing I'd do", "Gareth has the 2026 rate card as a
				// PDF; I'll nag him to send it over": the to-do is what
				// the clauses before it say.
				rest.Reset()
				cut = true
				break
			}
			rest.WriteString(c)
		}
		cutLast = cut
		t := strings.TrimSpace(rest.String())
		goneLast = cut && strings.Trim(t, " ,;:—–-") == ""
		if cut {
			if t = strings.TrimRight(t, " ,;:—–-"); t != "" {
				t += "."
			}
		}
		if t != "" {
			kept = append(kept, t)
		}
	}
	out := strings.Join(kept, " ")
	if digest.OnlyAside(out) {
		return ""
	}
	return out
}

// MentionedLater reports whether a summary newer than sums[k] (they are
// newest first) mentions the item todo of distinctive keys d in a
// sentence (mentioned), or asks for it by pointing back (askedBack).
func (v *Vocab) MentionedLater(todo string, d []string, sums []*digest.Summary, k int) bool {
	for _, later := range sums[:k] {
		if v.mentioned(todo, d, later) || gotRidOf(d, later) {
			return true
		}
	}
	return v.askedBack(d, sums[:k])
}

// gotRidOf reports whether later says the thing the to-do of
// distinctive keys d is most about is gone: "the modular SATA cables
// came, splitter's in the bin" for "the other three drives are still on
// that 4-way splitter"; "src/spool.js and its test are gone" (said in
// passing, a detail) for "the spool has no size limit".
func gotRidOf(d []string, later *digest.Summary) bool {
	if len(d) == 0 {
		return false
	}
	for _, b := range slices.Concat(later.Parts[digest.Request], later.Parts[digest.Outcome], later.Parts[digest.Decisions], later.Parts[digest.Details]) {
		for _, x := range digest.Sentences(b) {
			if strings.HasSuffix(x, "?") || notYet.MatchString(x) {
				continue // "I haven't thrown out the splitter yet", "Before we got rid of it, …?"
			}
			for _, m := range binned.FindAllStringSubmatch(x, -1) {
				for k := range change.Keys(m[1] + m[2] + " " + m[3]) {
					if slices.Contains(d, k) {
						return true
					}
				}
			}
		}
	}
	return false
}

// ClosedLater reports whether a session newer than sums[k] (newest
// first) closed the open item todo of distinctive keys d: mentioned it,
// wrote the file it missed, decided the question it left, reported its
// thing done or ended (saidDone), or said so of another open item of
// sums[k] about the same thing (siblingClosed).
func (v *Vocab) ClosedLater(todo string, d []string, sums []*digest.Summary, k int) bool {
	return v.closedLater(todo, d, sums, k) || v.siblingClosed(todo, sums, k)
}

// closedLater is ClosedLater of the item alone.
func (v *Vocab) closedLater(todo string, d []string, sums []*digest.Summary, k int) bool {
	return v.MentionedLater(todo, d, sums, k) || v.saidDone(todo, d, sums[:k])
}

// saidDone reports whether a newer session (of newer) says the item
// todo, of distinctive keys d, is done in so many words: it wrote the
// file it missed, decided its question, reported its thing done or
// ended. A mention alone may only say the item again, or share two of
// its words by chance.
func (v *Vocab) saidDone(todo string, d []string, newer []*digest.Summary) bool {
	return CreatedLater(todo, newer) || decidedLater(todo, d, newer) || v.reportedDone(todo, d, newer) || v.allDoneLater(d, newer) || v.identDone(todo, newer) || v.arrivedLater(todo, d, newer)
}

// arrivedLater reports whether a newer session (of newer) says the
// thing the to-do todo (of distinctive keys d) waits for came: "Rob's
// list came, it's in data/referees.csv" for "He's sending me his list
// of 48 referees with birth years and grades next week". The sentence
// that says so must hold one of d beside the words of the waiting
// itself.
func (v *Vocab) arrivedLater(todo string, d []string, newer []*digest.Summary) bool {
	if len(d) == 0 || !awaitsDelivery.MatchString(todo) {
		return false
	}
	for _, later := range newer {
		for _, keys := range v.arrivals(later) {
			for _, k := range d {
				if keys[k] && !waitingWords[k] {
					return true
				}
			}
		}
	}
	return false
}

// arrivals are the keys of each sentence of summary d that says a thing
// came, read once a summary: every to-do of the older sessions asks.
func (v *Vocab) arrivals(d *digest.Summary) []map[string]bool {
	r := v.of(d)
	if r.arrivals != nil {
		return r.arrivals
	}
	r.arrivals = []map[string]bool{}
	for _, p := range []int{digest.Request, digest.Outcome, digest.Notes, digest.Details} {
		for _, b := range d.Parts[p] {
			for _, x := range digest.Sentences(b) {
				if arrived.MatchString(x) && !strings.HasSuffix(x, "?") && !notArrived.MatchString(x) {
					r.arrivals = append(r.arrivals, change.Keys(x))
				}
			}
		}
	}
	return r.arrivals
}

// awaitsDelivery is a to-do that waits for someone to send or bring a
// thing: "He's sending me his list next week", "I'll nag him to send it
// over", "we're still waiting for the rate card".
var awaitsDelivery = lazyre.New(`(?i)\b(?:send(?:s|ing)?|deliver(?:s|ing)?|forward(?:s|ing)?|bring(?:s|ing)?|post(?:s|ing)?|mail(?:s|ing)?)\b[^.;]{0,60}?\b(?:over|next week|tomorrow|later|soon|this week|on monday|on tuesday|on wednesday|on thursday|on friday)\b|\b(?:still waiting|waiting (?:for|on)|(?:is|are) on (?:its|their) way|(?:has|have) been ordered|on order)\b`)

// waitingWords are the keys of awaitsDelivery's own words, which say
// that a thing is awaited, not what.
var waitingWords = change.KeySet(`send sending sends deliver delivering forward bring post mail over next week tomorrow later soon monday tuesday wednesday thursday friday waiting wait still order way`)

// arrived is a sentence saying a thing came: "Rob's list came", "the
// rate card finally arrived", "the new boards are here".
var arrived = lazyre.New(`(?i)\b(?:came(?: in| through)?|arrived|landed|showed up|turned up|got here|(?:is|are) here)\b`)

// notArrived puts the coming off or denies it: "once it arrives", "it
// hasn't come yet".
var notArrived = lazyre.New(`(?i)\b(?:when|once|until|if|unless|before|not|never|yet)\b|n't\b`)

// allDoneLater reports whether a newer session (of newer) says all the
// work left is done ("Both leftovers are in", "Both open items are
// done", after "now the two leftovers from earlier in the week please")
// and changed a file that names the to-do's thing: such a report names
// none of the items, and the files it changed say which.
func (v *Vocab) allDoneLater(d []string, newer []*digest.Summary) bool {
	for _, later := range newer {
		ks := v.allDoneKeys(later)
		for _, k := range d {
			if ks[k] {
				return true
			}
		}
	}
	return false
}

// allDoneKeys are the keys the files summary d changed name, when d's
// outcome says every item left is done; none otherwise. Read once a
// summary: every to-do of the older sessions asks.
func (v *Vocab) allDoneKeys(d *digest.Summary) map[string]bool {
	r := v.of(d)
	if r.allDone == nil {
		r.allDone = map[string]bool{}
		if len(d.Parts[digest.Files]) > 0 && saysAllDone(d) {
			for _, b := range d.Parts[digest.Files] {
				for k := range named(b) {
					r.allDone[k] = true
				}
			}
		}
	}
	return r.allDone
}

// saysAllDone reports whether d's outcome says every item left is done.
func saysAllDone(d *digest.Summary) bool {
	for _, b := range d.Parts[digest.Outcome] {
		if allDone.MatchString(b) {
			return true
		}
	}
	return false
}

// allDone is a report that all the work left is done: "Both leftovers
// are in", "all three open items are done". Not "one of the two
// leftovers is in".
var allDone = lazyre.New(`(?i)(?:^|[.;:!]\s+)(?:both|all(?: the)?(?: (?:two|three|four))?|the (?:two|three|four))\s+(?:of the\s+)?(?:open items?|leftovers?|left-overs?|to-?dos?|open points?|remaining items?|loose ends?)\s+(?:are|were)\s+(?:now\s+)?(?:all\s+)?(?:done|in|finished|sorted|fixed|closed|handled)\b`)

// reportedDone reports whether a newer session (of newer) says the
// thing the to-do todo (of distinctive keys d) is about is done, in or
// sorted: "BUF_TOKEN is in, Marta added it" for "CI needs a `BUF_TOKEN`
// secret", "deprecatePatch(…) is in now" for "I'll do the
// deprecatePatch step next week". Such a report names the thing by what
// the to-do called it, often a name in code and nothing else, so one
// word is enough when the to-do wrote it as a name; two otherwise.
func (v *Vocab) reportedDone(todo string, d []string, newer []*digest.Summary) bool {
	if len(d) == 0 {
		return false
	}
	var names, parts map[string]bool
	for _, later := range newer {
		for _, keys := range v.doneReports(later) {
			if names == nil {
				names, parts = nameKeys(todo), nameParts(todo)
			}
			if sharesName(d, names, keys) || len(keys) == 1 && sharesKey(parts, keys) {
				return true
			}
		}
	}
	return false
}

// nameParts are the keys of the parts of the names s writes with "_"
// ("HOMEBREW_TAP_TOKEN" gives homebrew, tap and token): a report that
// names one part alone ("token's in") names the thing.
func nameParts(s string) map[string]bool {
	ks := make(map[string]bool)
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r > 127 || !lex.IsWordByte(byte(r)) }) {
		if !strings.Contains(w, "_") {
			continue
		}
		for _, part := range strings.Split(strings.ToLower(w), "_") {
			if len(part) > 2 && !lex.StopWords[part] {
				ks[lex.Key(part)] = true
			}
		}
	}
	return ks
}

// sharesKey reports whether a and b hold a key in common.
func sharesKey(a, b map[string]bool) bool {
	for k := range b {
		if a[k] {
			return true
		}
	}
	return false
}

// doneReports are the keys of each thing summary d reports done, in or
// sorted: what a report's clause puts before "is done", or, when that is
// a pronoun ("so that's sorted"), what its sentence says. Read once a
// summary: every to-do of the older sessions asks.
func (v *Vocab) doneReports(d *digest.Summary) []map[string]bool {
	r := v.of(d)
	if r.reports != nil {
		return r.reports
	}
	r.reports = []map[string]bool{}
	for p, bullets := range d.Parts {
		if p == digest.Commands || p == digest.Read || p == digest.Errors || p == digest.Files {
			continue
		}
		for _, b := range bullets {
			for _, x := range digest.Sentences(b) {
				if strings.HasSuffix(x, "?") {
					continue
				}
				for _, m := range doneSaid.FindAllStringSubmatch(x, -1) {
					what := strings.TrimSpace(m[1])
					if notDone.MatchString(what) {
						continue // "Once BUF_TOKEN is in, …", "nothing is done"
					}
					if thatWord.MatchString(what) {
						what = x
					}
					r.reports = append(r.reports, change.Keys(what))
				}
			}
		}
	}
	return r.reports
}

// sharesName reports whether keys holds one of d that the to-do wrote
// as a name (names), or two of d.
func sharesName(d []string, names, keys map[string]bool) bool {
	n := 0
	for _, k := range d {
		if keys[k] {
			if names[k] {
				return true
			}
			n++
		}
	}
	return n >= 2
}

// nameKeys are the keys of the words s writes as names: in code, with a
// capital inside the sentence or inside the word, with "_" or a digit
// ("`BUF_TOKEN`", "Open VSX", "deprecatePatch", "T46U").
func nameKeys(s string) map[string]bool {
	ks := make(map[string]bool)
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r > 127 || !lex.IsWordByte(byte(r)) }) {
		if strings.ContainsAny(w, "_0123456789") || strings.ToLower(w[1:]) != w[1:] || lex.WrittenAsName(s, w) {
			for k := range change.Keys(w) {
				ks[k] = true
			}
		}
	}
	return ks
}

// doneSaid is a report that a thing is done, in or sorted, the clause
// before it in group 1: "BUF_TOKEN is in, Marta added it", "both are
// done", "deprecatePatch('fraud-check-v1') is in now", "so that's
// sorted". Not "the secret is in the org settings": a thing said to be in
// a place.
var doneSaid = lazyre.New(`(?i)(?:^|[,;:—–]\s*|\b(?:and|so)\s+)([^,;:—–]*?)\s*(?:\bis|\bare|'s)\s+(?:all\s+|now\s+|finally\s+)?(?:done|in|in place|sorted(?:\s+out)?|finished|merged|live)(?:\s+now)?\s*(?:[,.;:!)]|$|\s+(?:and|so|now)\b)`)

// notDone is a clause before "is done" that puts it off, asks for it
// or denies it.
var notDone = lazyre.New(`(?i)^(?:once|when|until|after|before|if|unless|as soon as|whether|nothing|none|not)\b|\b(?:not|never|nothing)\b`)

// thatWord is a clause that names its thing by a pronoun alone.
var thatWord = lazyre.New(`(?i)^(?:so |and )?(?:that|this|it|everything|all|both)$`)

// decidedLater reports whether a newer session (of newer) says the open
// question todo, of distinctive keys d, was decided (decidedAbout).
func decidedLater(todo string, d []string, newer []*digest.Summary) bool {
	for _, later := range newer {
		if decidedAbout(todo, d, later) {
			return true
		}
	}
	return false
}

// decidedAbout reports whether later says the question the open item
// of distinctive keys d is most about was decided: "billing decided
// about 24 and 31 December: off-peak from 12:00" for "still an open
// question on their side: 24 and 31 December, the half days". A
// question names its subject by few words, often dates or numbers that
// are no keys, so one of its words is enough once the decision is said
// in so many words.
func decidedAbout(todo string, d []string, later *digest.Summary) bool {
	if len(d) == 0 || !question.MatchString(todo) {
		return false // "the consumer keeps crashing" is no question "decided on a Redis queue" answers
	}
	for _, p := range []int{digest.Request, digest.Outcome, digest.Decisions} {
		for _, b := range later.Parts[p] {
			if lb := strings.ToLower(b); !strings.Contains(lb, "decided") && !strings.Contains(lb, "settled") && !strings.Contains(lb, "answered") {
				continue
			}
			for _, m := range decided.FindAllStringSubmatch(b, -1) {
				for k := range change.Keys(m[1]) {
					if slices.Contains(d, k) {
						return true
					}
				}
			}
		}
	}
	return false
}

// question is a to-do that waits for a decision: "still an open question
// on their side: 24 and 31 December", "undecided whether …".
var question = lazyre.New(`(?i)\b(?:question|decide|decided|decision|undecided|whether)\b|\?`)

// decided is a question said to be decided, what it was about in its
// group: "billing decided about 24 and 31 December:", "we settled on
// the retention question".
var decided = lazyre.New(`(?i)\b(?:decided|settled|answered)\s+(?:about|on|the question of)\s+([^.:;,?!—]{3,60})(?:[.:;,!—]|$)`)

// binned says a thing, the noun it captures, was thrown out: the word
// before "'s in the bin", the last of the few after "got rid of".
var binned = lazyre.New(`(?i)\b([\w-]+)(?:'s| is| are| went) (?:in the (?:bin|trash)|gone for good|binned)\b|\b(?:binned|threw out|thrown out|got rid of) (?:the |that |those |our |my )?(?:[\w-]+ ){0,2}?([\w-]+)(?:[.,;:!]|\s+(?:in|on|from|for|of|and|at|with|that|which)\b|$)|\b((?:[\w./-]+ ){0,4}?[\w./-]+) (?:is|are) (?:now )?gone\b`)

// notYet is a sentence that denies or puts off what it names.
var notYet = lazyre.New(`(?i)\b(?:have not|has not|did not|not yet|before|never)\b|n't\b`)

// CreatedLater reports whether todo says a file is missing ("the repo
// has no Dockerfile yet") and one of the newer sessions wrote it: the
// session that wrote it may say nothing else of it.
func CreatedLater(todo string, newer []*digest.Summary) bool {
	names := prose.MissingNames(todo)
	if names == nil {
		return false
	}
	for _, d := range newer {
		for _, b := range d.Parts[digest.Files] {
			if strings.Contains(b, "(written") && names[strings.ToLower(path.Base(digest.ChangedFile(b)))] {
				return true
			}
		}
	}
	return false
}

// DoneLater returns whether a to-do stated in sums[k] (newest first) is
// dealt with or said again by a newer session, or listed among sums[k]'s
// open items (the open items show it).
func (v *Vocab) DoneLater(sums []*digest.Summary, k int) func(string) bool {
	return func(todo string) bool {
		d := v.Distinct(todo)
		if v.ClosedLater(todo, d, sums, k) {
			return true
		}
		if k < len(sums) {
			for _, o := range sums[k].Open {
				if v.Refers(d, change.Keys(o)) {
					return true
				}
			}
		}
		return false
	}
}

// askedBack reports whether a request of the newer sessions sums points
// back to a to-do of distinctive keys d by one of its rarest words: "do
// the probe thing from yesterday" asks for "tomorrow: the readiness
// probe", and a request that says where it comes from needs no second
// word to say what it is.
func (v *Vocab) askedBack(d []string, sums []*digest.Summary) bool {
	for _, later := range sums {
		ks := v.pointedBack(later)
		for _, k := range d[:min(len(d), maxDistinct)] {
			if ks[k] {
				return true
			}
		}
	}
	return false
}

// pointedBack are the keys of the session's requests that point back at
// earlier work (backRef), read once: every open item of the older
// sessions is checked against them. The pointer's own words ("thing",
// "last time") say nothing of what, and a request that does something
// else first ("Before the Scoop thing: …") asks for none.
func (v *Vocab) pointedBack(d *digest.Summary) map[string]bool {
	r := v.of(d)
	if r.back == nil {
		r.back = make(map[string]bool)
		for _, b := range d.Parts[digest.Request] {
			loc := backRef.FindStringIndex(b)
			if loc == nil || strings.HasSuffix(strings.ToLower(strings.TrimSpace(b[:loc[0]])), "before") {
				continue // "Before the Scoop thing: …" puts it off
			}
			for k := range change.Keys(b) {
				if !backWords[k] {
					r.back[k] = true
				}
			}
		}
	}
	return r.back
}

// backWords are the keys of backRef's own words, which say that an ask
// points back, not at what.
var backWords = change.KeySet(`thing things stuff last time week earlier mentioned left hanging parked talked other day session`)

// backRef is a request pointing back at work an earlier session left.
var backRef = lazyre.New(`(?i)\b(?:from (?:yesterday|last time|last week|last session|earlier|the other day)|you mentioned|(?:we|you) (?:left|parked)|left hanging|we talked about|(?:that|the) [\w\s-]{1,30} thing\b)`)

// FixedLater returns whether a problem told in sums[k] ("the coupon test
// is flaky") is one a newer session names and reports fixed.
func (v *Vocab) FixedLater(sums []*digest.Summary, k int) func(string) bool {
	return func(problem string) bool {
		d := v.Distinct(problem)
		for _, later := range sums[:k] {
			if v.fixed(later) && v.Refers(d, v.mentions(later)) {
				return true
			}
		}
		return false
	}
}

// DealtLater is FixedLater, and a defect a newer session was asked to
// deal with, or says it came to, and changed files for: "the two
// leftovers: the index and the limiter cleanup" says nothing is fixed,
// and its work does.
func (v *Vocab) DealtLater(sums []*digest.Summary, k int) func(string) bool {
	fixed := v.FixedLater(sums, k)
	return func(problem string) bool {
		if fixed(problem) {
			return true
		}
		if !defect.MatchString(problem) || !hurts.MatchString(problem) || hypothetical.MatchString(problem) {
			return false
		}
		d := v.Distinct(problem)
		for _, later := range sums[:k] {
			if len(later.Parts[digest.Files]) > 0 && v.Refers(d, v.asked(later)) {
				return true
			}
		}
		return false
	}
}

// asked are the keys of what the session was asked and what it says it
// came to.
func (v *Vocab) asked(d *digest.Summary) map[string]bool {
	r := v.of(d)
	if r.asked == nil {
		r.asked = make(map[string]bool)
		for _, p := range []int{digest.Request, digest.Outcome} {
			for _, b := range d.Parts[p] {
				for k := range named(b) {
					r.asked[k] = true
				}
			}
		}
	}
	return r.asked
}

// problemMark matches a sentence that tells a problem as it stands: "the
// coupon test is flaky, failing every other run", "station 6 prints
// everything 3 mm to the left and nobody knows why".
// A thing in code that lacks one is one too ("`platforms` has no
// `macos-arm64`", "the `shots` table has no index"), and "the limiter
// never forgets a key". Not "the app target has no third-party
// dependencies", a reason to stay; not "can't" ("a careless `git add
// -A` can't pick up the export" is what protects), nor "there's no point
// persisting it", nor "older updates get lost" (what an alternative
// would do). A blackout or a freeze is one however it is told ("twice
// tonight the whole rig blacked out"). A thing that has none of something
// "at all" is not: "the app target has no third-party dependencies at
// all" is the reason to stay, as "Julia Nowak has no mandate date at
// all" is a gap.
var problemMark = lazyre.New(`(?i)\b(flaky|flakes|broken|fail(s|ing|ure|ures)|crash(es|ing)|hang(s|ing)|times out|timing out|leak(s|ing)|keeps? (failing|crashing|timing out|hanging)|(?:nobody|no one) knows why|(?:we|i) (?:don't|do not) know why|no idea why|(?:black|brown)(?:s|ed|ing)? out|(?:black|brown)outs?|freez(?:es|ing)|froze)\b|` + defectRE + `|` + nothingDoesRE)

// nothingDoesRE is a gap told as the work nothing in the code does:
// "nothing seeds it", "nothing records who changed whose role". Not
// "nothing changes", "nothing else uses it": no work left.
const nothingDoesRE = `(?i)\bnothing (?:seeds|records|logs|checks|validates|verifies|cleans|deletes|removes|expires|rotates|retries|backs|tracks|audits|enforces|limits|throttles|escapes|sanitizes|signs|encrypts|monitors|alerts|reports|resets|closes|frees|releases|flushes|catches|handles|guards|protects|stops|prevents|locks)\b`

// defect is a problem told as what a thing in code lacks or keeps doing
// wrong: "`platforms` has no `macos-arm64`", "the `shots` table has no
// index", "the limiter never forgets a key". With what it costs (hurts),
// only such a one goes once a newer session was asked to deal with it
// (Vocab.DealtLater): a failure in a reason or an explanation ("a single
// XSS anywhere leaks every user's token", "when a chunk fails after the
// sends went out") is not what a session's work on its words dealt with.
var defect = lazyre.New(defectRE)

const defectRE = `(?i)\b(?:(?:is|are) missing|never (?:forgets|expires|cleans up|frees|releases|closes)|scans the whole)\b|` + "`[^`]+`" + `(?:\s+\w+)?\s+(?:has|have) no\b`

// fixedMark matches a report that a problem is gone: "It's fixed, and it
// was the test", "passes now", "it passed 50 runs in a row", "50 tests
// pass" (the whole suite, after the work).
var fixedMark = lazyre.New(`(?i)(^fixed\b|\b(it's|it is|that's|that is|now|all) fixed\b|\bfixed (it|the|that|this)\b|\bresolved\b|\b(passes|pass|works|green|stable) now\b|\bnow (passes|works|stable)\b|\bno longer (fails|flakes|crashes|hangs|times out|leaks)\b|\b(passed|passes|green|succeeded)\b[^.;]{0,30}?\b\d+ (runs|times|builds)( in a row)?\b|\b(?:all )?\d+ tests pass(?:ed)?\b|\ball (?:the )?tests pass(?:ed)?\b)`)

// fixed reports whether the session reports a problem fixed, in what it
// did or found, or found a root cause and changed files for it.
func (v *Vocab) fixed(d *digest.Summary) bool {
	r := v.of(d)
	if r.fixed == 0 {
		r.fixed = -1
		if reportsFixed(d) {
			r.fixed = 1
		}
	}
	return r.fixed > 0
}

// reportsFixed reports whether summary d found what broke and changed
// the code for it, or says a problem is gone.
func reportsFixed(d *digest.Summary) bool {
	if len(d.Parts[digest.Root]) > 0 && len(d.Parts[digest.Files]) > 0 {
		return true // the comparison found and rewritten
	}
	for _, p := range []int{digest.Outcome, digest.Root, digest.Notes} {
		for _, b := range d.Parts[p] {
			if fixedMark.MatchString(b) {
				return true
			}
		}
	}
	return false
}

// DropFixed returns s without the sentences that tell a problem which
// fixed says a later session fixed; "" if nothing is left.
//
// A short sentence right after one dropped that names the problem by a
// pronoun goes with it: "Leave it with me, I have a suspicion." after
// "twice tonight the whole rig blacked out".
func DropFixed(s string, fixed func(problem string) bool) string {
	var kept []string
	gone := false
	for _, x := range digest.Sentences(s) {
		if problemMark.MatchString(x) && !fixedMark.MatchString(x) && fixed(x) || gone && onIt.MatchString(x) && len(strings.Fields(x)) <= 10 {
			gone = true
			continue
		}
		gone = false
		kept = append(kept, x)
	}
	return strings.Join(kept, " ")
}

// onIt is a sentence that names what it is about by a pronoun after
// its first words, as an object: "Leave it with me", "I'll look into it
// tonight"; not "It runs nightly", whose "it" may be anything.
var onIt = lazyre.New(`(?i)^(?:\S+ ){1,3}(?:it|that|this|them)\b`)

// hurts is what makes a lack a defect: what it costs ("so `GET
// /v1/shots` scans the whole table", "couldn't install it") or that it
// is to be fixed. "The deploy key never expires, so rotating it is
// manual" and "the `deploy` key has no passphrase, so CI can use it" tell
// how things are.
var hurts = lazyre.New(`(?i)\b(?:scans|couldn't|can't|cannot|fails?|breaks?|slow(?:er|s)?|cut short|lost|leaks?|grows?|forever|fix|should|needs? to|would be good)\b`)

// hypothetical is a failure told as what would happen: "cert-manager has
// to come first …; otherwise the first sync fails on unknown kinds".
var hypothetical = lazyre.New(`(?i)\b(?:otherwise|or else|would|unless)\b|(?:^|,\s)if\b`)

// thatTodo is a to-do clause that names its work by a pronoun for the
// clauses before it.
// "I'll do that next time" names it as what it will do, "after that we
// rerun" as what the work waits for.
var thatTodo = lazyre.New(`(?i)^(?:and |so )?(?:(?:that|this|it)(?:'s| is| was| will be)|(?:i'll|we'll|i will|we will|i can|we can) (?:do|fix|tackle|handle|finish|sort out|look at|look into) (?:that|this|it)|after (?:that|this))\b`)

// itTodo is a to-do that names its work by a pronoun only, the work the
// sentence before it states: "We'll wire that in when it arrives", "can
// you do that tomorrow".
var itTodo = lazyre.New(`(?i)^(?:and |so |then )?(?:we'll|i'll|we will|i will|we can|i can|can you|could you|please)\b[^.;]{0,30}?\b(?:that|it|this|them|those)\b`)

// clauses splits a sentence at "; " and dashes, each clause with the
// separator that ends it.
func clauses(s string) []string {
	var out []string
	for s != "" {
		best, size := -1, 0
		for _, sep := range []string{"; ", " — ", " – "} {
			if i := strings.Index(s, sep); i >= 0 && (best < 0 || i < best) {
				best, size = i, len(sep)
			}
		}
		if best < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:best+size])
		s = s[best+size:]
	}
	return out
}

// DealtWith returns the test of whether an ask of session sums[k] (newest first; a
// request of its, or the heading made of one) closes an item an older
// session left open, and the session reports doing it: the ask names the
// open item (or points back at earlier work: "the psycopg thing from
// last time"), what the session did (its outcome, the files it changed)
// speaks of the ask, and none of the items it left open does. Once the
// session is over, such an ask shown without a mark reads as still to
// do. A question asks for an answer, not for work, and is never marked.
func (v *Vocab) DealtWith(sums []*digest.Summary) func(k int, ask string) bool {
	// Read once a pack, on the first ask: per session, the open items
	// and the to-dos it states ("Next on my list: version 1.1 …") by
	// their distinctive keys, and the keys of what it did.
	var left [][][]string
	did := make([]map[string]bool, len(sums))
	read := func() {
		left = make([][][]string, len(sums))
		for i, o := range sums {
			for _, item := range o.Open {
				left[i] = append(left[i], v.Distinct(item))
			}
			for p, bullets := range o.Parts {
				if p == digest.Commands || p == digest.Read || p == digest.Errors || p == digest.Files {
					continue
				}
				for _, b := range bullets {
					for _, x := range digest.Sentences(b) {
						if v.IsTodo(x) {
							left[i] = append(left[i], v.Distinct(x))
						}
					}
				}
			}
			did[i] = make(map[string]bool)
			for _, p := range []int{digest.Outcome, digest.Files} {
				for _, b := range o.Parts[p] {
					for k := range change.Keys(b) {
						did[i][k] = true
					}
				}
			}
		}
	}
	return func(k int, ask string) bool {
		if k >= len(sums) || len(sums[k].Parts[digest.Outcome]) == 0 || change.IsQuestion(ask) || digest.IsChitChat(ask) {
			return false
		}
		if left == nil {
			read()
		}
		ak, dk := change.Keys(ask), v.Distinct(ask)
		// An ask that points back says what it is in a word or two
		// besides the pointer's own.
		closes := false
		if backRef.MatchString(ask) {
			var what []string
			for _, key := range dk {
				if !backWords[key] {
					what = append(what, key)
				}
			}
			closes = v.Refers(what, did[k])
		}
		for _, older := range left[k+1:] {
			for _, l := range older {
				closes = closes || v.Refers(l, ak) && v.Refers(dk, did[k])
			}
		}
		if !closes {
			return false
		}
		for _, o := range sums[k].Open {
			if v.Refers(dk, change.Keys(o)) {
				return false
			}
		}
		return true
	}
}
