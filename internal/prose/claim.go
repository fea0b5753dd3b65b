package prose

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// Claim is what a statement says, reduced to what consolidation compares:
// the subject it is about, the value it gives that subject, and what it
// gives up. "The API now listens on 8081" is {api port, [8081]}; "let's
// go with chi for the HTTP router" is {http router, [chi]}; "we're
// dropping Redis after all" gives up [redis].
type Claim struct {
	Subject string
	Values  []string
	Dropped []string
	// Chosen marks a decision's subject that is only what was chosen
	// ("sqlc it is"), not what it is for ("for the job queue").
	Chosen bool
}

var (
	// A bare ":8080" is a port too ("back on the default :8080").
	portRE = lazyre.New(`(?i)(?:\bport\s*:?\s*|\blocalhost:|[\w.-]+:|\b(?:on|to|at|from)\s+:?|(?:^|[\s(]):)(\d{2,5})\b`)
	urlRE  = lazyre.New(`\b[a-z][a-z0-9+.-]*://[^\s` + "`" + `)>\]]+`)
	// runWith is a command named as how something is done: "deploy with
	// `fly deploy`".
	runWith   = lazyre.New("(?i)\\b(?:with|via|using|run|runs|running|through|is|are)\\s+`([^`]{2,})`")
	versionRE = lazyre.New(`(?i)\b([a-z][\w.+#-]*)\s+(?:version\s+|v)?(\d+(?:\.\d+){1,2}[\w.-]*|\d+)\b`)
	versionIn = lazyre.New(`(?i)\bv?\d+\.\d+(\.\d+)?\b|\bversion\b|\b(bump|upgrad|downgrad)\w*`)
	// A server named right before "on 5416" is on that port: "your
	// cluster on 5416 needs …"; and compose maps a port "to 6380".
	portHint    = lazyre.New(`(?i)listen|serv|:\d|bind|expos|forward|\bmaps?\b[^.;]*\bto\s+\d{2,5}\b|\b(?:cluster|instance|database|db|broker|proxy|daemon|postgres|postgresql|redis|mysql|mariadb|mongo|mongodb|rabbitmq|kafka|nats|memcached|elasticsearch|opensearch)\s+(?:is\s+|runs\s+|listens\s+)?(?:on|at)\s+:?\d{4,5}\b`)
	replaceWith = lazyre.New(`(?i)\breplac\w* .+? with\s+(?:the |a |an )?([^,.;:()]+)`)
	fromTo      = lazyre.New(`(?i)\bfrom\s+\S+(?:\s+\S+)?\s+to\s+(?:the |a |an )?([^,.;:()]+)`)
	fromRE      = lazyre.New(`(?i)\bfrom\b`)
	switchObj   = lazyre.New(`(?i)\b(?:switch|mov|migrat|chang|port|replac)\w*\s+(?:the |our |its )?([\w/ -]+?)\s+from\s`)
	versionNum  = lazyre.New(`\bv?\d+\.\d+(\.\d+)?\b`)
	// fileSays is a sentence that only says what a file holds: ".nvmrc
	// says 20.15.1", "`.python-version` is 3.12.4 now".
	fileSays  = lazyre.New("^(?:[Tt]he\\s+)?`?([\\w./-]*\\.[\\w-]+)`?\\s+(?:says|is|has|holds|contains|pins|reads)\\s+(?:now\\s+)?`?v?(\\d+(?:\\.\\d+)*)`?(?:\\s+now)?[.!]?$")
	envVarRE  = lazyre.New(`\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b`)
	pathRE    = lazyre.New(`(?:^|[\s` + "`" + `(])((?:~|\.{1,2})?/[\w.@-]+(?:/[\w.@*-]*)*|[\w-]+/[\w.-]+(?:/[\w.-]+)*\.\w{1,5}|[\w-]+\.(?:ya?ml|toml|json|env|ini|conf|cfg|sql|go|py|ts|js|rs|md))`)
	hostRE    = lazyre.New(`(?i)\b[\w-]+(\.[\w-]+)*\.(internal|local|lan|io|com|net|org|dev|cloud|svc)\b`)
	cmdRE     = lazyre.New("`((?:make|go|npm|npx|pnpm|yarn|bun|python3?|pytest|uv|pip|poetry|cargo|docker|docker-compose|kubectl|terraform|tofu|helm|just|task|bundle|rake|rails|mvn|gradle|dotnet|deno|node|tox|nox|ruff|mix|sbt|ansible-playbook|\\./|bin/|scripts/)[^`]*)`")
	purposeRE = lazyre.New(`(?i)\b(?:for\s+((?:the|our|a|an|its|their|all|every|each)\s+)?|as\s+(the|our|a|an)\s+)([^,.;:()!?` + "`" + `]+)`)
	// The names dropRE and chooseRE capture run on through a dot inside
	// a word: "server.ts", "`res.write`".
	dropRE   = lazyre.New(`(?i)\b(?:drop(?:ped|ping)?|ditch(?:ed|ing)?|remov(?:e|ed|ing)|replac(?:e|ed|ing)|instead of|rather than|over|switch(?:ed|ing)? (?:[\w/-]+ ){0,3}from|mov(?:e|ed|ing) (?:away )?from|no longer (?:use|using|need)|(?:won't|will not|not going to|don't|do not) use|(?:decided|voted|argued|chose|opted) against|get rid of|got rid of|rip(?:ped)? out)\s+((?:the|our|a|an)\s+)?((?:[^,.;:()!?]|\.[^\s,.;:()!?])+)`)
	chooseRE = lazyre.New(`(?i)\b(?:use|using|uses|go(?:ing)? with|went with|switch(?:ed|ing)? (?:\w+ )?to|mov(?:e|ed|ing) (?:\w+ )?to|settled on|chose|choose|chosen|picked?|adopt(?:ed)?|stick(?:ing)? (?:with|to)|keep(?:ing)?|with|opt(?:ed)? for|in favou?r of|rely on)\s+((?:the|our|a|an|plain)\s+)?((?:[^,.;:()!?]|\.[^\s,.;:()!?])+)`)
	enoughRE = lazyre.New(`(?i)^(?:[\w' ]*,\s*)?([^,;:]+?)\s+(?:is|are)\s+(?:enough|fine|sufficient|simpler|good enough|the way to go|it)\b`)
	itIsRE   = lazyre.New(`(?i)^(.+?),?\s+it is[.!]?$`)
	// goWithRE finds what a decision takes by a verb of choosing only:
	// chooseRE's "use" and "with" name what a statement uses, not what
	// it chose.
	goWithRE = lazyre.New(`(?i)\b(?:go(?:ing)? with|went with|settled on|decided on|opt(?:ed)? for|stick(?:ing)? with|(?:my|our) (?:recommendation|suggestion|pick|vote) (?:is|would be|goes to)(?: for)?)\s+(?:the |our |a |an )?([^,.;:()!?—–]+)`)
	wordRE   = lazyre.New(`[\p{L}\p{N}][\p{L}\p{N}_'./+#-]*`)
)

