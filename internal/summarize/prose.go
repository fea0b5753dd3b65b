package summarize

import (
	"path"
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/agree"
	"github.com/cairn-mem/cairn/internal/summarize/block"
	"github.com/cairn-mem/cairn/internal/summarize/cause"
	"github.com/cairn-mem/cairn/internal/summarize/choice"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
	"github.com/cairn-mem/cairn/internal/summarize/offer"
	"github.com/cairn-mem/cairn/internal/summarize/openwork"
	"github.com/cairn-mem/cairn/internal/summarize/outcome"
	"github.com/cairn-mem/cairn/internal/summarize/pick"
	"github.com/cairn-mem/cairn/internal/summarize/reason"
	"github.com/cairn-mem/cairn/internal/summarize/rule"
	"github.com/cairn-mem/cairn/internal/summarize/telling"
	"github.com/cairn-mem/cairn/internal/summarize/weigh"
)

type analysis struct {
	turns      []Turn
	before     string // the agent's last message before the segment
	files      []*fileUse
	byPath     map[string]*fileUse
	runs       []run
	fixes      []fix
	failing    []run // last failure of commands that never succeeded after it
	toolErrors []string
	commits    []string

	requests   []string
	outcomes   []string
	approach   []string
	rootCauses []string
	decisions  []string
	rejected   []string
	prefs      []string
	env        []string
	details    []string        // statements of the answers no other part took
	filed      map[string]bool // the sentences prose filed under a kind
	open       []openItem
	said       []said // statements that something was done, for open items resolved later
	question   string // the agent's closing question, unanswered
	pending    string // the last prompt, not yet answered
	cand       []Candidate
	seen       map[string]bool
	items      []Candidate
	// lastDec is 1 + the index in cand of the last decision of the
	// exchange (an agent message and the user's reply to it), 0 when it
	// made none: a reason given later in it is that decision's.
	lastDec int
	lastWhy bool   // it gave its reason
	lastRef string // its line in decisions
	// offer is the agent's message the prompt being read answers: what
	// "go with the table" picks from; message is the agent's message
	// being read, whose own options it may pick from.
	offer, message string
	// proposed are the choices the agent put to the user since the last
	// prompt ("My take: Postgres 16, and not CockroachDB"), which become
	// decisions when the user's reply agrees; accepted are those that did.
	proposed []offer.Proposal
	accepted []string
	// options are those the last prompt put as a choice ("Fabio or
	// Traefik?"); turned, those the answers turned down, by name.
	options []string
	turned  map[string]bool
	// picked is the user's bare pick of an offered option ("Agreed,
	// SQLite it is."), which pickAsked made the decision of already.
	picked string
	// agentDecided are the decisions the agent's own sentences made, by
	// sentence: the recommendation a user's pick takes is that pick's
	// decision, said again.
	agentDecided map[string]madeDecision
	// turnedLine are the agent's sentences that turned an option down
	// ("Postgres on db-02: durable and queryable, but it needs …").
	turnedLine map[string]bool
	// askedWhy: the last prompt asked why something behaves as it does
	// ("Why are the fades on the pars steppy at low level? Is that
	// us?"), and no root cause has answered it yet.
	askedWhy bool
}

// said is a statement that something was done, where it was made, and
// its words (stemmed).
type said struct {
	turn  int
	words map[string]bool
}

// openItem is work left, and where it was stated.
type openItem struct {
	turn int
	text string
	// put is the user putting off what the agent raised ("leave the
	// crash for tomorrow"): the item it names stays open, not this.
	put bool
}

// analyze reads a segment's turns; before is the agent's message before
// them, which their first prompt may answer.
func analyze(turns []Turn, before string, asked []string) *analysis {
	// The message before may propose what the first prompt agrees to,
	// or weigh the options asked (the prompt before it, in the segment
	// before) which the first prompt picks from.
	a := &analysis{turns: turns, byPath: map[string]*fileUse{}, seen: map[string]bool{}, turned: map[string]bool{}, proposed: offer.Proposals(before), before: before, options: asked}
	a.turnedDown(before)
	lastPrompt, lastReply := -1, -1
	finals := map[int]int{} // prompt turn → its last assistant text
	// The agent's message just before its first change in answer to a
	// prompt is where it says what it found and what it will do about it.
	lastText, approached := -1, map[int]bool{}
	for i, t := range turns {
		switch t.Role {
		case User:
			p := strings.TrimSpace(t.Text)
			a.accept(p)
			if isChitchat(p) {
				continue
			}
			a.offer = ""
			switch {
			case lastText > lastPrompt:
				a.offer = turns[lastText].Text
			case lastPrompt < 0:
				a.offer = before
			}
			lastPrompt = i
			a.askedWhy = cue.AsksWhy.MatchString(p)
			asked := a.options
			a.options = weigh.Options(p)
			req := request(p)
			a.requests = append(a.requests, req)
			a.pickAsked(p, asked)
			a.prose(User, i, p)
			past := pastRequest(p, req)
			for _, s := range prose.Sentences(past) {
				if cue.WantsThing.MatchString(s) && len(s) <= 300 {
					// "… And one more thing: I want a weekly CSV …" past
					// the request's cut asks for work of its own.
					a.requests = append(a.requests, s)
				}
			}
			a.addDetails(past)
		case Assistant:
			if !t.Says() {
				continue
			}
			if t.Text == ReadBack {
				lastReply = i // an answer, with nothing of its own
				continue
			}
			lastReply, lastText = i, i
			a.proposed = append(a.proposed, offer.Proposals(t.Text)...)
			a.turnDown(t.Text)
			if lastPrompt >= 0 {
				finals[lastPrompt] = i
			} else {
				finals[-1] = i
			}
			if i+1 < len(turns) && turns[i+1].Role == Tool && stepNamed(t.Text) {
				continue // "Now the W&B run name." names the call that follows
			}
			a.prose(Assistant, i, t.Text)
		case Tool:
			lastReply = max(lastReply, i)
			if lastText > lastPrompt && !approached[lastPrompt] && changes(t.Tool) {
				approached[lastPrompt] = true
				for _, ap := range approachOf(turns[lastText].Text) {
					a.approach = prose.AppendNew(a.approach, ap)
				}
			}
			a.tool(i, t)
		}
	}
	// What each prompt came to: the first sentences of the agent's last
	// message in answer to it.
	for _, p := range sortedKeys(finals) {
		for _, o := range outcome.Of(turns[finals[p]].Text) {
			if o = a.unrestated(o); o == "" {
				continue
			}
			if !slices.ContainsFunc(a.accepted, func(s string) bool { return strings.Contains(o, s) }) {
				a.outcomes = prose.AppendNew(a.outcomes, o) // a proposal agreed to is a decision
			}
		}
	}
	for _, p := range sortedKeys(finals) {
		a.addDetails(turns[finals[p]].Text)
	}
	if lastReply >= 0 && turns[lastReply].Role == Assistant && lastReply > lastPrompt {
		a.question = closingQuestion(turns[lastReply].Text)
	}
	if lastPrompt >= 0 && lastPrompt > lastReply {
		a.pending = prose.UpTo(turns[lastPrompt].Text, 200)
	}
	a.resolve()
	a.items = capped(a.cand)
	return a
}

// unrestated is outcome o without the sentences that only say the agent
// follows a rule the user stated in the segment ("MMSI is a `u32` in
// every struct, as you asked." after "Please keep MMSI as a u32
// everywhere"): the rule says it, and says it as a rule.
func (a *analysis) unrestated(o string) string {
	if len(a.prefs) == 0 || !cue.AsAsked.MatchString(o) {
		return o
	}
	var kept []string
	for _, x := range prose.Sentences(o) {
		if cue.AsAsked.MatchString(x) {
			w := wordSet(cue.AsAsked.ReplaceAllString(x, ""))
			if slices.ContainsFunc(a.prefs, func(p string) bool { n := shared(w, wordSet(p)); return n >= min(2, len(w)) && 5*n >= 2*len(w) }) {
				continue
			}
		}
		kept = append(kept, x)
	}
	return strings.Join(kept, " ")
}

// maxDetails bounds the details a segment keeps.
const maxDetails = 6

// addDetails keeps the sentences of an answer that state something with
// a value or a name and went into no other part: the pack shows them
// when it has room left, so that what an answer said in its middle
// ("Signed URLs stay for the one place where they fit: the MP4 download
// button.") is not lost to a summary that keeps only its openings.
func (a *analysis) addDetails(text string) {
	held := [][]string{a.outcomes, a.rootCauses, a.decisions, a.rejected, a.prefs, a.env, a.approach, a.accepted}
	for _, o := range a.open {
		held = append(held, []string{o.text})
	}
	for _, s := range prose.Sentences(strings.ReplaceAll(text, "’", "'")) {
		if len(a.details) >= maxDetails {
			return
		}
		s = telling.Remark(s) // as prose files it: a decision holds what follows the colon
		if !detail(s) {
			continue
		}
		if a.filed[s] || slices.ContainsFunc(held, func(ls []string) bool {
			return slices.ContainsFunc(ls, func(l string) bool { return strings.Contains(l, s) })
		}) {
			continue
		}
		a.details = prose.AppendNew(a.details, prose.UpTo(s, 300))
	}
}

// detail reports whether s states something worth keeping when there is
// room: a full clause with a value, code, a path or a name, neither a
// question nor a label, nor the agent narrating, hedging, offering or
// planning, nor a check's bare result.
func detail(s string) bool {
	if len(s) < 30 || len(s) > 300 || strings.HasSuffix(s, "?") || strings.HasSuffix(s, ":") || !prose.IsFullClause(s) && !prose.IsFullClause(telling.FrontedPhrase.ReplaceAllString(s, "")) && !prose.IsFullClause(telling.TimeLead.ReplaceAllString(prose.DropLeadIn(s), "")) {
		return false
	}
	if cue.Narrating(s) || cue.Hedge.MatchString(s) || cue.IsPlan(s) || cue.ToUser.MatchString(s) || cue.Acknowledges.MatchString(s) || cue.Offer.MatchString(s) || cue.HandOver.MatchString(s) || cue.Courtesy.MatchString(s) || cue.Flagged.MatchString(s) || telling.Recap.MatchString(s) || cue.Retold.MatchString(s) {
		return false // work left, what the agent could not do, or what the user is to do, is no detail of what holds
	}
	if telling.CheckReport.MatchString(s) && len(strings.Fields(s)) <= 8 {
		return false // "Unit tests pass."
	}
	return strings.ContainsAny(s, "0123456789`/") || cue.NamedWord.MatchString(s) || codeList.MatchString(s) || codeName.MatchString(s)
}

