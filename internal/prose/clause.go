package prose

import (
	"strings"
	"unicode"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// A statement becomes an item only when it is a clause of its own: it has
// a verb, and it does not begin as the tail of another clause ("which
// click 8.1 is fine with", "in both config/queued.yaml"). The test is
// lexical: auxiliaries and modals, common verbs in their base form, and
// words ending in -s or -ed that do not follow a determiner or a
// preposition (which makes them nouns: "the ports", "on weekends").
var (
	auxVerb   = words{list: `is are was were be been being am isn't aren't wasn't weren't has have had hasn't haven't does do did doesn't don't didn't can can't cannot could couldn't will won't would wouldn't should shouldn't must may might shall it's that's there's here's what's he's she's we're they're you're i'm we've i've they've we'll i'll they'll`}
	baseVerb  = words{list: `run use poll live listen point need go keep read write call take get set work deploy build start expect require send serve sit stay hold proxy store put pass fail break crash return skip retry claim lock load parse map mount expose publish pin lint test bump ship merge depend rely fit come give make let`}
	notAfter  = words{list: `the a an this that these those our your their its my his her some any all no every each of in on at for with by from to into over under about between per via two three four five several many few more most`}
	fragStart = words{list: `which who whom whose where when while whereas although though because since unless until if as so but or and nor than then that whereby`}
	prepStart = words{list: `in on at for with by from to into over under about between per via after before during like both either neither`}
	wordOnly  = lazyre.New(`^[A-Za-z']+$`)
	// pastForm are common verbs whose past tense is not -ed; after a
	// subject pronoun each is one: "I built it on Node 20", "we ran it".
	pastForm  = words{list: `built ran wrote made took got set put kept left found went came gave brought sent spent held told said saw knew thought chose broke began drove fell forgot froze grew hid hit led let lost meant met paid quit read rose shut sold split spread stuck taught threw understood won cut`}
	subject   = words{list: `i we you they he she it`}
	whWord    = words{list: `how what why where which whether who when`}
	midAdverb = words{list: `now always never still also only just already usually often rarely`}
	phrase    = words{list: `in on at to for from with of by into over under across after before via through without`}
)

// hasVerb reports whether s holds a finite verb, as far as its words tell.
func hasVerb(s string) bool {
	prev, comma := "", false // comma: the word before prev ended one
	for i, f := range strings.Fields(strings.ToLower(s)) {
		w := strings.Trim(f, ".,;:!?()[]\"“”")
		if !wordOnly.MatchString(w) {
			prev, comma = "-", false
			continue
		}
		switch {
		case auxVerb.has(w) || strings.HasSuffix(w, "n't"):
			return true
		case i == 0 && baseVerb.has(w): // an imperative: "Run the tests with …"
			return true
		case i >= 2 && midAdverb.has(prev) && !comma && !midAdverb.has(w) && !notAfter.has(w) && !prepStart.has(w) && !fragStart.has(w) && !auxVerb.has(w) && len(w) > 2:
			// "Backtests now draw …", "the workers always pull …": a
			// word after the adverb that sits between subject and verb;
			// after a comma ("The tests, still flaky.") it is none.
			return true
		case prev != "" && !notAfter.has(prev) && (baseVerb.has(w) || len(w) > 3 && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"))):
			return true
		}
		prev, comma = w, strings.HasSuffix(f, ",")
	}
	return false
}

// isClause reports whether s can stand as an item: it has a verb and does
// not begin with a word that ties it to a clause before it.
func IsClause(s string) bool {
	first := ""
	if fs := strings.Fields(s); len(fs) > 0 {
		first = strings.ToLower(strings.TrimFunc(fs[0], func(r rune) bool { return !unicode.IsLetter(r) }))
	}
	return !fragStart.has(first) && hasVerb(s)
}

// saysPast reports whether s begins with a subject pronoun and a past
// tense not in -ed: "I built it on Node 20.11.1", "we ran it twice".
// Only a sentence's own clauses are told apart by it: elsewhere a
// statement's reading stays as the -ed test gives it.
func saysPast(s string) bool {
	fs := strings.Fields(strings.ToLower(s))
	return len(fs) > 1 && subject.has(fs[0]) && pastForm.has(strings.Trim(fs[1], ".,;:!?"))
}

// isFullClause is a clause that also does not begin with a preposition:
// the halves of a sentence split at "and" must both be one ("in both
// config/queued.yaml" is not).
func IsFullClause(s string) bool {
	first := ""
	if fs := strings.Fields(s); len(fs) > 0 {
		first = strings.ToLower(fs[0])
	}
	return !prepStart.has(first) && IsClause(s)
}

// VerbAfterSubject reports whether s goes on from its subject, a few
// words, to a verb before any preposition or comma: "the API returns
// 404", "the tests pass", not "the flag rename with a deprecated alias",
// "a build to see how it behaves", "the Stripe webhooks in handler.go"
// or "how the model session is created". hasVerb asks whether a verb is
// anywhere; this whether the sentence's subject has one.
func VerbAfterSubject(s string) bool {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 0 || whWord.has(f[0]) {
		return false
	}
	from := 1 // the subject's first word is no verb
	if notAfter.has(f[0]) && !phrase.has(f[0]) {
		from = 2 // nor the noun after its determiner
	}
	for i, w := range f {
		w = strings.Trim(w, ".,;:!?`\"'()")
		if i >= 7 {
			break
		}
		if i > 0 && phrase.has(w) {
			return false
		}
		plural := strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss")
		if plural && (strings.HasSuffix(f[i], ",") || i+1 < len(f) && phrase.has(strings.Trim(f[i+1], ".,;:"))) {
			return false // a noun before its phrase
		}
		if i >= from && (auxVerb.has(w) || baseVerb.has(w) || strings.HasSuffix(w, "ed") || plural) {
			return true
		}
		if strings.HasSuffix(f[i], ",") || strings.HasSuffix(f[i], ":") {
			return false // "the sensors, as …", "the C side: GUCs, …"
		}
	}
	return false
}