// stop words: left out of subjects and values.
var stopWords = words{list: `a an the and or but of to in on at for with by from as is are was were be been being
	it its it's this that these those we i you they our your their my me us them use uses used using
	instead not no do does did doing should will would can could must may might shall have has had so than then
	there here into over about after all also just now currently locally still only really actually very
	let's lets let we'll we're i'll i'm go going went gone keep keeping kept switch switched switching
	stick sticking settle settled chose choose chosen pick picked opt opted adopt adopted decided decide
	decision drop dropped dropping ditch ditching replace replaced replacing move moved moving rather
	because since otherwise when while if which what who how why where whether one some any every each
	new old same other another more less most least much many enough fine good better best way thing things
	please always never ever don't do not make sure want like prefer i'd rather would okay ok yes so well
	run runs running ran live lives listen listens sit sits serve serves served point points set default defaults
	now today tomorrow yet again back out up down off need needs needed require requires expect expects
	get gets got put make makes made call called see seen look looks found find turns turned out
	before after during until first pushing committing merging deploying releasing`}

// WordSet is the set of the whitespace-separated words of s.
func WordSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(s) {
		set[w] = true
	}
	return set
}

// words is a WordSet made at its first lookup. The package's word lists
// are package-level values of it, which need no code at start: as maps
// made by WordSet they took every cairn command, the many that read no
// prose among them, 27 maps and about 80 KB of fresh heap at each start.
type words struct {
	list string // the words, separated by white space
	once sync.Once
	set  map[string]bool
}

// has tells whether w is one of the words, making the set the first time.
// Safe from any goroutine.
func (s *words) has(w string) bool {
	s.once.Do(func() { s.set = WordSet(s.list) })
	return s.set[w]
}

// FactClaim reads the claim of a fact: the attribute from the value it
// holds (a port, a URL, a version, a variable, a command, a path, a host),
// the entity from the words before the verb. It never fails: a statement
// it cannot read has an empty claim.
func FactClaim(text string) Claim {
	s := trimLeadIn(text)
	if strings.Contains(s, "from ") || strings.Contains(s, "From ") || strings.Contains(s, "going forward") || strings.Contains(s, "Going forward") {
		// "From now on the cluster is on port 5417" states the cluster's
		// port as "the cluster is on port 5417" does: when it holds from
		// is no part of what it is about.
		s = strings.TrimLeft(standing.ReplaceAllString(s, ""), " ,:")
	}
	return factClaim(s)
}

// Standing reports whether s says it holds from now on: an instruction
// that holds until it is taken back.
func Standing(s string) bool { return standing.MatchString(s) }