// codeName is an identifier written without backticks, a name of code
// as sure as one in them: "refresh_for_unknown_kid", "max_attempts".
var codeName = lazyre.New(`\b[a-zA-Z]\w*_\w*[a-zA-Z0-9]\b`)

// codeList is a list of codes in capitals: "The codes are CEN, ASH, MIL,
// HOL and WIT."
var codeList = lazyre.New(`\b[A-Z]{2,6}(?:,\s+[A-Z]{2,6})+,?\s+(?:and|or)\s+[A-Z]{2,6}\b|\b[A-Z]{2,6}(?:,\s+[A-Z]{2,6}){3,}\b`)

func sortedKeys(m map[int]int) []int {
	var keys []int
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

// request is a prompt as a bullet: its first sentences of prose (pasted
// code and logs left out), whole.
func request(p string) string {
	// "CloudWatch says:" introduced a log the summary leaves out.
	all := prose.Sentences(p)
	if told := slices.DeleteFunc(slices.Clone(all), cue.LogIntro.MatchString); len(told) > 0 {
		all = told
	}
	// "What's going on?" and "/cost later" ask nothing the rest does
	// not, when there is a rest.
	ss := slices.DeleteFunc(slices.Clone(all), func(s string) bool {
		return cue.SlashCmd.MatchString(s) || strings.HasSuffix(s, "?") && len(prose.ContentWords(s)) <= 1
	})
	if len(ss) == 0 || cue.Chitchat.MatchString(strings.Join(ss, " ")) {
		ss = all
	}
	for len(ss) > 1 && cue.Chitchat.MatchString(ss[0]) && !agree.Refuses(ss[0]) {
		ss = ss[1:] // "ok makes sense, go on." before what the message asks
	}
	if len(ss) == 0 {
		return prose.UpTo(p, 300)
	}
	return prose.UpTo(strings.Join(ss, " "), 300)
}

// noneSeen reports whether s only says that none of a thing was seen
// in the test the sentence before reports: "Ran it again: 3 hours,
// under 0.02 mm off. No alarms." ("Keep lines under 80 characters. No
// emojis." is a rule.)
func noneSeen(s, prev string) bool {
	return cue.BareNone.MatchString(s) && cue.Reported.MatchString(prev) && strings.ContainsAny(prev, "0123456789")
}

// pastRequest is what prompt p says beyond its request bullet req, the
// sentences a long prompt's cut left out: "Machine is 1000 x 600 mm of
// travel with about 110 mm of Z." after what it asks.
func pastRequest(p, req string) string {
	var out []string
	for _, s := range prose.Sentences(p) {
		if !strings.Contains(req, s) {
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

// approachOf is what an agent's message before its first change says,
// a bullet a sentence: its first sentences that are not narration ("Let
// me …"), questions or labels, when they say enough to be worth keeping.
func approachOf(text string) []string {
	var keep []string
	n := 0
	for _, s := range prose.Sentences(text) {
		if len(s) < 40 || strings.HasSuffix(s, "?") || strings.HasSuffix(s, ":") || cue.Options.MatchString(s) || cue.Narrate.MatchString(s) && !cue.Plans.MatchString(s) || cue.IsPlan(s) || cue.OpenSaid(s) {
			continue
		}
		if head, _, _ := strings.Cut(s, " so "); !cue.Plans.MatchString(s) && (cause.Is(s) || cue.Symptom.MatchString(s) || telling.ToldPast.MatchString(head)) {
			continue // what went wrong, told before the change: its root cause, not how the work goes
		}
		keep = append(keep, prose.UpTo(s, 300))
		if n += len(s); len(keep) == 3 || n > 360 {
			break
		}
	}
	if n < 60 {
		return nil
	}
	return keep
}

// changes reports whether a tool of this name changes files.
func changes(tool string) bool {
	op := toolOp(tool)
	return op == opEdit || op == opWrite
}

// closingQuestion is the last sentence of a message when it asks the user
// something.
func closingQuestion(text string) string {
	ss := prose.Sentences(text)
	if len(ss) == 0 {
		return ""
	}
	if last := ss[len(ss)-1]; strings.HasSuffix(last, "?") {
		return prose.UpTo(last, 200)
	}
	return ""
}

// wrongValue reports whether s tells a measure given in place of another
// without choosing it, or a thing doing one thing instead of another:
// "retries wait hours instead of seconds", not "make the window 7 days
// instead of 3".
func wrongValue(s string) bool {
	return (prose.MeasureSwap(s) || cue.DoingInstead.MatchString(s)) && !cue.ChoiceVerb.MatchString(s)
}

// replacesNamed reports whether a full clause announces a change and
// names the value it replaced (Change).
func replacesNamed(s string) bool {
	if cue.Symptom.MatchString(s) {
		return false // "People upgrading from 1.3.1 to 1.3.2 crash on launch" tells a failure
	}
	ok, old := prose.Change(s)
	return ok && len(old) > 0 && cue.NowRE.MatchString(s) && prose.IsFullClause(cue.LeadPhrase.ReplaceAllString(cue.ReportLead.ReplaceAllString(s, ""), ""))
}

// prose sorts the statements of a prompt or an agent message by kind.
func (a *analysis) prose(role Role, turn int, text string) {
	ss := prose.Sentences(strings.ReplaceAll(text, "’", "'"))
	if a.filed == nil {
		a.filed = map[string]bool{}
	}
	causeNext := false
	if role == Assistant {
		a.lastDec, a.message = 0, text
		// The answer to "why …?" opens on the cause when it goes on to
		// explain it: "Yes, it's us, or rather 8-bit dimming. In
		// 7-channel mode a SlimPAR has one byte for its dimmer, so …".
		causeNext = a.askedWhy && answersWhy(ss)
	}
	// report is the agent's last account of what it did that became no
	// item of its own: a reason given after it makes it a decision.
	report, taken := "", -1
	// symptomSaid is the sentence before, when it told a failure that no
	// statement took: the cause that follows keeps it.
	symptomSaid := ""
	// explained is the last sentence of an announced explanation taken
	// as one root cause.
	explained := -1
	// An alternative turned down in prose goes into the body of the
	// decision the same message makes, before or after it.
	first, rejects := len(a.cand), []string(nil)
	defer func() { a.attachRejected(first, rejects) }()
	// openAt is the sentence that made the last open item, rejAt the
	// last alternative turned down.
	openAt, rejAt := -1, -1
	// todo are the items of a list a label says is work left
	// ("Remaining, in the order I'd do them:" then "1. …", "2. …").
	todo := pick.ListedUnder(text, func(line string) bool { return cue.TodoLabel.MatchString(line) })
	// countedOpen: a sentence said how many things are left open ("On
	// the Envoy side two things are open."), which the sentences led by
	// "One, …", "Two, …" then say.
	// counted is how many of the sentences after it, in its paragraph,
	// are those things when they are not led by "One, …" ("Two notes for
	// later. The client still talks to …. And nothing tests …").
	countedOpen, counted, countAt := false, 0, -1
	// fixes are the parts of a fix a label lists ("The fix has three
	// parts:" then "1. Open write transactions with `BEGIN IMMEDIATE`:
	// …"): each a decision, its first sentence.
	fixes := map[string]bool{}
	for i, s := range ss {
		if role == User && s == a.picked {
			continue // the pick, with the option's name and its reason, says it
		}
		if role == Assistant && a.turnedLine[s] {
			continue // what an option turned down is like is its Rejected line, no fact or decision
		}
		if role == Assistant && cue.FixLabel.MatchString(s) {
			items := block.ListAfter(text, s, 6)
			// Parts offered for approval ("Shall I go ahead?") or
			// weighed as alternatives ("Or patch the import") are no
			// decisions yet.
			asks := slices.ContainsFunc(ss[i+1:], func(x string) bool { return strings.HasSuffix(x, "?") }) || slices.ContainsFunc(items, cue.OrItem.MatchString)
			for _, x := range items {
				fixes[strings.TrimSpace(x)] = !asks
			}
			continue // it says nothing of its own
		}
		if fixes[strings.TrimSpace(s)] && !cue.Hedge.MatchString(s) && !cue.IsPlan(s) {
			a.addDecision(role, prose.TrimLead(s), "", true)
			a.filed[s] = true
			continue
		}
		if role == Assistant && telling.OpenCount.MatchString(s) {
			countedOpen, counted, countAt = true, countOf(s), i
			continue // it says nothing of its own
		}
		if countedOpen && telling.OrdinalLead.MatchString(s) && block.Same(text, ss[countAt], s) != "" {
			a.open = append(a.open, openItem{turn: turn, text: prose.UpTo(telling.OrdinalLead.ReplaceAllString(s, ""), 300)})
			openAt, counted, a.filed[s] = i, 0, true
			continue
		}
		if counted > 0 && i > countAt && block.Same(text, ss[countAt], s) != "" && !strings.HasSuffix(s, "?") {
			counted--
			a.open = append(a.open, openItem{turn: turn, text: prose.UpTo(prose.Capitalize(strings.TrimPrefix(s, "And ")), 300)})
			openAt, a.filed[s] = i, true
			if prose.HasURL(s) || prose.HasPort(s) || len(prose.Settings(s)) > 0 {
				a.addEnv(role, s) // where it runs holds until the note is dealt with
			}
			continue
		}
		counted = 0
		if todo != nil {
			if todo[strings.TrimSpace(s)] {
				a.open = append(a.open, openItem{turn: turn, text: prose.UpTo(prose.TrimLead(s), 300)})
				openAt = i
				continue
			}
			if strings.HasSuffix(s, ":") && cue.TodoLabel.MatchString(s) {
				continue // the label says nothing of its own
			}
		}
		s = telling.Remark(s) // what the remark says is what follows its colon
		announced := causeNext
		causeNext = role == Assistant && cause.Announces(s)
		if len(s) < 10 || len(s) > 600 || role == User && cue.Chitchat.MatchString(s) {
			continue // "Agreed on all of it." says nothing of its own
		}
		if cue.DoneCue.MatchString(s) && !cue.OpenSaid(s) {
			a.said = append(a.said, said{turn, wordSet(s)})
		}
		// "(that's CONFIG_TRACE_PINS: GPIO4 is high while the ISR
		// runs, …)": a name defined in passing is a fact of its own,
		// whatever the sentence around it tells.
		for _, m := range cue.DefinedAside.FindAllStringSubmatch(s, -1) {
			if cue.CodeName.MatchString(m[1]) {
				a.addEnv(role, prose.Capitalize(m[1]))
			}
		}
		next := ""
		if i+1 < len(ss) {
			next = ss[i+1]
		}
		question := strings.HasSuffix(s, "?")
		// What may be done some day is hedged as a guess is: not a
		// decision, a cause or work left.
		possible := role == Assistant && cue.Possible.MatchString(s) && !cue.CanNow.MatchString(s)
		hedged := cue.Hedge.MatchString(s) || possible
		// "I changed it to HALF_UP, which …" is the fix of what the
		// agent just explained, not its narration.
		setTo := cue.SetTo.MatchString(s) && !cue.ClockAt.MatchString(s)
		fix := role == Assistant && ((cue.FixedTo.MatchString(s) || setTo || cue.Toggled.MatchString(s)) && prose.HasValue(s) || setTo && cue.SetDone.MatchString(s) && !cue.DebugPurpose.MatchString(s))
		// "I found what happened: the cron ran twice because …" tells the
		// cause it found.
		narration := role == Assistant && (cue.Narrate.MatchString(s) || telling.StepAhead(s) || cue.Retold.MatchString(s)) && !fix && !(cue.ChoseOver.MatchString(s) && !cue.LookedAt.MatchString(s)) && !(cue.CauseIntro.MatchString(s) && cause.Is(s))
		action := role == Assistant && cue.ActionLine.MatchString(s)
		if narration && !cue.OpenSaid(s) {
			continue
		}
		// "Why both: …", "That way …": the reason for what the exchange
		// decided or the agent just did, said after it.
		why, later := choice.LaterReason(s)
		if later && i == taken && cue.ReasonIs.MatchString(s) {
			continue // "The reason is that …": the decision before it says it as its reason
		}
		if later && i != taken && !question {
			if a.lastDec > 0 {
				a.giveReason(a.lastDec-1, why)
				continue
			}
			if report != "" {
				a.decide(role, report, strings.TrimRight(cue.ReportLead.ReplaceAllString(report, ""), "."), why, true)
				report = ""
				continue
			}
			if cue.ReasonIs.MatchString(s) && !cause.Is(s) {
				// "The reason is how RFC 5545 defines recurrence: …"
				// after a proposal: the reason for a choice not made
				// yet, no fact of its own.
				continue
			}
		}
		// Work still to do is an open item, never a decision or a fact:
		// as either it would stay current after it is done.
		plan := cue.IsPlan(s)
		kind, nextAt := "", i+1 // nextAt: where next is among ss
		prev := ""
		if i > 0 {
			prev = ss[i-1]
		}
		setWhat, setWhy, setIt := prose.SetIt(s, prev)
		// "I'm deliberately not using the navigational status — …" turns
		// it down, however it is worded.
		deliberate := role == Assistant && cue.DeliberatelyNot.MatchString(s)
		told, toldEnd := "", i // a fault the agent names, with its explanation
		if role == Assistant && !hedged && i > explained {
			told, toldEnd = cause.Told(ss, i, explained, func(x string) bool { return a.filed[x] })
		}
		switch {
		case cue.Retracted.MatchString(s) && !question:
			// "Do it with tower_governor: 10 per minute per IP... hmm,
			// no, that's too strict": taken back as it was said.
			kind = "retracted" // no environment fact either
			a.rejected = prose.AppendNew(a.rejected, prose.UpTo(prose.TrimLead(s), 300))
		case role == User && question && cue.PrefAsk.MatchString(s):
			kind = "pref"
			a.addPreference(Preference, s, next)
		case question || narration:
		case setIt && !hedged && !plan:
			// "…; I set it to 300": a change with its subject named
			// by the clause before, which is its reason.
			kind = "decision"
			a.decide(role, s, setWhat, setWhy, true)
		case fix && !hedged && !plan:
			// "I changed it to RoundingMode.HALF_UP, which matches
			// ROUNDED": the fix of what it just explained, whose
			// subject the sentences before name.
			kind = "decision"
			a.addDecision(role, s, next, true)
		case i <= explained:
			// Already part of the explanation an announcement introduced;
			// a setting it ends on ("`disable_mime_output_conversion =
			// yes` in main.cf stops the rewriting") is the fix, kept on
			// its own as well, since the cause may be shown shortened.
			if i > 0 && telling.CodeAssign.MatchString(s) {
				a.addEnv(role, s)
			}
		case announced && !hedged:
			// "Found it." announces an explanation that often takes more
			// than one sentence: the setting, the limit, then what broke.
			kind = "root"
			end := cause.End(ss, i)
			explained = end
			after := ""
			if end+1 < len(ss) {
				after = ss[end+1]
			}
			a.addRootCause(role, symptomSaid, strings.Join(ss[i:end+1], " "), after)
		case told != "":
			// "… were never sent, so k6's p95 stayed near 420 ms. That's
			// coordinated omission.": the name closes the explanation
			// before it, or opens the one after it.
			kind = "root"
			explained, nextAt = toldEnd, toldEnd+1
			next = ""
			if nextAt < len(ss) {
				next = ss[nextAt]
			}
			a.addRootCause(role, symptomSaid, told, next)
		case (cause.Is(s) && !(causeNext && i+1 < len(ss)) || cue.Culprit.MatchString(s) || cue.WhatHappens.MatchString(s) && (cue.Reproduced.MatchString(prev) || cue.Symptom.MatchString(prev)) || symptomSaid != "" && cue.CauseMech.MatchString(s) && !action && !plan && !choice.NowState(s)) && !hedged && !(role == Assistant && cue.Flagged.MatchString(s)):
			// "One thing from CI: the release job fails because
			// HOMEBREW_TAP_TOKEN isn't set" raises a problem left open.
			kind = "root"
			if cue.Culprit.MatchString(s) && i+1 < len(ss) {
				// "The watermark is the problem." names the cause; the
				// sentences after it say how it broke things.
				end := cause.End(ss, i)
				explained, nextAt = end, end+1
				s, next = strings.Join(ss[i:end+1], " "), ""
				if end+1 < len(ss) {
					next = ss[end+1]
				}
			}
			if a.addRootCause(role, symptomSaid, s, next) && cause.Is(next) {
				explained = max(explained, nextAt) // the cause goes on in the next sentence, not a second cause
			}
		case cue.FixOpens.MatchString(s) && !hedged && !question && !plan:
			// "The fix is to give corosync its own network.": the remedy
			// chosen for the cause told before it, no cause itself.
			kind = "decision"
			a.addDecision(role, s, next, true)
		case role == User && cue.Convention.MatchString(cue.InParens.ReplaceAllString(s, "")):
			kind = "pref"
			a.addPreference(Pattern, s, next)
		case role == User && preference(cue.InParens.ReplaceAllString(s, "")) > 0 && !decisionByWe(s) && !noneSeen(s, prev):
			kind = "pref"
			if cue.NobodyElse.MatchString(s) && prev != "" && !a.filed[prev] && !strings.HasSuffix(prev, "?") && len(prev)+len(s) < 300 {
				// "Anna may run dbt against prod … with a ticket. Nobody
				// else, and never you.": the rule is said with the
				// sentence whose verb it leaves out.
				rule := prev
				if i := strings.Index(prev, ": "); i > 0 && !prose.IsClause(prev[:i]) {
					rule = prose.Capitalize(prev[i+2:]) // "Last rule for today, about prod: …" only leads in
				}
				a.addPreference(Preference, rule+" "+s, next)
				break
			}
			a.addPreference(Preference, s, next)
			if n := len(a.prefs); n > 0 && cue.ElidedRule.MatchString(s) && prev != "" && len(prev)+len(s) < 300 && a.prefs[n-1] == prose.UpTo(prose.TrimLead(s), 240) {
				// "… with the passwords in the Openfields ticket. Please
				// not in appsettings.json": what may not go there is
				// what the sentence before names; the session's line
				// says it with the rule.
				a.prefs[n-1] = prose.UpTo(prev+" "+prose.TrimLead(s), 300)
			}
		case !hedged && !action && !plan && !cue.FoundIt.MatchString(s) && !telling.ReportOnly(s) && !cue.Options.MatchString(s) && !(role == Assistant && cue.FlaggedWish.MatchString(s)) && !(role == User && rule.PronounTask(s) && !rule.AsksThat(s)) && (cue.DecisionCue.MatchString(s) && (role == User || !telling.AsItIs.MatchString(s) || cue.DecisionCue.MatchString(telling.AsItIs.ReplaceAllString(s, ""))) || role == User && cue.ShouldBe.MatchString(s) && !question || cue.DecisionWeak.MatchString(s) && (role == User || cue.PlanMarker.MatchString(s)) && !wrongValue(s) && !cue.OneOffStep.MatchString(s) && !cue.ToolVerdict.MatchString(s) || role == Assistant && (cue.ChoseOver.MatchString(s) && !cue.LookedAt.MatchString(s) || cue.JustifiedOver.MatchString(s) || cue.OnlyBy.MatchString(s)) || telling.FineChoice(s) && !cue.Symptom.MatchString(s)):
			kind = "decision"
			if rule.AsksThat(s) {
				// "1536 came out as the cheapest setting. Put that in,
				// please.": what to put in is the sentence before, when
				// it gives a value; "… the build blows up. Make it stop."
				// decides nothing.
				if prev != "" && !strings.HasSuffix(prev, "?") && strings.ContainsAny(prev, "0123456789") {
					a.addDecision(role, dropTopic(prev), "", false)
				}
				break
			}
			if pointsBack.MatchString(s) && prev != "" && !strings.HasSuffix(prev, "?") && !cue.Chitchat.MatchString(prev) && !telling.CheckReport.MatchString(prev) && block.Same(text, s, prev) != "" && len(prev)+len(s) < 300 {
				// "Make it 5 days." sets what the sentence before named
				// ("our lookback is only 3 days"): said with it.
				a.decide(role, s, strings.TrimRight(s, "."), prev, false)
				break
			}
			if pronounObject.MatchString(s) && role == Assistant && !strings.ContainsAny(s, "0123456789`") {
				// "Make it executable." before a tool call: what it is
				// no sentence of the message names.
				kind = ""
				break
			}
			a.addDecision(role, s, next, false)
		case role == Assistant && !hedged && !plan && !question && (choice.AfterReason(s) || designAnswer(s)) && !cue.Symptom.MatchString(s) && !cause.Is(s):
			// "Since the ETA has no year, I take the next occurrence from
			// now", "Storage: positions go into hourly Parquet files,
			// /data/ais/…": how the work is built.
			kind = "decision"
			a.addDecision(role, s, next, true)
		case role == Assistant && !hedged && !plan && !question && !action && choice.Instead(s) != "":
			// "I wouldn't auto-fill them. … Instead every missing
			// clock-out lands on an exceptions report …": what is done in
			// place of what was turned down.
			kind = "decision"
			a.addDecision(role, choice.Instead(s), next, true)
		case !hedged && !plan && !(cue.EnvCue.MatchString(s) && prose.HasValue(s) || prose.HasURL(s) || len(prose.Settings(s)) > 0) && replacesNamed(s):
			// "Changed: the window now covers 7 days instead of 3": a
			// report of a change that names what it replaced is what
			// holds from now on, even in the agent's list of what it did.
			kind = "decision"
			a.addDecision(role, cue.ReportLead.ReplaceAllString(s, ""), next, true)
		case role == Assistant && !plan && cue.ProposalDone.MatchString(s):
			// "My suggestion, now implemented for splits: keep the bars
			// on disk unadjusted, …": what it proposed holds.
			kind = "decision"
			a.addDecision(role, prose.Capitalize(cue.ProposalDone.FindStringSubmatch(s)[1]), next, true)
		case role == Assistant && !hedged && !plan && cue.PurposeDid.MatchString(s) && !cue.DebugPurpose.MatchString(s) && strings.ContainsAny(s, "0123456789`"):
			// "To keep the line count down I tied CC1 and CC2 to one
			// 5.1k": a choice, with its purpose.
			kind = "decision"
			a.addDecision(role, s, next, true)
		case role == Assistant && !hedged && !plan && !action && !question && (telling.DesignWhy.MatchString(s) || telling.DesignSo(s) || telling.BehaviourIf.MatchString(s)) && !cue.Symptom.MatchString(s) && !cause.Is(s) && !telling.ToldPast.MatchString(s):
			// "The sum goes back into the residual buffer in place,
			// because the next block consumes it anyway": how the work
			// is built, with why.
			kind = "decision"
			a.addDecision(role, s, next, true)
		case !hedged && !plan && !question && cue.ValueMoved.MatchString(s) && !cue.Symptom.MatchString(s):
			// "With 31 minutes of hover, the mission cap goes up to 22
			// minutes": a setting's new value, which holds from now on.
			kind = "decision"
			if f := telling.FrontedPhrase.FindString(s); f != "" {
				a.decide(role, s, prose.Capitalize(strings.TrimRight(s[len(f):], ".")), strings.TrimRight(strings.TrimSpace(f), ","), true)
				break
			}
			a.addDecision(role, s, next, true)
		case role == Assistant && !hedged && !plan && !action && choice.NowState(s) && !envLike(s):
			// "The export now streams rows from a cursor": what was done,
			// reported as the state it leaves, holds from now on.
			kind = "decision"
			a.addDecision(role, prose.Capitalize(choice.StateLead(cue.ReportLead.ReplaceAllString(s, ""))), next, true)
		case !hedged && !plan && cue.ReasonsFor.MatchString(s):
			// "… records the reasons we're staying on Playwright: the
			// checkout opens a second tab, …": a choice with its reasons.
			kind = "decision"
			m := cue.ReasonsFor.FindStringSubmatch(s)
			a.decide(role, s, prose.Capitalize(m[1]), prose.Capitalize(m[2]), true)
		case choice.VerdictOnly(s) && rejAt == i-1 && len(a.rejected) > 0 && cue.RejectCue.MatchString(s):
			// "The other way would be …, but …. Not worth it.": the
			// verdict on the alternative just turned down.
			kind = "rejected"
			n := len(a.rejected) - 1
			a.rejected[n] = prose.UpTo(a.rejected[n]+" "+s, 300)
		case role == Assistant && !hedged && !plan && variantTold(s, ss[:i]):
			// "Normalisation is two-pass loudnorm …. Single-pass loudnorm
			// runs in dynamic mode, and … pumps the room noise": what the
			// other variant would do is why it was not taken.
			kind = "rejected"
			a.rejected = prose.AppendNew(a.rejected, prose.UpTo(prose.TrimLead(s), 300))
			rejects = append(rejects, s)
			rejAt = i
		case role == Assistant && i > 0 && soOut(s, ss[i-1]):
			// "pg_tileserv is a fine tool, but it serves only what is in
			// PostGIS. So pg_tileserv is out.": the verdict on what the
			// sentence before weighed, with its why.
			kind = "rejected"
			a.rejected = prose.AppendNew(a.rejected, prose.UpTo(prose.TrimLead(ss[i-1]+" "+s), 300))
			rejects = append(rejects, s)
			rejAt = i
		case !hedged && (!plan || deliberate) && !telling.ReportOnly(s) && !cue.RuleDropped.MatchString(s) && (cue.RejectCue.MatchString(s) || deliberate || role == User && (cue.PreferOver.MatchString(s) && !wrongValue(s) || cue.NoThanks.MatchString(cue.NoIdiom.ReplaceAllString(s, "")))):
			kind = "rejected"
			line, limit := s, 300
			if i > 0 && telling.NoObject.MatchString(s) && telling.Weighed.MatchString(ss[i-1]) {
				// "I thought about running each step as a child
				// workflow. I'd rather not: …" turns down what the
				// sentence before it weighed.
				line = ss[i-1] + " " + s
			} else if i > 0 && cue.OutVerdict.MatchString(s) && len(strings.Fields(s)) <= 14 && len(ss[i-1]) < 400 {
				// "gorilla/csrf works, but it means a token in every
				// form. I'd leave it out …": the verdict, and the
				// sentence before it that says what "it" is, however
				// long it weighs the thing ("I also looked at OpenHPC,
				// since …, but it pins its own Slurm … I'd leave it out.").
				line = ss[i-1] + " " + s
				limit = 450
			}
			if choice.VerdictOnly(s) && choice.WhyOf(s, next) || cue.ReasonLead.MatchString(next) && len(line)+len(next) < 300 {
				// "On SQLite: I'd advise against it." tells why in the
				// sentence after it, and so does "That means rewriting
				// years of files …" after what the alternative does.
				line += " " + next
			}
			a.rejected = prose.AppendNew(a.rejected, prose.UpTo(prose.TrimLead(line), limit))
			rejects = append(rejects, s)
			rejAt = i
		}
		if kind != "" {
			a.filed[s] = true
		}
		symptomSaid = ""
		if kind == "" && !question && !narration && !hedged && !plan && cue.Symptom.MatchString(s) && !cue.DoneReport.MatchString(s) {
			symptomSaid = s
		}
		if kind == "decision" && next != "" {
			if _, why := reason.Split(s, next); why == next {
				taken = i + 1 // its reason, said once
			}
		}
		if role == Assistant && kind == "" && !plan && !hedged && (action || choice.NowState(s)) && !causeNext {
			report = s // not "The repeats are our doing, not Stripe's.", which announces the cause after it
		}
		valueChange := prose.NamesValue(s)
		// A URL said in passing names where something runs, and a named
		// setting given a value is one, whatever the verb. One statement, one item: a decision that sets a value holds it
		// (and supersedes the fact it changes); a root cause is not also an
		// environment fact.
		if !question && !narration && !hedged && !plan && (kind == "" || kind == "rejected") && !telling.Before.MatchString(s) && !(role == Assistant && cue.Flagged.MatchString(s)) && !(role == User && cue.SymptomLog.MatchString(s)) && !telling.OnlyRunLog(s) && !cue.NoneLeft.MatchString(s) && (cue.EnvCue.MatchString(s) && prose.HasValue(s) && !telling.OnlyClockPast(s) || cue.EnvLabel.MatchString(s) || cue.Layout.MatchString(s) || prose.HasURL(s) || prose.HasRegion(s) && !cue.Symptom.MatchString(s) || len(prose.Settings(s)) > 0 && !(role == User && (cue.Symptom.MatchString(s) || telling.Fault.MatchString(s))) || versionsOf(s) || machine(s) || (cue.OnHost.MatchString(s) || cue.ToolVersion.MatchString(s)) && !cue.Symptom.MatchString(s) || prose.HasPort(s) && (prose.IsFullClause(prose.DropLeadIn(s)) || cue.Labelled.MatchString(s) || prose.IsFullClause(telling.FrontedPhrase.ReplaceAllString(s, ""))) || noted(s) || cmdUse(s) || howTo(s) || where(s) || rule.Holder(s) || role == Assistant && (cue.Invariant.MatchString(s) || telling.CodeAssign.MatchString(s))) &&
			(!action || valueChange) {
			a.addEnv(role, s)
		}
		// What the user asks for now is the request, answered in this
		// session; only work they put off is open.
		// A preference said as a complaint ("don't paste the whole log
		// at me next time") is a standing rule, not work left.
		put := role == Assistant && cue.Deferred.MatchString(s)
		if kind != "rejected" && !possible && (cue.OpenSaid(s) && !(role == Assistant && stepNow(s)) || role == Assistant && cue.Flagged.MatchString(s) || put) && !question && kind != "root" && kind != "pref" && !(role == User && (cue.AskNow.MatchString(s) || cue.NextTopic.MatchString(s) && next != "") && !cue.LaterCue.MatchString(s)) && !telling.Ack.MatchString(s) && !telling.Wish.MatchString(s) {
			text := openwork.Text(s)
			if role == Assistant && cue.Flagged.MatchString(s) && len(s) < 60 && next != "" && !strings.HasSuffix(s, ":") {
				// "One thing: actor reentrancy." names what; the sentence
				// after it says what is wrong.
				text = prose.UpTo(text+" "+next, 300)
			}
			if pronoun := cue.PronounLead.MatchString(s); (cue.RefersBack.MatchString(s) || pronoun || put) && prev != "" && (!pronoun || len(prev)+len(s) < 300) {
				// "I haven't fixed that yet": the sentence before says
				// what; read alone, the item would say nothing.
				text = openwork.Text(prev) + " " + s
				if n := len(a.open); n > 0 && openAt == i-1 {
					// The item so far, with what it joined: "Caveat: …
					// It doesn't verify … yet. That has to be done …"
					text = a.open[n-1].text + " " + s
					a.open = a.open[:n-1]
				}
			}
			put := role == User && cue.LaterCue.MatchString(s)
			if items := openwork.List(s); text == openwork.Text(s) && len(items) > 1 {
				// "Open: an index for the worker's query; billing-svc
				// still has to drop repeats; and the TLS certificate
				// expires March 14": three items, each dealt with on
				// its own.
				for _, it := range items {
					a.open = append(a.open, openItem{turn: turn, text: prose.UpTo(it, 300), put: put})
				}
				openAt = i
				continue
			}
			a.open = append(a.open, openItem{turn: turn, text: prose.UpTo(text, 300), put: put})
			openAt = i
		} else if n := len(a.open); n > 0 && openAt == i-1 && role == Assistant && kind == "" && !question && openwork.PointsBack(s) && len(prose.ContentWords(s)) >= 4 && len(a.open[n-1].text)+len(s) < 300 {
			// "That's fine at today's volume, but it will read the whole
			// table once relay_outbox grows." says why the item before
			// matters: it is kept, and done, with it, not left as a
			// detail once the item is done.
			a.open[n-1].text += " " + s
			a.filed[s] = true
			openAt = i
		}
	}
}

// accept makes the choices the agent proposed decisions when the user's
// prompt p agrees to them without a condition ("agreed on all of it. Put
// postgres in compose on 5433"); any other prompt leaves them proposals,
// which the outcome keeps.
func (a *analysis) accept(p string) {
	props := a.proposed
	a.proposed = nil
	first := p
	if ss := prose.Sentences(p); len(ss) > 0 {
		first = ss[0]
	}
	if len(props) == 0 || !agree.Agrees(first) {
		return
	}
	if named := agree.Taken(first); named != "" {
		// "the sticky sessions, yes." takes the proposal it names, not
		// the other one: it shares two of the named words, or the one.
		words := wordSet(named)
		props = slices.DeleteFunc(props, func(pr offer.Proposal) bool {
			return shared(wordSet(pr.S+" "+pr.Next), words) < min(2, len(words))
		})
	}
	// Each is the choice itself, not a pick among the message's options.
	msg := a.message
	a.message = ""
	defer func() { a.message = msg }()
	for _, pr := range props {
		if a.turnedLine[pr.S] {
			continue // an option the message turned down, agreed with as turned down
		}
		if pr.Term {
			said := func(l string) bool { return strings.Contains(l, strings.TrimRight(pr.S, ".")) }
			if !slices.ContainsFunc(a.env, said) && !slices.ContainsFunc(a.decisions, said) && !slices.ContainsFunc(a.rootCauses, said) {
				a.decide(Assistant, pr.S, strings.TrimRight(pr.S, "."), "", false)
				a.accepted = append(a.accepted, pr.S)
			}
			continue
		}
		// What was agreed, as what holds: "I'd use sqlc" is "use sqlc".
		what := strings.TrimSuffix(strings.TrimSpace(agree.Choice(pr.S)), ":")
		if !prose.IsClause(what) && len(prose.ContentWords(what)) < 2 {
			continue
		}
		from := msg
		if from == "" {
			from = a.before // a proposal of the message before the segment
		}
		if l := agree.Label(from, pr.S); l != "" && onPronoun.MatchString(what) {
			what = l + ": " + what // "Developer fields: … My suggestion is to skip them for now"
		}
		what, why := reason.Split(prose.Capitalize(what), pr.Next)
		for _, sep := range []string{": ", " — "} {
			// "…, no ORM: the queries are few and hot", "… rather than
			// DFU — DFU needs the BOOT0 jumper"
			if i := strings.Index(what, sep); why == "" && i > 0 && prose.IsFullClause(what[i+len(sep):]) {
				what, why = what[:i], prose.Capitalize(strings.TrimRight(what[i+len(sep):], "."))+"."
			}
		}
		if pr.Next != "" && len(why)+len(pr.Next) < 300 && (why == "" || shared(wordSet(strings.ReplaceAll(pr.Next, "'s", "")), wordSet(what+" "+why)) > 0) && prose.IsFullClause(pr.Next) && !strings.HasSuffix(pr.Next, "?") && !telling.CheckReport.MatchString(pr.Next) && !agree.Proposing(pr.Next) && !cue.DecisionCue.MatchString(pr.Next) && !cue.Flagged.MatchString(pr.Next) {
			// What a proposal is followed by argues for it, after what
			// its own dash or colon said: "I'd leave the upload manual —
			// Patty uploads the file herself. ADP's API would need a
			// partner contract …".
			why = strings.TrimSpace(why + " " + pr.Next)
		}
		n := len(a.cand)
		a.decide(Assistant, pr.S, what, why, false)
		if len(a.cand) > n {
			c := &a.cand[len(a.cand)-1]
			c.Importance = round2(clamp(c.Importance+impDecisionUser, 0, 0.95)) // the user's choice too
		}
		a.accepted = append(a.accepted, pr.S)
		if pr.Next != "" && strings.HasSuffix(why, pr.Next) {
			a.accepted = append(a.accepted, pr.Next) // said with it
		}
	}
}

// pickAsked makes the option the prompt p takes, of those the agent's
// question before it put, a decision of the user's: "Commit them. I don't
// want CI … to need the templ CLI." after "Question: commit the generated
// `*_templ.go` files, or generate them in CI?", or of those the user's
// own question put, which the agent's answer weighed ("spool files on
// disk, or a table on the Postgres at db-02?" answered "Both can work
// … My recommendation is the spool", then "go with the spool files").
// The others are passed over.
func (a *analysis) pickAsked(p string, asked []string) {
	opts := weigh.Options(a.offer)
	if opts == nil && a.offer != "" {
		opts = asked // the offer weighed the options the prompt before it put
	}
	k := weigh.Picked(opts, p)
	if k < 0 {
		return
	}
	why := ""
	if ss := prose.Sentences(p); len(ss) > 1 && prose.IsFullClause(ss[1]) && !strings.HasSuffix(ss[1], "?") && cue.ReplyWhy.MatchString(ss[1]) && !ruleOrder.MatchString(ss[1]) {
		// "I don't want CI … to need the templ CLI.", not "I'll review
		// it tomorrow.", nor a rule of the user's that goes on to
		// something else ("Please never add a new pip dependency
		// without asking me first."): its Preference says it.
		why = ss[1]
	}
	rec, rs := recommended(a.offer, opts, k)
	if why == "" {
		why = rec
	}
	if d, ok := a.agentDecided[rs]; ok {
		// "I'd go with a SQLite table keyed by client IP …" is the pick
		// "A small table in the SQLite database" the user then took.
		a.decisions = slices.DeleteFunc(a.decisions, func(b string) bool { return b == d.bullet })
		a.cand = slices.DeleteFunc(a.cand, func(c Candidate) bool { return c.Kind == Decision && c.Title == d.title })
	}
	a.decide(User, p, prose.Capitalize(opts[k]), why, true)
	for _, s := range prose.Sentences(a.offer) {
		if weigh.Lists(s) {
			// The list of options, once one is taken, is what the
			// decision and its Rejected lines say; left as an outcome it
			// reads as a choice still open, and as current once a later
			// session reverses the pick.
			a.accepted = append(a.accepted, s)
		}
	}
	a.picked = ""
	for _, s := range prose.Sentences(p) {
		if weigh.Picked(opts, s) == k {
			a.picked = s
			break
		}
	}
	for i, o := range opts {
		if i != k {
			a.passOver(o, prose.Capitalize(o)+PassedOver+opts[k]+".")
		}
	}
}

// ruleOrder opens a rule the user gives for the work to come ("Please
// never add a dependency without asking me first"), not a reason.
var ruleOrder = lazyre.New(`(?i)^(?:please|from now on|always|never|don't|do not)\b`)

// recommended is the reason the agent gave in its offer for option k of
// opts when it recommended that one ("I'd go with a SQLite table keyed
// by client IP …: the database is already there and the counters
// survive restarts"): a user who takes it without a word of why takes
// it for that reason. It returns the sentence that recommended it too.
func recommended(offer string, opts []string, k int) (why, said string) {
	for _, s := range prose.Sentences(offer) {
		c := strings.Fields(prose.Chose(s))
		if len(c) == 0 || weigh.Picked(opts, strings.Join(c[:min(len(c), 4)], " ")) != k {
			continue // a pick is a short reply: its first words name it
		}
		if _, r, ok := strings.Cut(s, ": "); ok && prose.IsFullClause(r) {
			return prose.Capitalize(r), s
		}
		if loc := prose.ReasonAt(s); loc != nil {
			return prose.Capitalize(strings.TrimSpace(s[loc[0]:])), s
		}
		return "", s
	}
	return "", ""
}

// madeDecision is a decision a sentence made: its line in the summary
// and its candidate's title.
type madeDecision struct{ bullet, title string }

// passOver files line as the rejection of option o, once per segment
// however many answers turn it down.
func (a *analysis) passOver(o, line string) {
	if key := strings.ToLower(o); !a.turned[key] {
		a.turned[key] = true
		a.rejected = prose.AppendNew(a.rejected, prose.UpTo(line, 300))
	}
}

// soOut reports whether s concludes against what prev weighed: "So
// pg_tileserv is out." after "pg_tileserv is a fine tool, but …"; not
// "So the fix is out." after "I shipped v2.3 this morning."
func soOut(s, prev string) bool {
	m := cue.SoOut.FindStringSubmatch(s)
	if m == nil || !weigh.Conceded.MatchString(prev) {
		return false
	}
	return shared(wordSet(m[1]), wordSet(prev)) > 0
}

// turnDown files as rejected the options the agent's message text turns
// down, of those the prompt it answers put or of its own: "Fabio or
// Traefik?" answered "Fabio reads Consul tags and is simple, but it has no
// ACME support. … I'd go with Traefik".
func (a *analysis) turnDown(text string) {
	for _, v := range a.turnedDown(text) {
		line := prose.TrimLead(v.Line)
		switch {
		case v.Line == "":
			line = prose.Capitalize(v.Option) + PassedOver + v.For + "."
		case v.For != "" && !strings.Contains(strings.ToLower(v.Line), strings.ToLower(v.For)):
			line = strings.TrimRight(line, ".") + PassedOver + v.For + "."
		}
		a.passOver(v.Option, line)
	}
}

// optionsOf are the options the agent's message text weighs: its own,
// or those the prompt it answers put.
func (a *analysis) optionsOf(text string) []string {
	if own := weigh.Options(text); own != nil {
		return own
	}
	return a.options
}

// turnedDown reads the options the agent's message text turns down and
// notes the sentences that turn them down, which say what the option is
// like, no fact or decision of their own.
func (a *analysis) turnedDown(text string) []weigh.Verdict {
	vs := weigh.Turned(a.optionsOf(text), text)
	for _, v := range vs {
		if v.Line != "" {
			if a.turnedLine == nil {
				a.turnedLine = map[string]bool{}
			}
			a.turnedLine[v.Line] = true
		}
	}
	return vs
}

// noted reports whether s is a fact said to be kept ("For the record,
// the printer enumerates as vendor 0x04b8") that holds a value.
func noted(s string) bool {
	return cue.RecordCue.MatchString(s) && strings.ContainsAny(s, "0123456789")
}

// where reports whether s is a note of where a kind of thing is kept and
// how it is run, said without a verb: "Migrations with goose in
// `db/migrations` (`make migrate-up`)".
func where(s string) bool {
	return cue.WhereNote.MatchString(s) && !prose.IsFullClause(s)
}

// cmdUse reports whether s says what a command does: "`wp wbd reindex
// --dry-run` prints each price it would store, and leaves the table
// alone". A result ("`go test` passes on all three packages") is not
// one.
func cmdUse(s string) bool {
	m := cue.CmdSubject.FindStringSubmatch(s)
	return m != nil && !cmdResult[m[1]]
}

// howTo reports whether s says how to do something with a command:
// "refresh the .ts files with `cmake --build --preset dev --target
// update_translations`", "the Lambda containers only have to join that
// network as well: `sam local start-api --docker-network cragbook-local`".
// The agent telling what it ran ("I reproduced it with `go test`") is
// narration.
func howTo(s string) bool {
	return (cue.CmdWith.MatchString(s) || cue.CmdAfter.MatchString(s)) && !cue.RanIt.MatchString(s) && !cue.StillTo.MatchString(s) && !cue.OutputSaid.MatchString(s)
}

var (
	cmdResult = prose.WordSet(`passes fails works succeeds errors crashes hangs breaks exits finishes completes returns`)
)

// stepNow reports whether s is the agent saying what it does now ("Let
// me note where it comes from so it's quick tomorrow"): a step, not
// work left, whatever later time its purpose names.
func stepNow(s string) bool {
	m := cue.LetMe.FindStringSubmatch(s)
	return m != nil && !putOff[strings.ToLower(m[1])] || cue.DoingNow.MatchString(s) && !cue.GerundSubject.MatchString(s)
}

var (
	putOff = prose.WordSet(`know leave park come revisit defer skip put punt`)
)

// PassedOver joins an alternative a decision turned down ("instead of
// …") to the choice, in a Rejected line: "X — passed over for: Y". Such a
// line goes as its decision does (recall).
const PassedOver = " — passed over for: "

// attachRejected adds the rejected alternatives stated in one message
// to the body of the first decision among the candidates from index
// first on (those the message made), unless the body already says them.
func (a *analysis) attachRejected(first int, rejects []string) {
	if len(rejects) == 0 {
		return
	}
	for i := first; i < len(a.cand); i++ {
		c := &a.cand[i]
		if c.Kind != Decision {
			continue
		}
		for _, r := range rejects {
			r = prose.TrimLead(strings.TrimRight(r, ".;, "))
			if !strings.Contains(c.Body, r) && r != c.Title {
				c.Body = strings.TrimSpace(c.Body + " Rejected: " + r + ".")
			}
		}
		return
	}
}

// decisionByWe tells a user's decision ("let's use X", "we'll go with
// Y") from a standing instruction.
func decisionByWe(s string) bool {
	return (cue.WeDecide.MatchString(s) || cue.WeDecided.MatchString(s)) && !cue.PrefRule.MatchString(s)
}

func (a *analysis) add(c Candidate) {
	key := string(c.Kind) + ":" + normalize(c.Title)
	if a.seen[key] || c.Title == "" || c.Kind == Fact && !prose.IsClause(c.Title) {
		return
	}
	if c.Kind == Decision && c.Body == "" && !prose.IsClause(c.Title) && len(prose.ContentWords(c.Title)) < 2 && !strings.ContainsAny(c.Title, "0123456789`") {
		return // "The hybrid." (of "agreed on the hybrid") names a choice the proposal it takes says
	}
	if (c.Kind == Fact || c.Kind == Decision) && cue.OpenLabel.MatchString(c.Title) {
		return // "Still open: …" is work left, which the Open section holds
	}
	if (c.Kind == Fact || c.Kind == Decision) && (cue.Fragment.MatchString(c.Title) || c.Body == "" && cue.EndsOpen.MatchString(c.Title)) {
		return // "Is the next hop for 0.0.0.0/0 …", "A 33.3 ms step) with …", "You can replay one with"
	}
	if (c.Kind == Fact || c.Kind == Decision || c.Kind == Preference) && cue.Anaphoric.MatchString(c.Title) || rule.AsksThat(c.Title) {
		return // "It hadn't been written, so …" says nothing read alone; the summary keeps it in its place
	}
	a.seen[key] = true
	c.Importance = round2(clamp(c.Importance, 0, 0.95))
	a.cand = append(a.cand, c)
}

// addDecision adds a decision; change marks the report of a change,
// whose replaced value is what held before, not an alternative turned
// down, and so no rejected line.
func (a *analysis) addDecision(role Role, s, next string, change bool) {
	what, why := reason.Split(s, next)
	a.decide(role, s, what, why, change)
}

// decide adds the decision s, which says what was decided and why.
func (a *analysis) decide(role Role, s, what, why string, change bool) {
	offer := a.offer
	if role == Assistant {
		offer = a.message // "Two ways: 1. … 2. … I'd go with the second."
	}
	if m := pickedIt.FindStringSubmatchIndex(what); m != nil && role == Assistant {
		// "Feeds are built with xmlbuilder2, which escapes … I picked it
		// over fast-xml-parser": "it" is what the sentence before used.
		if name := usedName.FindStringSubmatch(sentenceBefore(a.message, s)); name != nil {
			what = what[:m[2]] + name[1] + name[2] + what[m[3]:]
		}
	}
	if p := pick.Of(what, offer); p != "" && !strings.Contains(strings.ToLower(what), strings.ToLower(p)) {
		what = strings.TrimRight(what, ".!") + ": " + p
	}
	what = pick.NamedVersion(what, offer)
	a.decisions = prose.AppendNew(a.decisions, decisionBullet(what, why))
	imp := impDecision
	if why != "" {
		imp += impDecisionWhy
	}
	if role == User {
		imp += impDecisionUser
	}
	claim := ClaimOf(Decision, what)
	t := decisionTitle(what)
	body := bodyFor(t, s, why)
	if alt, choice := prose.Alternative(what); alt != "" && !change && !cue.BareMeasure.MatchString(alt) && !cue.BareValue.MatchString(alt) {
		imp += impDecisionVs
		line := prose.Capitalize(alt) + PassedOver + strings.TrimRight(decisionTitle(choice), ".")
		if why != "" {
			line += " (" + strings.TrimRight(why, ".") + ")"
		}
		a.rejected = prose.AppendNew(a.rejected, prose.UpTo(line+".", 300))
		// The body carries what was turned down, unless it is the title's
		// own "instead of …".
		if !strings.Contains(strings.ToLower(t), strings.ToLower(alt)) {
			body = strings.TrimSpace(body + " Rejected: " + alt + ".")
		}
	}
	n := len(a.cand)
	a.add(Candidate{Kind: Decision, Title: t, Body: body, Importance: imp, Tags: tagsOf(s), Subject: claim.Subject})
	if len(a.cand) > n {
		a.lastDec, a.lastWhy, a.lastRef = len(a.cand), why != "", decisionBullet(what, why)
		if role == Assistant {
			if a.agentDecided == nil {
				a.agentDecided = map[string]madeDecision{}
			}
			a.agentDecided[s] = madeDecision{bullet: a.lastRef, title: t}
		}
	}
}

// decisionBullet is a decision as a line of the summary: what, then why.
func decisionBullet(what, why string) string {
	bullet := prose.TrimLead(what)
	if why != "" {
		return prose.UpTo(bullet+" — "+why, 480)
	}
	if !strings.HasSuffix(bullet, ".") && !strings.HasSuffix(bullet, "!") {
		bullet += "."
	}
	return prose.UpTo(bullet, 360)
}

// giveReason adds a reason said after the decision cand[i] to its body
// and to its line in the summary.
func (a *analysis) giveReason(i int, why string) {
	c := &a.cand[i]
	if strings.Contains(c.Body, why) {
		return
	}
	if !a.lastWhy {
		c.Importance = round2(clamp(c.Importance+impDecisionWhy, 0, 0.95))
		a.lastWhy = true
	}
	c.Body = strings.TrimSpace(c.Body + " " + reason.ShortFirst(prose.Capitalize(why)))
	for j, d := range a.decisions {
		if d == a.lastRef {
			a.decisions[j] = prose.UpTo(strings.TrimRight(d, ".")+" — "+why, 480)
			a.lastRef = a.decisions[j]
		}
	}
}

// caption is a call's label: a few words, what it shows in parentheses.
var caption = lazyre.New(`^(?:(?:and|now|then|also) )?(?:the )?[\w.-]+(?: [\w.-]+){0,2}\s*(?:\([^()]*\))?:$`)

// designAnswer reports whether s answers one part of a design under a
// label (choice.UnderLabel) with no environment fact there.
func designAnswer(s string) bool {
	rest, ok := choice.UnderLabel(s)
	return ok && !envLike(rest)
}

// stepNamed reports whether text, all the agent says before a tool call,
// is one short sentence that names the step ("Now the controller,
// stripped down.", "Now the sensors, as coordinator entities with
// descriptions.") or captions it with a colon.
func stepNamed(text string) bool {
	text = strings.TrimSpace(text)
	if len(text) > 100 || len(prose.Sentences(text)) != 1 {
		return false
	}
	// "Tests (the rounding tests now expect exact minutes):" captions
	// the call it opens, whatever it says in passing; "I'll move the
	// cache to SQLite so it survives restarts:" and "The cause is a
	// missing index, adding it:" say more than the step.
	return strings.HasSuffix(text, ":") && caption.MatchString(text) || cue.NowLead.MatchString(text) && !strings.ContainsAny(text, "0123456789")
}

// machine reports whether s says where a machine is or which version of
// a named product runs on it, a fact the sessions after it build on:
// "The new one is pbx01 at 10.20.0.5", "I built Asterisk 20.11.1 from
// source on it last week". A symptom or a log line names addresses too.
func machine(s string) bool {
	return (cue.HostAt.MatchString(s) || cue.RunsVersion.MatchString(s)) && prose.IsFullClause(prose.DropLeadIn(s)) && !cue.Symptom.MatchString(s)
}

// versionsOf reports whether s gives the versions of two things or more,
// each with a dot: "Toolchain per Anchor.toml: anchor 0.30.1 and solana
// 1.18.26", not "German 31 of 33, French 21 of 33".
func versionsOf(s string) bool {
	n := 0
	for _, v := range prose.Versions(s) {
		if strings.Contains(v, ".") {
			n++
		}
	}
	return n >= 2
}

// envLike: a statement that reads as a fact about where or how something
// runs, which addEnv takes.
func envLike(s string) bool {
	return cue.EnvCue.MatchString(s) && prose.HasValue(s) || prose.HasURL(s) || len(prose.Settings(s)) > 0
}

// decisionTitle is a decision clause without the talk around it: "let's
// go with chi for routing" → "Go with chi for routing".
func decisionTitle(what string) string {
	// "Rather than X, we'll Y": the decision is Y.
	if _, rest, ok := prose.LeadingDrop(what); ok {
		what = rest
	}
	// "The tests were flaky; let's use a fake clock": the clause that
	// decides.
	if cs := prose.Clauses(what); len(cs) > 1 {
		for _, c := range cs {
			if cue.DecisionCue.MatchString(c) || cue.DecisionWeak.MatchString(c) {
				what = c
				break
			}
		}
	}
	// "For the recompute job: let's use …": the decision is after the
	// topic.
	if i := strings.Index(what, ": "); i > 0 && !cue.DecisionCue.MatchString(what[:i]) && cue.DecisionCue.MatchString(what[i+2:]) {
		if !onPronoun.MatchString(what[i+2:]) || len(what[:i]) > 60 {
			what = what[i+2:]
		} // "the mail catcher: replace it with smtp4dev" names what "it" is only before its colon
	}
	t := prose.TrimLead(what)
	if u := cue.WeLead.ReplaceAllString(t, ""); len(u) >= 8 {
		t = prose.Capitalize(u)
	}
	return Title(t)
}

// pickedIt is a choice the agent says on a pronoun: "I picked it over
// fast-xml-parser, …".
var pickedIt = lazyre.New(`(?i)^(?:so,? )?(?:i|we)(?:'ve| have)? (?:picked|chose|went with|settled on|preferred) (it)\b`)

// usedName is the tool a sentence says a thing is built with or uses,
// when its name is a package's: "Feeds are built with xmlbuilder2, …".
var usedName = lazyre.New(`\b(?:built|made|written|generated|done|parsed|rendered) (?:with|using|by|on) ` + "`?" + `([a-z][\w.-]*[\d.-][\w.-]*|[a-z]+[A-Z]\w*)` + "`?" + `|\b(?:uses|use|using) ` + "`?" + `([a-z][\w.-]*[\d.-][\w.-]*)` + "`?")

// sentenceBefore returns the sentence of msg before s, "" if s opens it
// or is not in it.
func sentenceBefore(msg, s string) string {
	ss := prose.Sentences(msg)
	for i := 1; i < len(ss); i++ {
		if ss[i] == s || strings.HasPrefix(s, ss[i]) {
			return ss[i-1]
		}
	}
	return ""
}

// onPronoun opens a decision on what a pronoun stands for: "replace
// it with smtp4dev", "skip them for now".
var onPronoun = lazyre.New(`(?i)^\s*(?:let's |we'll |i'd |just )?[a-z]+ (?:it|them|that|those|these|both)\b`)

// bodyFor is an item's body: the reason and what else the statement
// says, never the title again.
func bodyFor(t, s, why string) string {
	in := map[string]bool{}
	for _, w := range prose.ContentWords(t) {
		in[w] = true
	}
	if why != "" {
		if r := reason.AfterTitle(t, s, why); r != "" {
			return r
		}
		// A title cut before its code ("From now on run the tests with")
		// keeps the statement in the body, or the command is nowhere.
		for _, c := range cue.CodeSpan.FindAllString(s, -1) {
			if c = strings.Trim(c, "`"); c != "" && !strings.Contains(t, c) && !strings.Contains(why, c) {
				if strings.Contains(s, why) {
					return s
				}
				return s + " " + prose.Capitalize(why)
			}
		}
		return reason.ShortFirst(prose.Capitalize(why))
	}
	// A lead-in ("Oh and", "Also") the title left out is no more to say.
	for _, w := range prose.ContentWords(prose.TrimLead(s)) {
		if !in[w] {
			return s
		}
	}
	return ""
}

// pointsBack is a short choice whose object the sentence before names:
// "Make it 5 days.", "I'd go with the second."
var pointsBack = lazyre.New(`(?i)^` + orderLead + `(?:` + pronounOrder + `|(?:i'd|i would|we'll|let's|i'll)? ?go with the (?:first|second|third|last|latter|former|other)(?: one| option)?)\.?$`)

// pronounOrder is a short order whose object is a pronoun ("make it 5
// days", "use those"), and orderLead the words that may open it.
const (
	pronounOrder = `(?:make|set|keep|bump|raise|lower|drop|cap|change|turn|leave|move|use|reuse|take) (?:it|them|that|this|those|these)\b[^.;]{0,30}`
	orderLead    = `(?:ok,? |so,? |then,? |yes,? )?`
)

// variantTold reports whether s opens on another variant of a thing a
// sentence before it named, the same words after a different first
// part: "Single-pass loudnorm …" after "two-pass loudnorm", "Client-side
// rendering …" after "server-side rendering".
func variantTold(s string, before []string) bool {
	m := cue.VariantHead.FindStringSubmatch(s)
	if m == nil || !variantOf[strings.ToLower(m[1])] {
		return false
	}
	for _, b := range before {
		for _, o := range cue.VariantAny.FindAllStringSubmatch(b, -1) {
			if !strings.EqualFold(o[1], m[1]) && variantOf[strings.ToLower(o[1])] && strings.EqualFold(o[2], m[2]) && strings.EqualFold(o[3], m[3]) {
				return true
			}
		}
	}
	return false
}

// variantOf are the first parts that make two variants of one thing, of
// which a design takes one: "single-pass" and "two-pass", "single-node"
// and "multi-node". "Server-side" and "client-side" rendering both run.
var variantOf = prose.WordSet(`single one two three multi double dual full partial`)

// countOf is the number a count of things left opens with: 2 of "Two
// notes for later."; 0 when it gives none in words or digits.
func countOf(s string) int {
	m := cue.CountedThings.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	switch strings.ToLower(m[1]) {
	case "two", "2":
		return 2
	case "three", "3":
		return 3
	}
	return 4
}

// pronounObject is a short order whose object is a pronoun: "Make it
// executable."
var pronounObject = lazyre.New(`(?i)^` + orderLead + pronounOrder + `\.?$`)

// answersWhy reports whether an answer's first sentences explain: the
// first is no narration, plan or question, and it or one of the two
// after it tells how one thing led to another.
func answersWhy(ss []string) bool {
	if len(ss) < 2 || strings.HasSuffix(ss[0], "?") || cue.Narrate.MatchString(ss[0]) || cue.IsPlan(ss[0]) || cue.Hedge.MatchString(ss[0]) {
		return false
	}
	for _, s := range ss[:min(3, len(ss))] {
		if cause.Mechanism(s) || cause.Is(s) {
			return true
		}
	}
	return false
}

// addRootCause adds the root cause s, told after the failure it explains
// when symptom is not empty, and reports whether it took next as part of
// it.
func (a *analysis) addRootCause(role Role, symptom, s, next string) bool {
	line := prose.TrimLead(s)
	body := ""
	if symptom != "" {
		line, body = prose.TrimLead(symptom)+" "+s, s
	}
	// The sentence after a root cause often says how it was fixed.
	took := next != "" && !strings.HasSuffix(next, "?") && !strings.HasSuffix(next, ":") && !cue.Narrate.MatchString(next) && len(next) < 300 &&
		cue.FixFollows.MatchString(next)
	if took {
		line += " " + next
		body = strings.TrimSpace(body + " " + next)
	}
	a.rootCauses = prose.AppendNew(a.rootCauses, prose.UpTo(line, 400))
	a.askedWhy = false
	imp := impRootCause
	if role == User {
		imp += 0.05
	}
	t := Title(prose.TrimLead(s))
	if symptom != "" {
		t = Title(prose.TrimLead(symptom))
	}
	if body == "" {
		body = bodyFor(t, s, "")
	}
	subject := strings.Join(prose.FirstWords(prose.ContentWords(cue.RootCause.ReplaceAllString(s, " ")), 3), " ")
	a.add(Candidate{Kind: Fact, Title: t, Body: body, Importance: imp, Tags: append([]string{"root-cause"}, tagsOf(s)...), Subject: subject})
	return took
}

func (a *analysis) addPreference(k Kind, s, next string) {
	if cue.OnlyTail.MatchString(next) && !prose.IsClause(next) {
		s += " " + next // "… by hand. Templates or config only." says what is allowed
	}
	imp := max(preference(s), impPrefStated)
	a.prefs = prose.AppendNew(a.prefs, prose.UpTo(prose.TrimLead(s), 240))
	if cue.OneOff.MatchString(s) {
		return // an instruction for this task, not a standing one
	}
	what, why := reason.Split(s, next)
	t := Title(prose.TrimLead(what))
	a.add(Candidate{Kind: k, Title: t, Body: bodyFor(t, s, why), Importance: imp, Tags: tagsOf(s), Subject: ClaimOf(k, what).Subject})
}

func (a *analysis) addEnv(role Role, s string) {
	a.env = prose.AppendNew(a.env, prose.UpTo(prose.TrimLead(s), 240))
	s = dropTopic(s)
	imp := impFact
	if prose.StrongValue(s) {
		imp += impFactValue
	}
	if role == User {
		imp += impFactUser
	}
	// "The API listens on 8080 and the admin UI on 3000" is two facts:
	// either may change alone.
	// Each part is an item of its own, its body only what its title
	// leaves out: the whole sentence in each would show the others'
	// titles again beside each of them.
	parts := conjuncts(s)
	for _, p := range parts {
		t := Title(prose.TrimLead(p))
		body := bodyFor(t, p, "")
		a.add(Candidate{Kind: Fact, Title: t, Body: body, Importance: imp, Tags: append([]string{"environment"}, tagsOf(p)...), Subject: ClaimOf(Fact, p).Subject})
	}
}

// dropTopic removes a topic named before a colon when the topic holds no
// value and what follows is a clause of its own.
func dropTopic(s string) string {
	m := cue.TopicLead.FindStringSubmatch(s)
	if m == nil || prose.HasValue(m[1]) || !prose.IsClause(m[2]) || !prose.HasValue(m[2]) {
		return s
	}
	return prose.Capitalize(m[2])
}

// conjuncts splits a sentence at "and", commas and semicolons into parts
// that each hold a value of their own (a port, a path, a version, …) and
// are each a full clause, with a subject and a verb; a part that is not
// ("the admin UI on 3000", "which click 8.1 is fine with") stays with the
// part before it.
func conjuncts(s string) []string {
	if strings.Count(s, "`")%2 != 0 {
		return []string{s}
	}
	var parts, seps []string
	last := 0
	for _, m := range cue.Conjunction.FindAllStringIndex(s, -1) {
		if strings.Count(s[:m[0]], "`")%2 != 0 {
			continue // inside code
		}
		parts = append(parts, s[last:m[0]])
		seps = append(seps, s[m[0]:m[1]])
		last = m[1]
	}
	parts = append(parts, s[last:])
	var out []string
	for i, p := range parts {
		p = strings.TrimRight(strings.TrimSpace(p), ".")
		if len(out) > 0 && (!prose.HasValue(p) || len(strings.Fields(p)) < 3 || !prose.HasValue(out[len(out)-1]) ||
			!prose.IsFullClause(p) || !prose.IsFullClause(out[len(out)-1])) {
			out[len(out)-1] += seps[i-1] + p // as it was written
			continue
		}
		out = append(out, p)
	}
	if len(out) < 2 {
		return []string{s}
	}
	return out
}

// openText is an open item without its label: "Still to do: add X" is
// "Add X".
// openPoints are the items left open at the end of the segment: those
// carried from the summary so far and those stated here, less those
// resolved later in the segment; commands that still fail; the agent's
// closing question; the last prompt if nothing answered it.
func (a *analysis) openPoints() []string {
	var out []string
	for _, r := range a.failing {
		line := code(prose.Clip(r.key, 100)) + " still fails"
		if r.err != "" {
			line += ": " + code(r.err)
		}
		out = prose.AppendNew(out, line)
	}
	for i, o := range a.open {
		if !a.resolvedAfter(o.turn, o.text) && !(o.put && a.names(i)) {
			out = prose.AppendNew(out, o.text)
		}
	}
	if a.question != "" {
		out = prose.AppendNew(out, "Asked the user: "+a.question)
	}
	if a.pending != "" {
		out = prose.AppendNew(out, "Not yet answered: "+a.pending)
	}
	return out
}

// names reports whether another open item holds what open item i
// names: the words left of it once the putting off is taken out
// ("leave the crash for tomorrow": crash), at most three.
func (a *analysis) names(i int) bool {
	var what []string
	for _, w := range prose.ContentWords(cue.LaterCue.ReplaceAllString(a.open[i].text, " ")) {
		if !putWords[strings.ToLower(w)] {
			what = append(what, prose.Stem(w))
		}
	}
	if len(what) == 0 || len(what) > 3 {
		return false
	}
	for j, o := range a.open {
		if j == i || o.put {
			continue
		}
		ws := wordSet(o.text)
		all := true
		for _, w := range what {
			all = all && ws[w]
		}
		if all {
			return true
		}
	}
	return false
}

// putWords say that something waits, not what.
var putWords = prose.WordSet(`leave park skip keep let wait hold defer thanks ok okay fine good`)

// resolvedAfter reports whether a statement after turn says that the
// open item was done: it names two of the item's content words (or all,
// when it has fewer) and a word of completion.
func (a *analysis) resolvedAfter(turn int, item string) bool {
	if a.createdAfter(turn, item) {
		return true
	}
	words := prose.ContentWords(item)
	need := min(2, len(words))
	if need == 0 {
		return false
	}
	for _, s := range a.said {
		if s.turn <= turn {
			continue
		}
		have := 0
		for _, w := range words {
			if s.words[prose.Stem(w)] {
				have++
			}
		}
		if have >= need {
			return true
		}
	}
	return false
}

// carry adds the open items of the summary so far (the **Open** list of
// its last section) that this segment did not resolve. A prompt "not yet
// answered" there is answered by any reply here; a command that "still
// fails" there is resolved when it succeeds here.
// createdAfter reports whether item says a file is missing and the
// segment wrote that file after turn: "the repo has no Dockerfile yet"
// once a Dockerfile is written.
func (a *analysis) createdAfter(turn int, item string) bool {
	names := prose.MissingNames(item)
	for _, f := range a.files {
		if f.writes > 0 && f.wrote > turn && names[strings.ToLower(path.Base(f.path))] {
			return true
		}
	}
	return false
}

func (a *analysis) carry(prev string) {
	items := lastOpen(prev)
	if len(items) == 0 {
		return
	}
	replied := false
	ok := map[string]bool{}
	for _, t := range a.turns {
		if t.Role == Assistant && strings.TrimSpace(t.Text) != "" || t.Role == Tool {
			replied = true
		}
	}
	for _, r := range a.runs {
		if !r.failed {
			ok[r.key] = true
		}
	}
	var carried []openItem
	for _, it := range items {
		switch {
		case strings.HasPrefix(it, "Not yet answered: ") || strings.HasPrefix(it, "Asked the user: "):
			if replied || len(a.requests) > 0 {
				continue
			}
		case strings.Contains(it, " still fails"):
			if k := strings.Trim(it[:strings.Index(it, " still fails")], "`"); ok[k] {
				continue
			}
		}
		if a.resolvedAfter(-1, it) {
			continue
		}
		carried = append(carried, openItem{turn: -1, text: it})
	}
	a.open = append(carried, a.open...)
}

// lastOpen reads the bullets under the last **Open** heading of the last
// segment of a summary.
func lastOpen(sum string) []string { return lastPart(sum, "**Open") }

// lastPart reads the bullets under the last heading of the last segment
// of summary sum that opens on head ("**Request").
func lastPart(sum, head string) []string {
	i := strings.LastIndex(sum, "\n## Segment ")
	if i < 0 {
		if !strings.HasPrefix(sum, "## Segment ") {
			return nil
		}
		i = 0
	}
	var out []string
	in := false
	for _, l := range strings.Split(sum[i:], "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "**"):
			in = strings.HasPrefix(l, head)
		case in && strings.HasPrefix(l, "- "):
			out = append(out, strings.TrimSpace(l[2:]))
		}
	}
	return out
}