// standing says a statement holds from now on.
var standing = lazyre.New(`(?i)\s*\b(?:from now on|going forward|from here on)\b,?`)

// DecisionClaim reads the claim of a decision: what it is for, what was
// chosen and what it gives up.
func DecisionClaim(text string) Claim { return decisionClaim(trimLeadIn(text)) }

// TopicClaim reads the claim of any other statement: its first three
// content words as its subject.
func TopicClaim(text string) Claim {
	return Claim{Subject: strings.Join(FirstWords(ContentWords(trimLeadIn(text)), 3), " ")}
}

func trimLeadIn(text string) string {
	s := strings.ReplaceAll(strings.TrimSpace(text), "’", "'")
	return leadIn.ReplaceAllString(s, "")
}

// leadIn is talk before the point: "OK, ", "Decided: ", "FYI ".
var leadIn = lazyre.New(`(?i)^((ok|okay|alright|yes|yeah|yep|so|also|good|great|right|then|and|but|fyi|btw|by the way|note|decided|decision|fact|summary|actually|update|correction|heads up|fair enough|anyway|hmm+|well|cool|thanks|morning|hi|hey|one more thing|oh|(?:just )?to be clear(?: about (?:one|this|that|a few) things?)?(?: up front| first)?|agreed(?: on| to| with)?(?: all(?: of)?)?(?: (?:it|that|this|them|both|two|three|four|everything))?)\b[,:.!]?\s+(—\s+)?|(?:what happened|(?:about|on|re) (?:the |our )?(?:environment|setup|infrastructure|infra)|(?:some )?(?:background|context)(?: (?:so you have it|for you|first))?|(?:one (?:more )?(?:thing|rule)|(?:new|house|ground) rule)(?: (?:i want|i'd like|i need)(?: as a rule)?| from (?:me|my side|my end|us))?):\s+)+`)

// factClaim: the attribute is read from the value the fact holds (a port,
// a URL, a version, a variable, a command, a path, a host), the entity
// from the words before the verb (or after it when the sentence starts
// with a pronoun).
func factClaim(s string) Claim {
	var attr string
	var values []string
	entity := ""
	if m := fileSays.FindStringSubmatch(s); m != nil {
		// ".nvmrc says 20.15.1": what a small file holds.
		return Claim{Subject: strings.ToLower(m[1]) + " content", Values: []string{strings.ToLower(m[2])}}
	}
	switch {
	case envVarRE.MatchString(s):
		v := envVarRE.FindString(s)
		return Claim{Subject: strings.ToLower(v), Values: valuesBut(s, v)}
	case speaksOfPorts(s):
		attr = "port"
		for _, m := range portRE.FindAllStringSubmatch(s, -1) {
			values = append(values, m[1])
		}
		// A port moved "from 8080 to 8081" holds the last.
		if len(values) > 1 && fromRE.MatchString(s) {
			values = values[len(values)-1:]
		}
	case urlRE.MatchString(s):
		attr = "url"
		values = urlRE.FindAllString(s, -1)
	case cmdRE.MatchString(s) || runWith.MatchString(s):
		attr = "command"
		m := cmdRE.FindStringSubmatch(s)
		if m == nil {
			m = runWith.FindStringSubmatch(s)
		}
		values = []string{m[1]}
		purpose := commandPurpose(s, m[1])
		// "The billing service's tests run with …": whose command.
		var who []string
		for _, w := range entityWords(s, values, attr, false) {
			if Stem(w) != Stem(purpose) && !strings.HasPrefix(w, purpose) {
				who = append(who, w)
			}
		}
		entity = strings.TrimSpace(strings.Join(who, " ") + " " + purpose)
	case versionIn.MatchString(s) && versionRE.MatchString(s):
		attr = "version"
		for _, m := range versionRE.FindAllStringSubmatch(s, -1) {
			name := strings.ToLower(m[1])
			if stopWords.has(name) || name == "version" || name == "v" || name == "from" {
				continue
			}
			if !strings.ContainsAny(m[2], ".") && !strings.Contains(strings.ToLower(s), "version") {
				continue
			}
			entity = name
			values = append(values, m[2])
		}
		if len(values) == 0 {
			values = versionNum.FindAllString(s, -1)
		}
		if len(values) > 1 && fromRE.MatchString(s) {
			values = values[len(values)-1:]
		}
	case len(paths(s)) > 0:
		attr = "path"
		for _, p := range paths(s) {
			values = append(values, strings.ToLower(strings.TrimRight(p, ".")))
		}
	case hostRE.MatchString(s):
		attr = "host"
		values = []string{strings.ToLower(hostRE.FindString(s))}
	case durationRE.MatchString(s):
		// "Sessions last 30 days" and, later, "sessions now expire
		// after 8 hours": how long the thing the sentence starts with
		// takes, lasts or waits.
		attr = "duration"
		entity, values = durationOf(s)
	}
	if entity == "" {
		entity = strings.Join(entityWords(s, values, attr, true), " ")
	}
	subj := strings.TrimSpace(entity + " " + attr)
	return Claim{Subject: subj, Values: lower(values)}
}

// paths are the file paths s names. A name that goes on past what looks
// like a file's extension ("spark.sql.shuffle.partitions") is a key, not
// the file "spark.sql".
func paths(s string) []string {
	var out []string
	for _, m := range pathRE.FindAllStringSubmatchIndex(s, -1) {
		if end := m[3]; end+1 < len(s) && s[end] == '.' && isWordByte(s[end+1]) {
			continue
		}
		out = append(out, s[m[2]:m[3]])
	}
	return out
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// ItIs is what a choice said as "X it is" chose ("Self-hosted on
// Postgres it is." chose "Self-hosted on Postgres"), its lead-in ("ok,
// so, ") dropped; "" for any other sentence.
func ItIs(s string) string {
	if m := itIsRE.FindStringSubmatch(DropLeadIn(s)); m != nil {
		return m[1]
	}
	return ""
}

// Chose is what a decision chose, said as "X it is" (ItIs) or with a
// verb of choosing ("I'd go with a SQLite table keyed by client IP":
// "SQLite table keyed by client IP"); "" for any other sentence.
func Chose(s string) string {
	if c := ItIs(s); c != "" {
		return c
	}
	if m := goWithRE.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

// BareOption is the option a decision names and nothing else, as the
// answer to a question of options reads ("A small table in the SQLite
// database we already have", with or without "— why"); "" for a
// sentence that says what it is for or states something ("Keep the
// theme in a Redux slice", "The guard lives in click_rate").
func BareOption(s string) string {
	o, _, _ := strings.Cut(s, " — ")
	o = strings.TrimRight(strings.TrimSpace(o), ".")
	if !optionLead.MatchString(o) || optionVerb.MatchString(o) || VerbAfterSubject(o) || len(strings.Fields(o)) < 2 {
		return ""
	}
	return o
}

var (
	optionLead = lazyre.New(`(?i)^(?:a|an|the|one)\s`)
	// optionVerb is a verb within the first words, after the subject:
	// "The nightly backup runs at 02:00" states. (A plural noun there
	// reads as one too: such an option is missed, not mistaken.)
	optionVerb = lazyre.New(`(?i)^(?:a|an|the|one)\s+(?:[\w-]+\s+){0,3}?(?:is|are|was|were|has|have|had|does|do|did|can|could|will|would|must|should|may|might|[a-z]{2,}(?:s|ed))\b`)
)

// durationOf reads a duration of s, which durationRE matches: what
// lasts (the last three content words before the first duration, stems)
// and how long, in one spelling ("15min", "1h").
func durationOf(s string) (entity string, values []string) {
	for _, m := range durationRE.FindAllStringSubmatch(s, -1) {
		n, unit := m[1], m[2]
		if m[3] != "" {
			n, _ = Digits(strings.ToLower(m[3]))
			unit = m[4]
		}
		if m[5] != "" {
			unit = m[6]
			switch f := strings.ToLower(m[5]); {
			case f == "an" && m[7] != "":
				n = "1.5" // "an hour and a half"
			case f == "an":
				n = "1"
			case f == "half an":
				n = "0.5"
			case strings.HasPrefix(f, "three"):
				n = "0.75"
			default:
				n = "0.25" // "a quarter of an hour"
			}
		}
		// In seconds: "one hour" and "60 minutes" are one value.
		f, _ := strconv.ParseFloat(n, 64)
		values = append(values, strconv.FormatFloat(f*unitSeconds[durationUnit(unit)], 'f', -1, 64)+"s")
	}
	if len(values) > 1 && fromRE.MatchString(s) {
		values = values[len(values)-1:]
	}
	var ws []string
	for _, w := range ContentWords(s[:durationRE.FindStringIndex(s)[0]]) {
		if !durationVerbs.has(w) {
			ws = append(ws, Stem(w))
		}
	}
	return strings.Join(ws[max(0, len(ws)-3):], " "), values
}

// Durations are the durations s gives, a claim per clause that gives
// one: "access tokens live 15 minutes, refresh tokens 30 days" says
// how long two things last.
func Durations(s string) []Claim {
	if !durationRE.MatchString(s) {
		return nil
	}
	var out []Claim
	s = trimLeadIn(s)
	if l := strings.ToLower(s); strings.Contains(l, "before") || strings.Contains(l, "earlier") || strings.Contains(l, "previously") || strings.Contains(l, "until now") || strings.Contains(l, " from ") {
		s = formerDuration.ReplaceAllString(s, "")
	}
	var clauses []string
	for _, c := range durationClause.Split(s, -1) {
		if n := len(clauses); n > 0 && strings.HasPrefix(c, "a half") {
			clauses[n-1] += " and " + c // "an hour and a half"
			continue
		}
		clauses = append(clauses, c)
	}
	for i, c := range clauses {
		if !durationRE.MatchString(c) {
			continue
		}
		e, v := durationOf(c)
		if e == "" && lifetimeVerb.MatchString(c) || passiveOpen.MatchString(c) {
			// "Upload URLs are signed … and expire after 10 minutes",
			// "pump: starts below 30 %, …, and is cut after 90 s": the
			// clause's subject is the sentence's, and what the clause
			// says of it ("are deleted after") names what lasts.
			var ws []string
			for _, w := range FirstWords(ContentWords(s), 2) {
				ws = append(ws, Stem(w))
			}
			e = strings.TrimSpace(strings.Join(ws, " ") + " " + e)
		}
		if e != "" {
			out = append(out, Claim{Subject: e + " duration", Values: v})
			if i == 0 {
				// "A weight is only taken when the indicator has said ST
				// continuously for 1 second": what lasts is named where
				// the sentence starts, further back than the words
				// before the duration; "a weight is now taken only after
				// 3 seconds" names it so.
				if head := sentenceHead(c); head != "" && head != e {
					out = append(out, Claim{Subject: head + " duration", Values: v})
				}
			}
		}
	}
	return out
}

// formerDuration is a duration said to be what the thing took before,
// beside what it takes now: "parses in 11 ms now, against 180 ms before",
// "down from 40 minutes", "3 s, compared with 12 s earlier". It is no
// duration the statement gives, and the one it replaced.
var formerDuration = lazyre.New(`(?i),?\s*\(?\b(?:(?:against|versus|vs\.?|compared (?:to|with)|from)\s+(?:about |around |roughly |~)?\d+(?:\.\d+)?\s?(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?)\s+(?:before|earlier|previously|until now)|(?:down|up) from\s+(?:about |around |roughly |~)?\d+(?:\.\d+)?\s?(?:ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?))\b\)?`)

// sentenceHead is the first two content words of a clause that says more
// than three before its duration: the thing the sentence is about.
func sentenceHead(c string) string {
	var ws []string
	for _, w := range ContentWords(c[:durationRE.FindStringIndex(c)[0]]) {
		if !durationVerbs.has(w) {
			ws = append(ws, Stem(w))
		}
	}
	if len(ws) <= 3 {
		return ""
	}
	return strings.Join(ws[:2], " ")
}

// Periods are the periods, in seconds, at which s says things happen:
// "every 4 hours", "every hour", "once a day", "twice an hour", "3 times
// per day", "nightly"; one value each.
func Periods(s string) []float64 {
	s = strings.ToLower(s)
	if !strings.Contains(s, "every") && !strings.Contains(s, "once") && !strings.Contains(s, "ly") && !strings.Contains(s, "times") {
		return nil
	}
	var out []float64
	for _, m := range periodRE.FindAllStringSubmatch(s, -1) {
		var p float64
		switch {
		case m[2] != "": // every [N] unit
			p = count(m[1], 1) * unitSeconds[durationUnit(m[2])]
		case m[3] != "": // once a unit
			p = unitSeconds[durationUnit(m[3])]
		case m[4] != "": // N times a unit
			if c := count(m[4], 0); c > 0 {
				p = unitSeconds[durationUnit(m[5])] / c
			}
		case m[6] != "":
			p = unitSeconds[durationUnit(adverbUnit[m[6]])]
		}
		if p > 0 && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// periodRE is how often something happens (Periods).
var periodRE = lazyre.New(`\bevery (?:(\d+|two|three|four|five|six|ten|twelve|fifteen|thirty) )?(second|minute|hour|day|week|month)s?\b|\bonce (?:a|an|per|every) (second|minute|hour|day|week|month)\b|\b(\d+|two|three|four|twice) (?:times )?(?:a|an|per) (minute|hour|day|week)\b|\b(hourly|daily|nightly|weekly|monthly)\b`)

// adverbUnit is the unit of a period said as an adverb.
var adverbUnit = map[string]string{"hourly": "hour", "daily": "day", "nightly": "day", "weekly": "week", "monthly": "month"}

// count is a small count in digits or words ("twice" is two), or none
// when w is empty.
func count(w string, none float64) float64 {
	if w == "" {
		return none
	}
	if w == "twice" {
		w = "two"
	}
	if d, ok := Digits(w); ok {
		w = d
	}
	f, _ := strconv.ParseFloat(w, 64)
	return f
}

// lifetimeVerb opens a clause that says how long its sentence's subject
// lasts: "… and expire after 10 minutes", not "after 30 days the files
// move".
var lifetimeVerb = lazyre.New(`(?i)^\s*` + lifetimeVerbs + `\b`)

// passiveOpen opens a clause with no subject of its own, a verb in the
// passive that ends the thing: "… and is cut after 90 s", "…, and are
// deleted after 7 days" say how long the sentence's subject lasts. What
// is kept or stored somewhere for a time ("are kept 30 days in the audit
// log") is another matter than how long the thing itself lives.
var passiveOpen = lazyre.New(`(?i)^\s*(?:and\s+|but\s+)?(?:is|are|was|were|gets|get|got)\s+(?:now\s+)?(?:cut|killed|stopped|deleted|removed|dropped|purged|closed|terminated|evicted|expired|shut|ended|aborted|cancell?ed|rotated)\b`)

// lifetimeVerbs say how long a thing lasts.
const lifetimeVerbs = `(?:expire|expires|last|lasts|live|lives|stay|stays|remain|remains)`

// lifetimeTail parts "A are B and expire after C".
var lifetimeTail = lazyre.New(`^((\S+(?: \S+){0,4}?) (?:is|are) [^,;]+?) and (` + lifetimeVerbs + `\b[^;]*?)\.?$`)

// LifetimeTail parts a sentence that says two things of one subject, the
// second how long it lasts: "Upload URLs are signed with HS256 and expire
// after 10 minutes" is what they are ("Upload URLs are signed with
// HS256") and how long they last ("Upload URLs expire after 10
// minutes"). ok is false for any other sentence.
func LifetimeTail(s string) (what, howLong string, ok bool) {
	m := lifetimeTail.FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2] + " " + m[3], true
}

// durationClause splits a sentence where one duration's clause ends.
var durationClause = lazyre.New(`[,;:(]\s*|\s+—\s+|\s+and\s+`)

// durationRE is a length of time: "30 days", "8h", "250 ms", "two
// minutes" (a number in words takes a unit in words).
var durationRE = lazyre.New(`(?i)\b(\d+(?:\.\d+)?)\s?(ms|milliseconds?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|d|days?|weeks?|months?)\b|\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty)\s(seconds?|minutes?|hours?|days?|weeks?|months?)\b|\b((?:a |three )?quarters? of an|half an|an)\s(seconds?|minutes?|hours?|days?|weeks?|months?)(\s+and\s+a\s+half)?\b`)

// durationVerbs say how a duration holds, not of what: "stay valid for
// an hour".
var durationVerbs = words{list: `last lasts lasted expire expires expired take takes took wait waits waited stay stays stayed kept keep keeps run runs ran after every now within down cut set raised lowered bumped make makes made
	valid available alive active usable open`}

// unitSeconds are the seconds of a durationUnit.
var unitSeconds = map[string]float64{"ms": 0.001, "s": 1, "min": 60, "h": 3600, "d": 86400, "w": 7 * 86400, "mo": 30 * 86400}

// durationUnit is a unit of durationRE in one spelling.
func durationUnit(u string) string {
	u = strings.ToLower(u)
	switch {
	case u == "ms" || strings.HasPrefix(u, "milli"):
		return "ms"
	case u == "s" || strings.HasPrefix(u, "sec"):
		return "s"
	case strings.HasPrefix(u, "min"):
		return "min"
	case u == "h" || strings.HasPrefix(u, "h"):
		return "h"
	case u == "d" || strings.HasPrefix(u, "day"):
		return "d"
	case strings.HasPrefix(u, "week"):
		return "w"
	}
	return "mo"
}

// commandPurpose names what a command is for: "test", "build", "lint",
// "deploy", …, from the command or the sentence.
func commandPurpose(s, cmd string) string {
	l := strings.ToLower(cmd + " " + s)
	for _, p := range commandRules {
		if p.re.MatchString(l) {
			return p.name
		}
	}
	return ""
}

// commandRule names what a command is for when re matches it.
type commandRule struct {
	re   *lazyre.Regexp
	name string
}

// commandRules are tried in order.
var commandRules = []commandRule{
	{lazyre.New(`\btest|pytest|\bspec\b|check\b`), "test"},
	{lazyre.New(`\blint|vet\b|ruff|eslint|staticcheck|clippy`), "lint"},
	{lazyre.New(`\bformat|fmt\b|prettier|black\b`), "format"},
	{lazyre.New(`\bmigrat`), "migration"},
	{lazyre.New(`\bdeploy|release|publish|apply\b`), "deploy"},
	{lazyre.New(`\bbench`), "benchmark"},
	{lazyre.New(`\bbuild|compile`), "build"},
	{lazyre.New(`\bdev\b|\bserve\b|\bstart\b|\brun\b|\bup\b`), "start"},
}

// entityVerb ends the noun phrase a fact is about.
var entityVerb = lazyre.New(`(?i)^(is|are|was|were|'s|listens?|runs?|lives?|sits?|serves?|uses?|needs?|requires?|expects?|points?|defaults?|moved|bumped|upgraded|downgraded|pinned|has|have|should|must|will|can|gets?|got|starts?|binds?|talks?|connects?|reads?|writes?|stores?|keeps?|now|on|at|in|under)$`)

// carried are what a server serves or forwards, not a thing of its own:
// "the API serves requests on port 8080" gives the API's port.
var carried = words{list: `requests request traffic metrics data connections calls queries events logs responses
	it them this that everything`}

// placeVerb puts a thing on a port: what follows it, not what comes
// before, owns the port.
var placeVerb = lazyre.New(`(?i)^(publish(es|ed)?|expos(es|ed)|maps|mapped|forwards|forwarded|serves|served)$`)

// entityWords are the last (at most three) content words of the noun
// phrase before the verb; when that is only a pronoun, those after it up
// to a preposition; when there is no verb, the first content words if
// fallback is set.
func entityWords(s string, values []string, attr string, fallback bool) []string {
	toks := strings.Fields(strings.ToLower(s))
	skip := map[string]bool{attr: true, "port": true, "url": true, "version": true, "path": true, "host": true, "command": true}
	for _, v := range values {
		skip[strings.ToLower(v)] = true
	}
	clean := func(ws []string) []string {
		var out []string
		for _, w := range ws {
			w = strings.Trim(w, ".,;:!?()[]\"'`*")
			if w == "" || stopWords.has(w) || skip[w] || strings.ContainsAny(w, "0123456789") && !strings.ContainsAny(w, "abcdefghijklmnopqrstuvwxyz") {
				continue
			}
			if strings.Contains(w, ":") || strings.HasPrefix(w, "http") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~") {
				continue
			}
			out = append(out, w)
		}
		return out
	}
	if attr == "port" {
		// "The compose file publishes Grafana on port 3000": the port is
		// Grafana's, the object's, not the compose file's.
		for i, t := range toks {
			if !placeVerb.MatchString(strings.Trim(t, ".,;:!?()\"'`*")) {
				continue
			}
			var obj []string
			for _, w := range toks[i+1:] {
				w = strings.Trim(w, ".,;:!?()\"'`*")
				if w == "on" || w == "at" || w == "to" {
					if ws := clean(obj); len(ws) > 0 && !carried.has(ws[len(ws)-1]) {
						return lastWords(ws, 3)
					} else if ws := clean(toks[:i]); len(ws) > 0 {
						return lastWords(ws, 3) // "the gateway exposes metrics on 9100": the gateway's
					}
					break
				}
				obj = append(obj, w)
			}
		}
	}
	for i, t := range toks {
		t = strings.Trim(t, ".,;:!?()\"'`*")
		if !entityVerb.MatchString(t) && !(strings.HasSuffix(t, "'s") && isContraction(toks, i)) {
			continue
		}
		before := toks[:i]
		if strings.HasSuffix(t, "'s") && !entityVerb.MatchString(t) {
			before = append(append([]string(nil), toks[:i]...), strings.TrimSuffix(t, "'s"))
		}
		// Only this clause's subject: "8080 clashes with the proxy, so the
		// API now listens on 8081".
		for j := len(before) - 1; j >= 0; j-- {
			w := before[j]
			if strings.HasSuffix(w, ",") || strings.HasSuffix(w, ";") || strings.HasSuffix(w, ":") || clauseWords.has(w) {
				if j < len(before)-1 {
					before = before[j+1:]
				}
				break
			}
		}
		if ws := clean(before); len(ws) > 0 {
			return lastWords(ws, 3)
		}
		// "We moved the API to 8081": the object.
		var after []string
		for _, w := range toks[i+1:] {
			w = strings.Trim(w, ".,;:!?()\"'`*")
			if w == "to" || w == "on" || w == "at" || w == "in" || w == "from" || w == "with" || w == "for" || w == "into" {
				break
			}
			after = append(after, w)
		}
		return lastWords(clean(after), 3)
	}
	if !fallback {
		return nil
	}
	return FirstWords(clean(toks), 3)
}

// clauseWords start a clause.
var clauseWords = words{list: `so and but because since while whereas then which that when if`}

// isContraction tells "the API's on 8081" (is) from "the API's metrics
// port" (possessive) by the word after it.
func isContraction(toks []string, i int) bool {
	if i+1 >= len(toks) {
		return true
	}
	next := strings.Trim(toks[i+1], ".,;:!?()\"'*")
	if next == "" || strings.ContainsAny(next[:1], "0123456789`:/~") || strings.HasPrefix(next, "http") {
		return true
	}
	switch next {
	case "on", "at", "in", "under", "now", "still", "not", "the", "a", "an", "running", "listening", "served", "set", "pinned", "behind", "inside", "using", "configured", "stored", "deployed", "hosted", "available", "reachable":
		return true
	}
	return false
}

// decisionClaim: the subject is what the decision is for ("for the job
// queue", "as the router"), or else what was chosen; the values are what
// was chosen, and Dropped what was given up.
func decisionClaim(s string) Claim {
	var c Claim
	body := s
	if i := reasonCue.FindStringIndex(s); i != nil && i[0] > 0 {
		body = s[:i[0]]
	}
	for _, m := range dropRE.FindAllStringSubmatch(body, -1) {
		c.Dropped = append(c.Dropped, FirstWords(ContentWords(cutAtPrep(m[2])), 2)...)
	}
	chosen := ""
	if m := chooseRE.FindStringSubmatch(body); m != nil {
		chosen = cutAtPrep(m[2])
	} else if m := enoughRE.FindStringSubmatch(s); m != nil {
		chosen = m[1]
	} else if m := itIsRE.FindStringSubmatch(s); m != nil {
		chosen = m[1]
	}
	// "replace X with Y": Y is chosen.
	if m := replaceWith.FindStringSubmatch(body); m != nil {
		chosen = cutAtPrep(m[1])
	}
	// "switch from X to Y": Y.
	if m := fromTo.FindStringSubmatch(body); m != nil {
		chosen = cutAtPrep(m[1])
	}
	dropped := map[string]bool{}
	for _, d := range c.Dropped {
		dropped[d] = true
	}
	for _, w := range FirstWords(ContentWords(chosen), 3) {
		if !dropped[w] {
			c.Values = append(c.Values, w)
		}
	}
	if m := purposeRE.FindStringSubmatch(body); m != nil {
		p := cutAtPrep(m[3])
		if !timeWords.MatchString(p) {
			c.Subject = strings.Join(FirstWords(ContentWords(p), 3), " ")
		}
	}
	if m := switchObj.FindStringSubmatch(body); c.Subject == "" && m != nil {
		c.Subject = strings.Join(FirstWords(ContentWords(m[1]), 3), " ")
	}
	if c.Subject == "" {
		c.Chosen = true
		c.Subject = strings.Join(c.Values, " ")
	}
	if c.Subject == "" {
		var ws []string
		for _, w := range ContentWords(body) {
			if !dropped[w] {
				ws = append(ws, w)
			}
		}
		c.Subject = strings.Join(FirstWords(ws, 3), " ")
	}
	return c
}

var (
	timeWords = lazyre.New(`(?i)^(now|the (time being|moment)|this|that|these|those|us|me|them|you|it|now|later|scale|volume|simplicity|safety|speed|performance|consistency|example|instance|sure|good|real|a (bit|while))\b`)
	prepRE    = lazyre.New(`(?i)\s+(for|as|to|in|on|at|because|since|so|instead|rather|over|and|but|with|which|that|when|if|after|before|from|everywhere|across|throughout|between|via|using|through|within|inside|—|-)\s`)
)

// cutAtPrep keeps a noun phrase up to the first preposition or clause
// word.
func cutAtPrep(s string) string {
	s = " " + strings.TrimSpace(s) + " "
	if i := prepRE.FindStringIndex(s); i != nil && i[0] > 0 {
		s = s[:i[0]]
	}
	return strings.TrimSpace(s)
}

// contentWords are the lower-case words of s without stop words.
func ContentWords(s string) []string {
	var out []string
	for _, w := range wordRE.FindAllString(strings.ToLower(s), -1) {
		w = strings.TrimRight(w, "./-+")
		if w == "" || stopWords.has(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func FirstWords(ws []string, n int) []string { return ws[:min(n, len(ws))] }

func lastWords(ws []string, n int) []string { return ws[max(0, len(ws)-n):] }

func lower(list []string) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		out = AppendNew(out, strings.ToLower(s))
	}
	return out
}

// valuesBut are the values a fact holds besides the one named.
func valuesBut(s, name string) []string {
	rest := strings.Replace(s, name, "", 1)
	var out []string
	for _, m := range envValue.FindAllString(rest, -1) {
		out = AppendNew(out, strings.ToLower(strings.Trim(m, " `")))
	}
	if len(out) == 0 {
		out = FirstWords(ContentWords(rest), 3)
	}
	return out
}

// speaksOfPorts reports whether s names a port as one: a number after
// "port", a colon or "on", in a sentence that says port or serves,
// listens, binds, exposes or forwards.
func speaksOfPorts(s string) bool {
	return portRE.MatchString(s) && (strings.Contains(strings.ToLower(s), "port") || portHint.MatchString(s))
}

// Ports are the ports s names, when it speaks of ports at all: "port
// 9393", "http://127.0.0.1:9292", "listens on 8081".
func Ports(s string) []string {
	if !speaksOfPorts(s) {
		return nil
	}
	var out []string
	for _, m := range portRE.FindAllStringSubmatch(s, -1) {
		out = AppendNew(out, m[1])
	}
	return out
}
