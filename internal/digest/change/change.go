package change

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// TopicKeys are what a statement is about: the comparison keys of its
// content words and its code tokens (ports, versions, paths), without the
// words that announce a change.
func TopicKeys(s string) map[string]bool {
	out := make(map[string]bool)
	for k := range Keys(s) {
		if !changeWords[k] {
			out[k] = true
		}
	}
	for _, t := range CodeTokens(s) {
		out[t] = true
	}
	if endsFolder(s) {
		for _, m := range topFolder.FindAllStringSubmatch(s, -1) {
			out[strings.ToLower(m[1])] = true // as valueKeys keeps a folder at the top
		}
	}
	for w := range lex.ContentWords(s) {
		if d, ok := prose.Digits(w); ok {
			out[d] = true
		}
	}
	return out
}

// moveCue says a statement moves a folder or file.
var moveCue = lazyre.New(`(?i)\b(?:moved|renamed|relocated|git mv)\b`)

// MovedFolder reports whether newer statement n, which moves something,
// names one of folders xs (x's) by its last name under another parent (or at the
// top), and not x's path itself: "Templates moved to `prompts/` at the
// top level" after "Templates are in `app/prompts/`". A file's name
// ("index.ts") is left alone: two folders hold one as often as not.
func MovedFolder(xs []string, n string) bool {
	ns := Folders(n)
	for _, p := range xs {
		if slices.Contains(ns, p) {
			return false
		}
	}
	for _, p := range xs {
		for _, q := range ns {
			if (strings.Contains(p, "/") || strings.Contains(q, "/")) && path.Base(p) == path.Base(q) && len(path.Base(p)) > 2 {
				return true
			}
		}
	}
	return false
}

// intoFolder finds a thing moved into a folder: "move the connector
// JSON into deploy/connect/".
var intoFolder = lazyre.New("(?i)\\b(?:move|moved|moving|put|relocated?)\\s+(?:the\\s+|all\\s+(?:the\\s+)?|our\\s+)?((?:[\\w.-]+\\s+){0,3}?[\\w.-]+)\\s+(?:into|to|under)\\s+`?([A-Za-z_][\\w.-]*(?:/[\\w.-]+)*/)")

// MovedInto reports whether newer statement n moves what x (keys xk)
// names into a folder that is none of x's Folders xs, nor in or around
// one of them: the thing moved is named by words x holds.
func MovedInto(xs []string, xk map[string]bool, n string) bool {
	for _, m := range intoFolder.FindAllStringSubmatch(n, -1) {
		what, dir := TopicKeys(m[1]), strings.ToLower(strings.Trim(m[2], "/"))
		named := 0
		for k := range what {
			if len(k) > 2 {
				if !xk[k] {
					named = -1
					break
				}
				named++
			}
		}
		if named <= 0 {
			continue
		}
		other := true
		for _, p := range xs {
			p = strings.ToLower(p)
			if p == dir || strings.HasPrefix(p, dir+"/") || strings.HasPrefix(dir, p+"/") {
				other = false
			}
		}
		if other {
			return true
		}
	}
	return false
}

// Folders are the folders s names: paths of a code token without a dot
// in their last name, and Folders at the top ("prompts/").
func Folders(s string) []string {
	var out []string
	for _, t := range CodeTokens(s) {
		if t = strings.Trim(t, "/"); strings.Contains(t, "/") && !strings.Contains(t, "://") && !strings.Contains(path.Base(t), ".") && !isDigit(t[0]) {
			out = append(out, t)
		}
	}
	for _, m := range topFolder.FindAllStringSubmatch(s, -1) {
		if t := strings.ToLower(strings.TrimSuffix(m[1], "/")); !strings.Contains(t, ".") {
			out = append(out, t)
		}
	}
	return out
}

// endsFolder reports whether s has a name that ends in a slash
// ("prompts/ "), which topFolder needs: most statements, paths and all,
// have none, and TopicKeys reads every core title of a cold pack.
func endsFolder(s string) bool {
	for i := strings.IndexByte(s, '/'); i >= 0; {
		if i+1 == len(s) || strings.IndexByte(" `'\".,;:)", s[i+1]) >= 0 {
			return true
		}
		j := strings.IndexByte(s[i+1:], '/')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// topFolder is a folder named alone, at the top: `prompts/`.
var topFolder = lazyre.New("(?:^|[\\s`'\"(])([A-Za-z_][\\w.-]*/)(?:[\\s`'\".,;:)]|$)")

// changeWords say that something changed, or when, not what.
var changeWords = KeySet(`instead rather longer moved move switched switch migrated migrate changed change bumped
	bump upgraded upgrade downgraded reverted revert rolled back turned off dropped drop replaced replace swapped
	disabled disable enabled enable raised raise lowered lower
	anymore more after all now again went going
	last next week month day year hour minute yesterday today tomorrow morning evening ago since`)

// codeToken is a token with a digit, a dot, a slash or a colon inside:
// a port, a version, a path, a host.
var codeToken = lazyre.New(`[\w~^>=<@-]*[\w][./:][\w./:@-]*\w|[\w-]*\d(?:[\w.-]*\w)?`)

func CodeTokens(s string) []string {
	if !strings.ContainsAny(s, "0123456789./:") {
		return nil // every code token has a digit, a dot, a slash or a colon
	}
	var out []string
	for _, t := range codeToken.FindAllString(strings.ToLower(s), -1) {
		if len(t) > 1 || t[0] >= '0' && t[0] <= '9' {
			out = append(out, t)
		}
	}
	return out
}

// Names reports whether change c, stated in text, names a value that
// keys xk give as current and none of its new ones: "from iOS 16 to 17"
// names 16 as the old value; "now listens on 8080 (AirPlay owns 5000)"
// names 5000 beside a new number of the same kind (shape), which says
// enough by itself.
func (c *Change) Names(xk map[string]bool, text string) (named, shape bool) {
	for _, v := range c.New {
		if HasAll(xk, v) {
			return false, false
		}
	}
	for _, o := range c.Old {
		if HasAll(xk, o) && (IsCode(o) || proper(o, text)) {
			return true, false
		}
	}
	if c.OtherVersion(xk) {
		return true, true
	}
	if len(c.Old) > 0 {
		return false, false
	}
	for _, v := range c.New {
		for nv := range v {
			for _, t := range CodeTokens(text) {
				if t != nv && xk[t] && SameShape(t, nv) {
					return true, true
				}
			}
		}
	}
	return false, false
}

// proper reports whether value v is a named thing that text says it
// replaces: a word of it, after "instead of" or "replaces", is
// capitalised ("instead of the Zustand store", "instead of MailApp"),
// which a common noun is not. Such a name is what an older statement
// says the thing was ("I moved the filters into a Zustand store"). A
// capitalised name of a "from … to …" is not enough: "5V from USB to
// 3.3V" replaces nothing.
func proper(v map[string]bool, text string) bool {
	for _, m := range replacedName.FindAllStringSubmatch(text, -1) {
		for _, w := range strings.Fields(m[1]) {
			w = strings.Trim(w, "\"'`()[],.;:!?")
			if strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s") {
				continue // "instead of GeoJSON's [lon, lat]" replaces the order, not GeoJSON
			}
			if w != "" && unicode.IsUpper([]rune(w)[0]) && v[lex.Key(w)] {
				return true
			}
		}
	}
	return false
}

// replacedName is what a statement says it replaces: two words after
// "instead of" or "replaces".
var replacedName = lazyre.New(`(?i)\b(?:instead of|replac(?:es|ed|ing)) (?:the |a |an |our |its )?(\S+(?: \S+)?)`)

// OtherVersion reports whether keys xk give another version of the
// shape of one change c sets, and c names no version it replaced: a
// version is distinctive enough by its shape alone, so "the MSRV is now
// 1.80" retires "our MSRV is 1.74". The caller has settled the topic.
func (c *Change) OtherVersion(xk map[string]bool) bool {
	for _, o := range c.Old {
		for k := range o {
			if IsVersion(k) {
				return false
			}
		}
	}
	for _, v := range c.New {
		for nv := range v {
			for t := range xk {
				if t != nv && SameVersionShape(t, nv) {
					return true
				}
			}
		}
	}
	return false
}

// IsNumber reports whether s is all digits.
func IsNumber(s string) bool { return prose.IsDigits(s) }

// IsVersion reports whether s is a dotted version number: 1.80, 3.11.2.
func IsVersion(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// SameVersionShape reports whether a and b are versions of as many parts.
func SameVersionShape(a, b string) bool {
	return IsVersion(a) && IsVersion(b) && strings.Count(a, ".") == strings.Count(b, ".")
}

// IsCode reports whether value v is a code token (a version, a port, a
// path) rather than words, which a turned-down alternative may share.
func IsCode(v map[string]bool) bool {
	for k := range v {
		if len(CodeTokens(k)) == 0 {
			return false
		}
	}
	return len(v) > 0
}

// SameShape reports whether two values are numbers of as many digits,
// such as two ports.
func SameShape(a, b string) bool {
	return len(a) == len(b) && len(a) > 1 && IsNumber(a) && IsNumber(b)
}

// described finds a participle that describes a thing rather than
// tells what was done to it: "through a corosync.conf.new with a bumped
// config_version" is how a rule says a file is edited, "an upgraded
// node" which one; read as changes, they retired whatever shared their
// topic ("please never run anything with --yes-i-really-mean-it"). After
// "the" it may tell what changed: "the changed timeout is 30 s now".
var described = lazyre.New(`\b(a|an|each|every)\s+(?i:moved|switched|migrated|changed|bumped|upgraded|downgraded|reverted|swapped|replaced|disabled|enabled|raised|lowered)\s+`)

// route is data sent from one place to another, no change from one
// value to another: "a sync job that pulls from pbs01 to the second
// PBS" read "from pbs01 to the second" as pbs01 replaced.
var route = lazyre.New(`(?i)\b((?:pull|push|sync|cop(?:y|ies|ied|ying)|send|sent|stream|forward|mirror|ship|transfer|upload|download|rsync|replicat(?:e|es|ed|ing)|rout(?:e|es|ed|ing))(?:s|es|ed|ing|ped|ping|red|ring)?)\s+from\s+`)

// routed rewrites each route in s ("pulls from pbs01 to the second
// PBS") so that its "from … to" reads as no change; not where the route
// is what changed ("the backups now pull from nas02") or a noun a change
// verb before it moves ("switched the mirror from pbs01 to pbs02").
func routed(s string) string {
	ms := route.FindAllStringSubmatchIndex(s, -1)
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if before := s[:m[0]]; routeChanged.MatchString(before) {
			continue
		}
		s = s[:m[0]] + s[m[2]:m[3]] + " out of " + s[m[1]:]
	}
	return s
}

// routeChanged is what, before a route, makes it a change: "now" a word
// or two before it, a change verb anywhere before it.
var routeChanged = lazyre.New(`(?i)\bnow\s+(?:\w+\s+)?$|\b(?:switch|swapp|mov|chang|migrat|replac)\w*\b`)

// backOnLine is power or a link restored, no value gone back to:
// "coming back on line cancels it" (upssched's timer once the UPS is on
// mains again) read "back on" as a change to "line cancels".
var backOnLine = lazyre.New(`(?i)\bback\s+on[\s-]line\b`)

// habitual finds a participle that tells what happens each time, not
// what was done once: "when a card gets swapped by SSE", "a 409 is
// swapped like a 2xx" say how htmx updates a page. Read as changes, they
// retired what shared a word of their topic ("an htmx request gets just
// the card partial").
var habitual = lazyre.New(`(?i)\b(?:(gets?|getting)\s+(?:moved|switched|migrated|changed|swapped|replaced|raised|lowered)\s+|(is|are)\s+(?:moved|switched|migrated|changed|swapped|replaced|raised|lowered)\s+(like|as)\s+(?:a|an|any|the|if|when|soon)\b)`)

// fallBack is what a thing does when something is missing, not a return
// to an old value: "Typst, when a font is missing, only warns and falls
// back to Libertinus Serif".
var fallBack = lazyre.New(`(?i)\b(falls?|falling)\s+back\s+(?:to|on)\s+`)

// changeMark finds a statement that announces a change: "change of
// plan", "let's move to RAUC", "switch to Vitest", "… with mini.test
// instead", "instead of",
// "no longer", "moved to", "bumped", "reverted", "after all", "from X to
// Y", "X → Y", "not X any more", "back to", "now on 4100", "is 3600 now".
var changeMark = lazyre.New(`(?i)\b(?:instead of|rather than|no longer|any ?more|after all|back (?:to|on|at|in)|(?:moved|switched|migrated|changed|bumped|upgraded|downgraded|reverted|rolled back|swapped|replaced|replaces|disabled|enabled|raised|lowered)\b|\bmoves (?:over )?to\b|\b` + leaveVerb + `(?: [\w.-]+){0,3}? off [\w` + "`" + `"'.:/-]*\d|turned (?:it |them )?(?:off|on)|(?:off|out) again)|\bnow\s+(?:an?\s+)?(?:allowed|permitted|optional|required|mandatory|forbidden|refused|error|warning|on|off|enabled|disabled|default)\b|\bfrom\s+\S+(?:\s+\S+){0,3}?\s+to\s+\S|\S\s*(?:→|->|=>)\s*\S|\bnow\s+(?:[\w-]+\s+){0,2}?(?:the\s+)?(?:[` + "`" + `"']|\S*\d)|\bnow,\s+not\s|` + isNow)

// planChange is a change of plan the user asks for, naming what comes
// instead and seldom what goes: "change of plan", "let's move to
// RAUC", "switch to Vitest", "… with mini.test instead", "actually,
// let's build the Java side with Gradle".
const planChange = "change of plan|instead\\s*(?:[.,;:!)—]|$)|actually,?\\s+(?:let'?s|we'll|we will|we should)\\s+(?:build|run|host|deploy|use|store|keep|put|do|go|ship|write|serve|schedule|test)\\s+(?:[\\w-]+\\s+){0,4}?(?:with|on|in|via|using|through)\\s+(?:`|(?-i:[A-Z]))|(?:let'?s|we'll|we will|please)\\s+(?:move|switch|migrate|go)\\s+(?:over\\s+)?(?:to|with)\\s+(?:`|(?-i:[A-Z]))|switch(?:ing)?\\s+(?:over\\s+)?to\\s+(?:`|(?-i:[A-Z]))|(?:we're|we are)\\s+(?:moving|migrating|switching)\\s+(?:over\\s+)?to\\s+"

// planMark finds a change of plan.
var planMark = lazyre.New(`(?i)\b(?:` + planChange + `)`)

// tooMuch says a value is wrong: "30 is too narrow on big monitors",
// "5s was way too short".
const tooMuch = `(?:way\s+|far\s+|much\s+|a\s+bit\s+|a\s+little\s+)?too\s+(?:narrow|wide|small|big|large|short|long|slow|low|high|few|many|little|much|tight|aggressive|noisy|loose|strict)\b`

// tooValue finds the value a statement says is wrong.
var tooValue = lazyre.New(`(?i)(?:^|[\s(])([\w.]*\d[\w.]*)\s+(?:is|are|was|were|feels?)\s+` + tooMuch)

// isNow is a value said to hold now, the word after it: "max_ttl is 3600
// now", "we're on 5.2.0 now".
const isNow = "(?i)\\b(?:is|are|'s|'re)\\s+(?:on\\s+|at\\s+|in\\s+)?(?:[a-z][\\w-]*\\s+)?[`\"']?([\\w.~^>=<:/#@+-]*\\d[\\w.~^>=<:/#@+-]*)[`\"']?\\s+now\\b"

// oldValue finds what a statement says is no longer current.
// leaveVerb moves a thing off a value: "Move the API off 8080", "get off
// 2.1".
const leaveVerb = `(?:move|moves|moving|moved|get|gets|getting|got|migrate|migrates|migrating|migrated)`

// leftValue finds the value a thing is moved off, one with a digit.
var leftValue = lazyre.New(`(?i)\b` + leaveVerb + `(?: [\w.-]+){0,3}? off (?:the |a |an |our )?[` + "`" + `"']?([\w.~^>=<:/#@-]*\d[\w.~^>=<:/#@-]*)`)

// oldValue finds what a statement says is no longer current. After "no
// longer", a verb and "any" it is what follows: "The screen no longer
// shows any amount" took out the amount, not "shows".
var oldValue = lazyre.New("(?i)\\b(?:no longer (?-i:[a-z]+[^s\\W]s) (?:any|all)|instead of|rather than|no longer(?: on| at| in| uses?| using| with)?|(?:moved|switched|migrated|changed|away|reverted) from|replac\\w*|not) (?:the |a |an |our )?[`\"']?([\\w.~^>=<:/#@-]+(?:['’]s)?(?: [\\w-]+)?)|\\bfrom (?:the |a |an |our )?[`\"']?([\\w.~^>=<:/#@-]+(?: [\\w-]+)?)[`\"']? to\\b")

// replacedValue finds what a statement says was replaced outright:
// "replaces the quarter-hour rounding", "replaced the cron job with a
// systemd timer".
var replacedValue = lazyre.New("(?i)\\breplac(?:es|ed)\\s+(?:the |a |an |our |its |their )?[`\"']?([\\w.~^>=<:/#@-]+(?: [\\w-]+)?)(?:[`\"']?\\s+(?:\\w+\\s+){0,3}?(with|by)\\b)?")

// replacedWith finds what a replacement put in: "replaced by
// ExactMinutes.kt", "replaced the cron job with a systemd timer".
var replacedWith = lazyre.New("(?i)\\breplac\\w*\\s+(?:[\\w.-]+\\s+){0,4}?(?:by|with)\\s+(?:the |a |an |our )?[`\"']?([\\w.~^>=<:/#@-]+(?: [\\w-]+)?)")

// byWith is "replaced by", "replacing with": what follows replaced.
var byWith = lazyre.New(`(?i)^replac\w*\s+(?:the |a |an |our )?(?:by|with)\b`)

// replacedBy finds the thing a passive says was replaced: "the
// quarter-hour rounding was replaced by ExactMinutes.kt".
var replacedBy = lazyre.New("(?i)(?:^|[\\s(])(?:the |our |a |an )?[`\"']?([\\w.~^>=<:/#@-]+(?: [\\w-]+)?)[`\"']?\\s+(?:was|were|is|are|has been|have been|got|gets) replaced (?:by|with)\\b")

// denied says a replacement did not happen: "hasn't replaced", "nothing
// has replaced".
var denied = lazyre.New(`(?i)(?:n't|\bnot|\bnever|\bnothing|\bno one|\bnobody)\b[^.;,]*$`)

// Gone reports whether c replaced outright a value that x (of keys xk)
// names, and x does not name what replaced it: the old way is history
// wherever it is told. A value of one word must be a code token or a
// word distinct says few statements hold.
func (c *Change) Gone(xk map[string]bool, distinct func(string) bool) bool {
	for _, v := range c.New {
		if HasAll(xk, v) {
			return false
		}
	}
	for _, v := range c.Replaced {
		if !HasAll(xk, v) {
			continue
		}
		for k := range v {
			if distinct(k) && (len(v) > 1 || IsCode(v)) {
				return true
			}
		}
	}
	return false
}

// notAnyMore finds the old value of "not X any more": its code token,
// or its words.
var notAnyMore = lazyre.New(`(?i)\bnot ((?:[^.;]|\.\w){1,60}?) any ?more\b`)

// oldArrow finds the old value of "X → Y".
var oldArrow = lazyre.New("([\\w.~^>=<:/#@-]+)[`\"']?\\s*(?:→|->|=>)")

// newValue finds what a statement says is current now.
var newValue = lazyre.New("(?i)(?:\\b(?:to|back (?:to|on|at|in))|→|->|=>) (?:the |a |an |our )?[`\"']?([\\w.~^>=<:/#@-]+(?: [\\w.~^>=<:/#@-]+)?)|\\bnow\\s+(?:[\\w-]+\\s+){0,2}?(?:the\\s+)?[`\"']?([\\w.~^>=<:/#@-]*\\d[\\w.~^>=<:/#@-]*)|" + isNow)

// weighedInstead is an alternative weighed and turned down: "I thought
// about keeping the ledger in PropertiesService instead, but the
// property store is capped at 500 KB" keeps the ledger where it was, and
// read as a change of plan it retired what shared its topic ("the Stock
// tab is one row per SKU, about 310 of them"). What follows "but" is
// kept: it may tell a change.
var weighedInstead = lazyre.New(`(?i)\b(?:thought about|thought of|considered|toyed with|weighed)\s+[^.;]*?\binstead\b[,;]?\s+but\b`)

// butInside is a "but" inside what weighedInstead matched, before its own.
var butInside = lazyre.New(`(?i)\bbut\b`)

// nowWord says what holds from now on.
var nowWord = lazyre.New(`(?i)\bnow\b`)

// pending is a change still to make, said as what a thing needs: "the
// web player needs its source URL changed to …", "the DNS record has to
// be moved to the new host". What it names is as it was.
var pending = lazyre.New(`(?i)\b(?:needs?|has to be|have to be|should be|must be|will have to be)\s+(?:(?:its|their|the|a|an|our)\s+)?(?:[\w.-]+\s+){0,2}?(?:changed|moved|switched|replaced|migrated|bumped|raised|lowered|updated|upgraded)\b[^.;]*`)

// bridge is a word that joins what a thing needs to a change made:
// "needs nothing else since we switched", "fine now that we moved".
var bridge = lazyre.New(`(?i)\b(?:that|since|because|as|we|now|after)\b`)

// fromNowOn is "from now on": an instruction, not a change of value.
var fromNowOn = lazyre.New(`(?i)\bfrom now on\b`)

// IsQuestion reports whether s asks rather than states: "should we
// switch the workers to LISTEN/NOTIFY?" changes nothing yet.
func IsQuestion(s string) bool {
	return strings.HasSuffix(strings.TrimSpace(s), "?")
}

// A Change is what a statement announcing a change says was replaced
// (Old) and by what (New), each value as its keys.
type Change struct {
	Old, New []map[string]bool
	// Plan: the user changed the plan (planChange), which needs a
	// looser topic test: the thing replaced shares little with what
	// replaces it but its role.
	Plan bool
	// Replaced are the values of Old said to be replaced outright
	// ("ExactMinutes.kt replaces the quarter-hour rounding"): gone
	// wherever they were used, where "rather than Argo CD" turns a
	// value down for one use only.
	Replaced []map[string]bool
}

// Of reads the change s announces; nil if it announces none, asks a
// question, supposes ("if we moved off …"), or tells a symptom as one
// measure instead of another.
func Of(s string) *Change {
	s = fromNowOn.ReplaceAllString(s, "")
	if containsAny(s, "ed ") {
		s = described.ReplaceAllString(s, "$1 ")
		s = habitual.ReplaceAllString(s, "$1$2 $3")
	}
	if containsAny(s, "back") {
		s = fallBack.ReplaceAllString(s, "$1 ")
	}
	if containsAny(s, "thought", "consider", "toyed", "weighed") {
		s = weighedInstead.ReplaceAllStringFunc(s, func(m string) string {
			if butInside.MatchString(strings.TrimSuffix(m, "but")) {
				return m // "considered keeping Redis, but moved it to NATS instead, but …": a change made
			}
			return ""
		})
	}
	if containsAny(s, "from ") {
		s = routed(s)
	}
	if containsAny(s, "on line", "on-line") {
		s = backOnLine.ReplaceAllString(s, "online")
	}
	if containsAny(s, "need", "has to", "have to", "should", "must", "will be") {
		s = pending.ReplaceAllStringFunc(s, func(m string) string {
			if bridge.MatchString(m) {
				return m // "should be fine now that we moved …" is a change made
			}
			return ""
		})
	}
	// A change of plan and a value said to be wrong have words without
	// which their expressions cannot match: looked for first, they cost
	// most sentences nothing.
	lower := strings.ToLower(s)
	plan := containsAny(lower, "plan", "instead", "mov", "switch", "migrat", "go", "actually") && planMark.MatchString(s)
	too := strings.Contains(lower, "too") && tooValue.MatchString(s)
	if !(plan || too || changeMark.MatchString(s)) || hypothetical.MatchString(s) || prose.MeasureSwap(s) && !nowWord.MatchString(s) && !setOrder.MatchString(s) {
		return nil // "retries waited hours instead of seconds" tells a symptom
	}
	c := &Change{Plan: plan}
	for _, m := range oldValue.FindAllStringSubmatch(s, -1) {
		if byWith.MatchString(m[0]) {
			continue // "was replaced by ExactMinutes.kt" names what replaced it
		}
		if v := valueKeys(m[1] + m[2]); len(v) > 0 {
			c.Old = append(c.Old, v)
		}
	}
	if strings.Contains(lower, "replac") {
		for _, m := range replacedValue.FindAllStringSubmatchIndex(s, -1) {
			if denied.MatchString(s[max(0, m[0]-24):m[0]]) {
				continue // "hasn't replaced the nightly backup", "nothing has replaced …"
			}
			what, with := s[m[2]:m[3]], m[4] >= 0 || strings.HasPrefix(strings.ToLower(s[m[0]:m[1]]), "replaces")
			if !with {
				continue // "we replaced the API key after the leak": a new one of the same
			}
			if v := valueKeys(what); len(v) > 0 {
				c.Replaced = append(c.Replaced, v)
			}
		}
		for _, m := range replacedBy.FindAllStringSubmatch(s, -1) {
			if v := valueKeys(m[1]); len(v) > 0 {
				c.Replaced, c.Old = append(c.Replaced, v), append(c.Old, v)
			}
		}
		for _, m := range replacedWith.FindAllStringSubmatch(s, -1) {
			if v := valueKeys(m[1]); len(v) > 0 {
				c.New = append(c.New, v) // what replaced it is current
			}
		}
	}
	for _, m := range leftValue.FindAllStringSubmatch(s, -1) {
		if v := valueKeys(m[1]); len(v) > 0 {
			c.Old = append(c.Old, v)
		}
	}
	for _, m := range notAnyMore.FindAllStringSubmatch(s, -1) {
		if t := CodeTokens(m[1]); len(t) > 0 {
			c.Old = append(c.Old, map[string]bool{t[0]: true})
		} else if v := valueKeys(m[1]); len(v) > 0 {
			c.Old = append(c.Old, v)
		}
	}
	if too {
		for _, m := range tooValue.FindAllStringSubmatch(s, -1) {
			if v := valueKeys(m[1]); len(v) > 0 {
				c.Old = append(c.Old, v)
			}
		}
	}
	for _, m := range oldArrow.FindAllStringSubmatch(s, -1) {
		if v := valueKeys(m[1]); len(v) > 0 {
			c.Old = append(c.Old, v)
		}
	}
	for _, m := range newValue.FindAllStringSubmatch(s, -1) {
		if v := valueKeys(m[1] + m[2] + m[3]); len(v) > 0 {
			c.New = append(c.New, v)
		}
	}
	return c
}

// valueKeys are the keys of a value a change names: its code token, or
// its content words; none for a word that says nothing.
func valueKeys(v string) map[string]bool {
	if d := strings.Trim(v, "`\"'"); strings.HasSuffix(d, "/") && !strings.Contains(d[:len(d)-1], "/") && len(d) > 2 {
		// A folder at the top ("moved to `prompts/`") is not the
		// word its name is, which "app/prompts" or "prompt strings"
		// hold.
		return map[string]bool{strings.ToLower(d): true}
	}
	if t := CodeTokens(v); len(t) > 0 {
		return map[string]bool{t[0]: true}
	}
	k := TopicKeys(v)
	for w := range k {
		if len(w) < 3 {
			delete(k, w)
		}
	}
	return k
}

// HasAll reports whether statement keys ks hold every key of value v. A
// path holds the directories it lies in: "Library/Caches/trails.json" is
// in "Library/Caches", and moves with it.
func HasAll(ks, v map[string]bool) bool {
	for k := range v {
		if !ks[k] && !under(ks, k) {
			return false
		}
	}
	return len(v) > 0
}

// under reports whether keys ks hold a path inside directory dir.
func under(ks map[string]bool, dir string) bool {
	if !strings.Contains(dir, "/") {
		return false
	}
	for k := range ks {
		if strings.HasPrefix(k, dir+"/") {
			return true
		}
	}
	return false
}

// TakenOff reports whether x asks for the old values of change c it
// names to go ("move the API server off 8080"): it speaks of them as
// what is to be replaced, as the change does.
func (c *Change) TakenOff(xk map[string]bool, x string) bool {
	var off []string
	for _, m := range offValue.FindAllStringSubmatch(x, -1) {
		v := strings.ToLower(strings.Trim(m[1], "`\"'.,;:"))
		off = append(off, v, lex.Key(v))
	}
	if len(off) == 0 {
		return false
	}
	named := false
	for _, o := range c.Old {
		if !HasAll(xk, o) {
			continue
		}
		for k := range o {
			if !slices.Contains(off, k) {
				return false
			}
		}
		named = true
	}
	return named
}

// offValue is a value x asks to move away from: "off 8080", "away from
// Jenkins".
var offValue = lazyre.New(`(?i)\b(?:off|away from)\s+(?:of\s+)?(?:the\s+|port\s+)?(\S+)`)

// Says reports whether change c retires a statement of keys xk (xc its
// own change, if it announces one). With namedOnly (the statement asked
// for the change, or is an instruction said to hold) only a change that
// names what it replaced retires it.
func (c *Change) Says(xk map[string]bool, xc *Change, namedOnly bool) bool {
	for _, v := range c.New {
		if HasAll(xk, v) || namesSpelled(xk, v) {
			// x names the new value: it states the change or the
			// current value, unless it names the old one as current too.
			if xc != nil {
				return false
			}
			for _, o := range c.Old {
				if HasAll(xk, o) {
					return true
				}
			}
			return false
		}
	}
	if len(c.Old) == 0 && !namedOnly || c.OtherVersion(xk) {
		return true // the topic changed, and x does not say to what, or gives another version
	}
	for _, o := range c.Old {
		if HasAll(xk, o) {
			return true
		}
	}
	return false
}

// namesSpelled reports whether keys xk hold value v, one code token,
// written with a dot or a hyphen between its letters and its number:
// "G.722" is the codec `g722` names, and "transcoded G.722↔alaw" states
// what "tpl-remote now offers `g722,alaw`" gives.
func namesSpelled(xk, v map[string]bool) bool {
	if len(v) != 1 {
		return false
	}
	for t := range v {
		m := letterNumber.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		return xk[m[1]+"."+m[2]] || xk[m[1]+"-"+m[2]]
	}
	return false
}

// letterNumber is a name of letters and a number run together: g722,
// h264.
var letterNumber = lazyre.New(`^([a-z]+)(\d+)$`)

// removal finds what a statement says was taken out, by its name: a
// capitalised name or one in backquotes, ending the clause, so that
// "removed Alertmanager's email receiver" takes out no Alertmanager; a host
// named with its number ("we retired mini-02 on Friday") is one too.
var removal = lazyre.New(`(?:\b(?:killed|ripped out|rip out|removed|remove|dropped|ditched|ditch|got rid of|get rid of|took out|uninstalled|retired|decommissioned)\s+(?:the\s+)?(` + "`[^`]+`" + `|[A-Z][\w.+-]*[\w+]|[a-z][\w.+]*-\d[\w.-]*[\w])|(` + "`[^`]+`" + `|\b[A-Z][\w.+-]*[\w+])(?:\s+(?:package|module|folder|directory|dir|service|library|plugin|crate|image|table|job|file|target))?\s+(?:is|are|was|were)\s+(?:out|gone|removed|deleted|dropped)\b|(` + "`[^`]+`" + `|\b[A-Z][\w.+-]*[\w+])\s+removed\b)(?:[.,;:!—)]|\s+(?:entirely|completely|for good|again|too|and|from|because|since|now|last|yesterday|today|on (?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b|$)`)

// goneList finds names taken out together: "OpenDKIM and postfwd are
// gone from both relays", "`tslint`, Husky and lint-staged are out".
var goneList = lazyre.New("((?:`[^`]+`|[A-Za-z][\\w.+-]*[\\w+])(?:,\\s+(?:`[^`]+`|[A-Za-z][\\w.+-]*[\\w+]))*,?\\s+and\\s+(?:`[^`]+`|[A-Za-z][\\w.+-]*[\\w+]))\\s+(?:are|were)\\s+(?:now\\s+)?(?:gone|out|removed|deleted|dropped)(?:[.,;:!—)]|\\s+(?:from|for good|entirely|completely|too|now|since|because)\\b|$)")

// calendarWord names a day or a month.
var calendarWord = prose.WordSet(`monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december`)

// namesGone returns the names of a list goneList found, when they are
// names: at least one written as a name (capitalised or in backquotes),
// each one word. "The logs and metrics are gone" took out no tool.
func namesGone(list string) []string {
	items := strings.FieldsFunc(list, func(r rune) bool { return r == ',' })
	var names []string
	named := false
	for _, it := range items {
		for _, w := range strings.Split(strings.TrimSpace(it), " and ") {
			w = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(w), "and "))
			if w == "" {
				continue
			}
			if strings.Contains(w, " ") || lex.StopWords[strings.ToLower(w)] || calendarWord[strings.ToLower(w)] {
				return nil // "Monday and Tuesday are out" takes out days, not names
			}
			if strings.HasPrefix(w, "`") || w[0] >= 'A' && w[0] <= 'Z' {
				named = true
			}
			names = append(names, strings.Trim(w, "`"))
		}
	}
	if !named {
		return nil
	}
	return names
}

// ruleKind are words that name a rule's kind, not what it is about.
var ruleKind = prose.WordSet(`limit cap rule count budget quota policy`)

// ruleGone is a rule said to hold no more: "Your BOM-line rule is
// dropped". Not "lifted" or "off", which a limit raised ("lifted to
// 200") or wrong ("off by one") is too.
var ruleGone = lazyre.New(`(?i)\b(?:your|the|our|that|this)\s+(` + "`[^`]+`" + `|[\w.+/-]*[\w+])\s+(?:rule|requirement|policy|limit|constraint)(?:\s+(?:is|was|has been)|'s)\s+(?:now\s+)?(?:dropped|gone|scrapped|retired|withdrawn|void)\b`)

// takenBack finds an instruction or plan the user takes back by name:
// "forget the --fast rule", "scrap the DEBUG1 thing", "forget the parts
// limit" (its limit group: a limit taken back is a limit's rule, see
// Removes).
var takenBack = lazyre.New(`(?i)\b(?:forget|scrap|ditch|drop|never ?mind|tak(?:e|ing) back|withdraw(?:ing)?)\s+(?:about\s+)?the\s+(` + "`[^`]+`" + `|--?[\w-]+|[\w.+/-]*[\w+])\s+(?:rule|thing|idea|requirement|flag|plan|part|bit|approach|policy|(limit|cap|constraint|restriction))\b`)

// ruleLapsed finds a rule said to apply no more, by the words that name
// it: "the after-22:00 rule no longer applies", "the two-reviewer
// requirement doesn't hold any more", "the Friday rule's off". What
// follows must end the clause (lapsedEnd): "the Friday rule doesn't apply
// to hotfixes" makes an exception.
var ruleLapsed = lazyre.New(`(?i)\b(?:the|that|this|our|your|my)\s+(` + "`[^`]+`" + `|[\w.:+/-]*\w(?:\s+[\w.:+/-]*\w){0,2}?)\s+(?:rule|requirement|policy|restriction|constraint)(?:\s+(?:(?:is\s+)?no longer (?:applies|apply|holds|hold|stands|needed|required|in (?:force|effect))|(?:doesn't|does not|won't|will not) (?:apply|hold)(?: any ?more)?|is (?:off|over|history|lifted|void|dead))|'s (?:off|over|history|lifted|void|dead))\b`)

// noLongerDoing finds a plan given up, the verb and what it was done
// to: "we're no longer retiring /live.mp3 on 1 March", "we are not
// migrating the billing DB any more".
var noLongerDoing = lazyre.New(`(?i)\b(?:no longer|not)\s+(?:(?:going|planning) to\s+)?([a-z]{3,}ing|[a-z]{3,})\s+(?:the\s+|our\s+|that\s+|this\s+)?(` + "`[^`]+`" + `|[\w./:-]*\w)`)

// anyMore closes a plan given up with "not": "not migrating it any
// more." Not "any more than we have to", nor "any more questions".
var anyMore = lazyre.New(`(?i)^[^.;]{0,40}\bany ?more(?:\s*[.;:,!)—–]|\s*$)`)

// lapsedEnd ends the clause of a rule said to lapse: its end, or a
// reason or a time after it, not what it does not apply to.
var lapsedEnd = lazyre.New(`(?i)^(?:\s*[.;:,!)—–]|\s*$|\s+(?:any ?more|now|since|because|so|as|either|until|anyway)\b)`)

// setToNumber follows a limit set, not taken back: "drop the rate limit
// to 50 per second".
var setToNumber = lazyre.New(`^\s+(?:down |up )?(?:to|at|by)\s+\d`)

// limitShape is a rule that holds a limit: "keep the unique BOM lines
// under 25", "at most 3 retries".
var limitShape = lazyre.New(`(?i)\b(?:under|below|at most|no more than|max(?:imum)?|limit(?:ed)?|cap(?:ped)?|up to|fewer than|less than|within)\s+\$?\d`)

// takeBackQuoted finds a rule the user takes back by quoting it: "I'm
// taking back the "never automatic" thing partly".
var takeBackQuoted = lazyre.New(`(?i)\b(?:tak(?:e|ing) back|withdraw(?:ing)?|drop(?:ping)?|scrap(?:ping)?|forget)\s+(?:the\s+|my\s+)?["“]([^"”]{3,60})["”]`)

// takenBackWords finds a rule taken back by two or three words that
// name it, or one of hyphenated words: "forget the results/ commits
// rule", "drop the no-Friday deploys rule", "scrap the
// one-file-per-issue rule", "take back my two-reviewers rule".
var takenBackWords = lazyre.New(`(?i)\b(?:` + dropRule + `)\s+(?:about\s+)?(?:the|my|our|that|this)\s+([\w.+/-]+(?:\s+[\w.+/-]+){0,2})\s+(?:rule|policy|requirement)\b`)

// dropRule are the verbs that take a rule back by naming it.
const dropRule = `forget|scrap|ditch|drop|never ?mind|take back|taking back`

// ruleAbout finds a rule taken back by what it was about: "forget my
// rule about Friday deploys".
var ruleAbout = lazyre.New(`(?i)\b(?:` + dropRule + `|lift|lifting)\s+(?:the|my|our|that|this)\s+(?:rule|policy|requirement|restriction)\s+(?:about|on|for|regarding)\s+(?:the\s+|our\s+)?` + topicAfter(4))

// tooStrict finds a rule the user says was too strict, by what it was
// about: "about dependencies: I was too strict", "I was too strict
// about the changelog".
var tooStrict = lazyre.New(`(?i)\babout\s+(?:the\s+|my\s+|our\s+)?([\w.+/-]+(?:\s+[\w.+/-]+){0,2})\s*[:,—–-]+\s*(?:I|we)\s+(?:was|were)\s+(?:too|a bit too|overly|a little too)\s+(?:strict|harsh|cautious|conservative|careful)\b|\b(?:I|we)\s+(?:was|were)\s+(?:too|a bit too|overly|a little too)\s+(?:strict|harsh|cautious|conservative|careful)\s+(?:about|with|on)\s+(?:the\s+|my\s+|our\s+)?` + topicAfter(2))

// scrapNamed finds a named thing of a kind thrown out: "scrap the
// OffscreenCanvas preview", "ditch the `pg_cron` job". Its key is the
// name and the kind, both of which a statement must hold.
var scrapNamed = lazyre.New(`\b(?i:scrap|ditch|drop)\s+the\s+(` + "`[^`]+`" + `|[A-Z][\w.+-]*)\s+([a-z]{3,})\b`)

// forgetAbout finds what the user takes back in so many words: "forget
// what I said about vim.notify", "I'm taking back what I said about never
// blocking", "take back what I said about mails only
// on failure", "forget what I said about one compose
// file", "forget what I said about JavaScript in the variant picker",
// "I've changed my mind about voicemail", "the customer changed their
// mind about the logo".
var forgetAbout = lazyre.New(`(?i)\b(?:(?:forget|take back|taking back|took back|scratch|ignore|disregard) (?:what|everything|all) (?:I|we)(?: have|'ve)? (?:said|told you|wrote|asked) (?:about|regarding)|(?:I|we|they|he|she|the \w+)(?:'ve| have| has)? changed (?:my|our|their|his|her) minds? (?:about|on|regarding))\s+(?:the\s+|using\s+|our\s+)?` + topicAfter(5))

// topicAfter is what a taking back names after its lead: a code span, or
// up to n+1 words up to where its clause ends.
func topicAfter(n int) string {
	return `(` + "`[^`]+`" + `|[\w.+/<>-]+(?:\s+[\w.+/<>-]+){0,` + strconv.Itoa(n) + `}?)(?:\s*[,.;:!—–)]|\s+-\s|\s+(?:and|but|now|then|it|that|we|you)\b|$)`
}

// changeOfHeart is a user taking back what they said on a topic, named
// after "on": "Change of heart on emails.", "I've had second thoughts
// about the review step".
var changeOfHeart = lazyre.New(`(?i)\b(?:change of heart|second thoughts) (?:about|on|regarding)\s+(?:the\s+|our\s+)?` + topicAfter(3))

// caving finds a rule the user gives up on: "I'm caving on mouse: wheel
// scrolling, enough people asked."
var caving = lazyre.New(`(?i)\b(?:i'm|i am|we're|we are|i'll be)\s+(?:caving|giving in|relenting)\s+on\s+(?:the\s+)?([\w.+/-]+(?:\s+[\w.+/-]+)?)`)

// againOK finds a thing the user allows again: "you can use it again"
// names nothing; "you can run full image builds again" does, and so does
// "you can run the deploys yourself from now on", or "you can power off
// the FreePBX box whenever you like" (once the fax line it kept moved).
var againOK = lazyre.New(`(?i)\byou can (?:use|run|do|add|call|start|kick off|touch|keep|have|power off|shut down|turn off|switch off|remove|delete|reboot|restart|wipe|retire|decommission)\s+((?:[\w.+/<>-]+\s+){0,3}?[\w.+/<>-]+)\s+(?:yourself\s+)?(?:again|from now on|whenever you (?:like|want)|any ?time)\b`)

// goAhead finds a thing the user lets the agent do, the first word of
// what it is done with: "go ahead and use spot for the g4dn workers".
// Like againOK, it takes back only a rule that forbids that thing.
var goAhead = lazyre.New(`(?i)\bgo ahead and (?:use|run|add|call|start|touch|power off|shut down|turn off|remove|delete|reboot|restart|enable|deploy)\s+(?:the\s+|a\s+|an\s+)?([\w.+/<>-]+)`)

// allowedNow finds a thing said to be allowed: "getByRole is fine again
// for buttons", "unsafe is allowed in the packet decoder only". Its name
// ends where the verb starts, one or two words. With "now", "again" or
// "too" (groups 2 and 3) the rule changed ("other packages are fine
// too"); without, the thing is allowed somewhere, which only a rule for
// everywhere forbade.
var allowedNow = lazyre.New(`(?i)(?:^|[.;:,—]\s*|\b(?:but|and|so|now)\s+)((?:` + "`[^`]+`" + `|[\w.+/<>-]+)(?:\s+[\w.+/<>-]+)?)\s+(?:is|are)\s+(now\s+)?(?:allowed|permitted|(?:fine|ok|okay)\s+(again|too))(\s+again)?\b`)

// otherOnes opens a thing allowed besides one named before it: "other
// packages are fine too" allows packages.
var otherOnes = lazyre.New(`(?i)^(?:other|more|new|extra|additional|any)\s+`)

// feelFree finds a thing the user lets the agent use: "actually, feel
// free to use bpy.ops for that one", "feel free to touch the Makefile
// again". With "again" or "from now on" (group 2) the rule changed;
// without, the thing is allowed somewhere, which only a rule for
// everywhere forbade.
var feelFree = lazyre.New(`(?i)\b(?:` + permitLead + `) (?:` + strings.Join(usingVerbs, "|") + `)\s+(?:the\s+|our\s+)?((?:` + "`[^`]+`" + `|[\w.+/<>-]+)(?:\s+[\w.+/<>-]+)?)([^.;]*\b(?:again|from now on)\b)?`)

// freeToDo finds an action the user lets the agent take, said by its
// verb: "feel free to drain two workers at once from now", "feel free to
// deploy to trailmate-staging from your laptop", "feel free to update
// baselines locally now". It takes back a rule against that very action
// (forbidsDoing); the verbs of feelFree name a thing instead.
var freeToDo = lazyre.New(`(?i)\b(?:` + permitLead + `) ([a-z]{4,})\s+([^.;:,—–()]*)`)

// permitLead lets the agent do what follows: "feel free to", "you can go
// ahead and".
const permitLead = `feel free to|you're free to|you are free to|you can go ahead and`

// usingVerbs are the verbs feelFree reads as using a named thing.
var usingVerbs = []string{"use", "call", "run", "add", "touch", "edit", "import", "install", "pull in", "bring in", "reformat", "format", "change", "modify"}

// freeVerbs are the first words of usingVerbs: freeToDo leaves them to
// feelFree.
var freeVerbs = func() map[string]bool {
	m := make(map[string]bool)
	for _, v := range usingVerbs {
		first, _, _ := strings.Cut(v, " ")
		m[first] = true
	}
	return m
}()

// intoTarget is where a permission lets its object go: "packages to the
// layer".
var intoTarget = lazyre.New(`^\S+\s+(?:to|into|in)\s+(?:the\s+|our\s+)?([A-Za-z][\w.+/-]*)`)

// anyThing is a rule's object that is no one thing: "don't put anything
// new into the common layer".
var anyThing = lazyre.New(`(?i)\b(?:anything|everything|any new \w+)\b`)

// whenNeeded after a permission makes it general: "feel free to add
// frontend packages when you need them".
var whenNeeded = lazyre.New(`(?i)^\s*(?:whenever|when(?:ever)? you (?:need|want|see fit)|as (?:you )?(?:need(?:ed)?|see fit|like)|if you need)\b`)

// everywhere marks a rule for the whole project: "no unsafe code
// anywhere in this workspace", "ruled out across the workspace", "don't
// run it against anything".
var everywhere = lazyre.New(`(?i)\b(?:anywhere|everywhere|at all|(?:against|on|to|in) (?:anything|any (?:db|database|environment|env|server|box|host|machine|branch|cluster))|in (?:this|the|our) (?:repo|repository|workspace|project|codebase)|across the (?:workspace|repo|codebase|project))\b`)

// letsNot finds a thing the user decides against after all: "let's not
// do parity at all", "let's not ship debug-tweaks in any image anymore".
var letsNot = lazyre.New(`(?i)\b(?:let'?s|we'?ll|we will|we should)\s+not\s+(?:do|use|ship|add|have|keep|run|enable|build|bother with)\s+(?:the\s+|a\s+|an\s+|any\s+)?((?:[\w.+/<>-]+\s+){0,2}?[\w.+/<>-]+)(?:\s+(?:at all|anymore|any more|in any|after all)\b|[,.;:!—]|$)`)

// ripOut finds a thing taken out by name, the verb around it: "rip the
// PARITY parameter out".
var ripOut = lazyre.New("\\b(?i:rip|rips|ripped|take|took|pull|pulled|strip|stripped)\\s+(?:the\\s+)?(`[^`]+`|[A-Z][\\w.+-]*[\\w+])(?:\\s+(?i:parameter|flag|option|module|package|plugin|feature|setting|step|stage|job|service|dependency))?\\s+(?i:out)\\b")

// droppedSupport finds a version series whose support was dropped:
// "drop 0.9 support", "dropped support for Python 3.8".
var droppedSupport = lazyre.New(`(?i)\b(?:drop|dropped|dropping|remove|removed|end|ended)\s+(?:support\s+for\s+(?:[a-z][\w.+-]*\s+)?v?(\d+(?:\.\d+)?)(?:\.x)?\b|(?:[a-z][\w.+-]*\s+)?v?(\d+(?:\.\d+)?)(?:\.x)?\s+support\b)`)

// phraseKey is the key Removed gives a phrase: its code token, or
// its keys of more than two characters joined by a space, in order.
func phraseKey(p string) string {
	p = strings.Trim(p, "`")
	if t := CodeTokens(p); len(t) == 1 && strings.EqualFold(t[0], p) {
		return t[0]
	}
	var ks []string
	for k := range TopicKeys(p) {
		if len(k) > 2 {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return strings.Join(ks, " ")
}

// keptAway is a rule named by how it kept a thing away: "keeping CDNs
// out", "avoiding Docker", "not using ORMs", "leaving the cron jobs
// alone".
var keptAway = lazyre.New(`(?i)^(?:keeping|leaving|avoiding|banning|not using|not adding|staying away from|staying off)\s+(?:the\s+|any\s+)?(.+?)(?:\s+(?:out|away|alone|off))?$`)

// leftAlone follows a thing left as it is: "leaving Fly alone", "as it
// is", "in place".
var leftAlone = lazyre.New(`(?i)^\W{0,2}(?:alone|as it is|as is|in place|untouched|be|where it is|running)\b`)

// movedOff finds what a statement says the project no longer runs on:
// "we're off the compose Kafka", "moved off Jenkins", "we're leaving
// Fly", "we're moving off Flannel to Cilium", "the site can't stay on
// Cloudflare", "it has to move off Heroku". The word before
// the name, when there is one, says which of its kind: off the compose
// Kafka is not off Kafka.
var movedOff = lazyre.New(`\b(?:(?i:we're|we are|we've moved|we moved|moved|migrated|got|(?:we're|we are) (?:moving|migrating)|(?:has|have|needs?) to (?:move|get|come))\s+off|(?i:we're|we are|we'll be)\s+leaving|(?i:can't|cannot|can no longer|won't) stay on)\s+(?:of\s+)?(?:the\s+|our\s+)?(?:([a-z][\w-]*)\s+)?(` + "`[^`]+`" + `|\b[A-Z][\w.+-]*[\w+])(?:[.,;:!—)]|\s|$)`)

// outOfList finds a name taken out of a list: "Juneteenth is out of the
// holiday list", "pve3 is off the list now".
var outOfList = lazyre.New(`(` + "`[^`]+`" + `|\b[A-Z][\w.+-]*[\w+]|\b[a-z][\w.-]*\d[\w.-]*)\s+(?:is|are)\s+(?:now\s+)?(?:out of|off|gone from|no longer (?:in|on))\s+the\s+(?:[\w-]+\s+)?(list|set)\b`)

// setOrder is an order to set a value, which a measure given in place
// of another ("cap the limit at 100 instead of 200") changes rather than
// tells as a symptom.
var setOrder = lazyre.New(`(?i)^(?:[\w -]{1,30}:\s+)?(?:(?:ok|okay|so|and|also|then|please),?\s+)*(?:let'?s\s+)?(?:set|cap|make|raise|lower|bump|limit|keep|put|give|change|reduce|increase|decrease|drop|cut|move|go with|use)\s`)

// hypothetical is a statement of what would be, not of what is.
var hypothetical = lazyre.New(`(?i)^\s*(?:if|unless)\b`)

// Removes reports whether removed key k (Removed) takes out what a
// statement of keys xk and text x says: the keys it names, a version of
// the series it dropped ("drop 0.9 support" takes out 0.9.5), or, for a
// thing allowed again, a statement that forbade it.
func Removes(k string, xk map[string]bool, x string) bool {
	switch {
	case strings.HasPrefix(k, droppedSeries):
		v := k[len(droppedSeries):]
		for t := range xk {
			if t == v || IsVersion(t) && strings.HasPrefix(t, v+".") {
				return true
			}
		}
		return false
	case strings.HasPrefix(k, allowedAgain):
		return hasKin(xk, k[len(allowedAgain):]) && forbids.MatchString(x)
	case strings.HasPrefix(k, allowedHere):
		return hasKin(xk, k[len(allowedHere):]) && forbids.MatchString(x) && everywhere.MatchString(x)
	case strings.HasPrefix(k, allowedInto):
		return xk[k[len(allowedInto):]] && forbids.MatchString(x) && anyThing.MatchString(x)
	case strings.HasPrefix(k, allowedDoing):
		return Permits(k, x)
	case strings.HasPrefix(k, limitDropped):
		return HasKeys(xk, k[len(limitDropped):]) && limitShape.MatchString(x)
	case strings.HasPrefix(k, stoppedDoing):
		verb, what, _ := strings.Cut(k[len(stoppedDoing):], " ")
		if !HasKeys(xk, what) {
			return false
		}
		for _, w := range strings.Fields(strings.ToLower(x)) {
			if strings.HasPrefix(strings.TrimLeft(w, "`\"'("), verb) {
				return true // "retiring" is "retir", "Retire" "retire"
			}
		}
		return false
	case strings.HasPrefix(k, takenBackRule):
		// A rule taken back forbade, or asked for always: "forget what I
		// said about running make test before reporting done" takes back
		// "from now on run make test before you tell me it is done".
		return mostKeys(xk, k[len(takenBackRule):]) && (forbids.MatchString(x) || restricts.MatchString(x))
	case strings.HasPrefix(k, lapsedRule):
		return mostKeys(xk, k[len(lapsedRule):]) && (forbids.MatchString(x) || restricts.MatchString(x))
	case strings.HasPrefix(k, takenBackName):
		name, px := k[len(takenBackName):], " "+phrase(x)+" "
		if strings.Contains(px, " "+name+" ") {
			return true
		}
		if rest, ok := strings.CutPrefix(name, "no "); ok && (inOrder(px, name, 2) || forbids.MatchString(x) && inOrder(px, rest, 0)) {
			return true // "the no-framework thing" is "… no web framework", or "don't pull in a web framework"
		}
		// A rule named by its value ("the after-22:00 rule", "the
		// try-it-on-playout2-first rule") is a rule with that value that
		// forbids ("never restart labeld between 06:00 and 22:00"), or
		// restricts and says another of the name's words ("try every
		// change on playout2 first"). A bare number is no value to name
		// a rule by: "the 10-minute rule" is not every rule with a 10.
		var values, others []string
		digits := 0
		for _, w := range strings.Fields(name) {
			switch {
			case IsNumber(w):
				values = append(values, w)
				digits++
			case strings.ContainsAny(w, "0123456789"):
				values = append(values, w)
			case len(w) > 3 && !lex.StopWords[w]:
				others = append(others, w)
			}
		}
		if len(values) == 0 || len(values) == digits && digits < 2 || !strings.Contains(px, " "+strings.Join(values, " ")+" ") {
			return false
		}
		if forbids.MatchString(x) {
			return true
		}
		if !restricts.MatchString(x) {
			return false
		}
		for _, w := range others {
			if strings.Contains(px, " "+w+" ") {
				return true
			}
		}
		return false
	}
	return HasKeys(xk, k)
}

// inOrder reports whether phrase p holds the words of name in their
// order, with at most gap other words between two of them.
func inOrder(p, name string, gap int) bool {
	ws, ns := strings.Fields(p), strings.Fields(name)
	for start := range ws {
		if ws[start] != ns[0] {
			continue
		}
		j, at := 1, start
		for i := start + 1; i < len(ws) && j < len(ns) && i-at <= gap+1; i++ {
			if ws[i] == ns[j] {
				j, at = j+1, i
			}
		}
		if j == len(ns) {
			return true
		}
	}
	return false
}

// phrase is s in lower case, its words (letters and digits, a word
// stemmed as a key is) joined by single spaces: "online-changes-only"
// and "online changes only" are one phrase.
func phrase(s string) string {
	ws := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range ws {
		ws[i] = lex.Stem(w)
	}
	return strings.Join(ws, " ")
}

// mostKeys reports whether keys xk hold the first of the keys of k,
// joined by a space in the order said, and more than half of them, a key
// also meeting a longer one it begins ("add" meets "adding"): a rule
// taken back in other words ("forget what I said about asking before
// adding packages") names what it took back in part, and first what it
// is about.
func mostKeys(xk map[string]bool, k string) bool {
	ks := strings.Fields(k)
	n := 0
	for i, w := range ks {
		met := false
		for t := range xk {
			if meets(t, w, 3) {
				met = true
				break
			}
		}
		if !met && i == 0 {
			return false
		}
		if met {
			n++
		}
	}
	return 2*n > len(ks)
}

// Permits reports whether k, a key of what a statement took out
// (Removed), lets do what x forbids: "you may rebase your own feature
// branches" what "don't rebase shared branches" does not, "show fines
// after all" what "please don't show fines on the screen" did.
func Permits(k, x string) bool {
	rest, ok := strings.CutPrefix(k, allowedDoing)
	verb, what, _ := strings.Cut(rest, " ")
	return ok && forbidsDoing(x, verb, what)
}

// GoesBack reports whether s takes back an earlier word: "after all",
// "change of heart", "changed my mind", "on second thought".
func GoesBack(s string) bool {
	for _, m := range goesBack.FindAllStringSubmatch(s, -1) {
		if m[1] == "" {
			return true
		}
	}
	return false
}

// goesBack is a word of going back; "after all that you'd be parsing
// free text" (its group) gives a reason instead.
var goesBack = lazyre.New(`(?i)\b(?:after all(\s+(?:that|this|those|these|of|the|we|you|i|they|it)\b)?|change of heart|changed my mind|second thought)`)

// forbidsDoing reports whether x forbids the action of verb key v on
// what a permission allowed it (keys joined by a space): a word that
// forbids, then within three words the verb or its noun ("don't
// deploy", "never drain", "no local updates"), and the words of the
// rule around the verb all among what was allowed. "Don't rebase shared
// branches" stands when "your own feature branches" may be rebased.
func forbidsDoing(x, v, what string) bool {
	allowed := strings.Fields(what)
	for _, loc := range forbids.FindAllStringIndex(x, -1) {
		rest := x[loc[1]:]
		if i := strings.IndexAny(rest, ".,;:!?—–("); i >= 0 {
			rest = rest[:i]
		}
		ws := strings.Fields(rest)
		for i, w := range ws {
			if i > 3 {
				break
			}
			if k := lex.Key(strings.Trim(w, "`'\"")); len(k) < 4 || !meets(k, v, 4) {
				continue
			}
			around := append(slices.Clone(ws[:i]), prose.FirstWords(ws[i+1:], 3)...)
			if allAmong(saidKeys(strings.Join(around, " ")), allowed) {
				return true
			}
		}
	}
	return false
}

// allAmong reports whether each of keys k, joined by a space, meets one
// of keys in.
func allAmong(k string, in []string) bool {
	for _, w := range strings.Fields(k) {
		if !slices.ContainsFunc(in, func(t string) bool { return meets(t, w, 4) }) {
			return false
		}
	}
	return true
}

// meets reports whether keys a and b are one, or one begins the other
// and both have n letters or more ("update" meets "updat").
func meets(a, b string, n int) bool {
	return a == b || len(a) >= n && len(b) >= n && (strings.HasPrefix(a, b) || strings.HasPrefix(b, a))
}

// saidKeys are the keys of more than two letters of phrase p, no stop
// word, in the order said.
func saidKeys(p string) string {
	var ks []string
	for _, w := range strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if k := lex.Key(w); len(k) > 2 && !lex.StopWords[w] && !slices.Contains(ks, k) {
			ks = append(ks, k)
		}
	}
	return strings.Join(ks, " ")
}

// Marks of the removed keys that are not names: a version series whose
// support was dropped, a thing allowed again or here, a rule taken
// back, a limit taken back (what it limited), a layer opened, an action
// allowed (its verb's key, then the keys of what it may be done to).
const (
	droppedSeries = "^"
	allowedAgain  = "!"
	allowedHere   = "~"
	takenBackRule = "?"
	takenBackName = "&"
	limitDropped  = "%"
	allowedInto   = "+"
	allowedDoing  = "="
	stoppedDoing  = "<"
	lapsedRule    = "#"
)

// Forbids reports whether s forbids something, a rule a permission
// can take back.
func Forbids(s string) bool { return forbids.MatchString(s) }

// forbids finds a statement that forbids something: what a thing
// allowed again retires.
var forbids = lazyre.New(`(?i)\b(?:don't|do not|never|no|avoid|stop|not allowed|mustn't|must not|shouldn't|should not|ruled out|forbid|forbidden|without (?:asking|checking)|ask (?:me|us)(?: first)? before)\b`)

// Restricts reports whether s binds without forbidding: "work only on a
// copy".
func Restricts(s string) bool { return restricts.MatchString(s) }

// restricts finds a rule that binds without forbidding: "work only on a
// copy", "from now on try every change on playout2 first".
var restricts = lazyre.New(`(?i)\b(?:only|always|must|from now on|going forward|every time)\b`)

// HasKeys reports whether keys xk hold every key of k, keys joined by a
// space.
func HasKeys(xk map[string]bool, k string) bool {
	for _, w := range strings.Fields(k) {
		if !xk[w] {
			return false
		}
	}
	return true
}

// hasKin is HasKeys where a word for a dependency meets another: a user
// who lets the agent add "frontend packages" takes back a rule against
// "new npm dependencies to the frontend".
func hasKin(xk map[string]bool, k string) bool {
	for _, w := range strings.Fields(k) {
		if xk[w] {
			continue
		}
		if !depKeys[w] || !hasDep(xk) {
			return false
		}
	}
	return true
}

func hasDep(xk map[string]bool) bool {
	for t := range xk {
		if depKeys[t] {
			return true
		}
	}
	return false
}

// depKeys are the keys of the words for a dependency.
var depKeys = KeySet(`package packages dependency dependencies deps library libraries`)

// DepKin returns the keys of the other words for a dependency when k is
// one: a permission for libraries takes back a rule about dependencies,
// so each must find the other.
func DepKin(k string) []string {
	if !depKeys[k] {
		return nil
	}
	out := make([]string, 0, len(depKeys))
	for d := range depKeys {
		if d != k {
			out = append(out, d)
		}
	}
	return out
}

// Removed are the keys of what s says was taken out; a name with
// the word that says which is both keys, joined by a space.
func Removed(s string) []string {
	var out []string
	if hypothetical.MatchString(s) {
		return nil // "if we moved off Postgres we would lose PostGIS"
	}
	for _, i := range movedOff.FindAllStringSubmatchIndex(s, -1) {
		m := []string{s[i[0]:i[1]], "", s[i[4]:i[5]]}
		if i[2] >= 0 {
			m[1] = s[i[2]:i[3]]
		}
		if leftAlone.MatchString(s[i[5]:]) {
			continue // "we're leaving Fly alone for now"
		}
		k := lex.Key(strings.Trim(m[2], "`"))
		if q := strings.ToLower(m[1]); q != "" && !lex.StopWords[q] {
			k = lex.Key(q) + " " + k
		}
		if len(k) > 2 && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if strings.Contains(s, " list") || strings.Contains(s, " set") {
		for _, m := range outOfList.FindAllStringSubmatch(s, -1) {
			if k := lex.Key(strings.Trim(m[1], "`")); len(k) > 2 && !lex.StopWords[strings.ToLower(m[1])] {
				if k = lex.Key(m[2]) + " " + k; !slices.Contains(out, k) {
					out = append(out, k) // a statement of it in the list, not every one of it
				}
			}
		}
	}
	for _, m := range ruleGone.FindAllStringSubmatch(s, -1) {
		// Only a limit's rule: "the rate limit" is no rule on rates.
		// "BOM-line" is about BOM lines: each word a key, but for a last
		// one that names the kind of rule ("parts-limit").
		words := strings.FieldsFunc(strings.Trim(m[1], "`"), func(r rune) bool { return r == '-' || r == '_' })
		if n := len(words); n > 1 && ruleKind[strings.ToLower(words[n-1])] {
			words = words[:n-1]
		}
		if k := saidKeys(strings.Join(words, " ")); len(k) > 2 && !slices.Contains(out, limitDropped+k) {
			out = append(out, limitDropped+k)
		}
	}
	for _, i := range takenBack.FindAllStringSubmatchIndex(s, -1) {
		if name := s[i[2]:i[3]]; i[4] < 0 && strings.Count(name, "-") >= 1 && !strings.HasPrefix(name, "-") && !strings.Contains(name, "`") {
			// "forget the online-changes-only rule" names the rule by
			// the words it says them in.
			if p := phrase(name); strings.Contains(p, " ") && !slices.Contains(out, takenBackName+p) {
				out = append(out, takenBackName+p) // and its key, as before: "Tuesday-window" is about Tuesday
			}
		}
		k := lex.Key(strings.TrimLeft(strings.Trim(s[i[2]:i[3]], "`"), "-"))
		if i[4] >= 0 {
			if setToNumber.MatchString(s[i[1]:]) {
				continue // "drop the rate limit to 50 per second" sets it
			}
			k = limitDropped + k
		}
		if len(k) > 2 && !lex.StopWords[k] && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	add := func(k string) {
		if k != "" && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	for _, m := range takenBackWords.FindAllStringSubmatch(s, -1) {
		if k := saidKeys(m[1]); strings.Contains(k, " ") {
			add(k) // "forget the results/ commits rule": a rule named by words a statement of it holds
		}
	}
	for _, m := range scrapNamed.FindAllStringSubmatch(s, -1) {
		if n, kind := lex.Key(strings.Trim(m[1], "`")), lex.Key(m[2]); len(n) > 2 && !lex.StopWords[strings.ToLower(m[2])] {
			add(n + " " + kind)
		}
	}
	// Each of these has a word without which it cannot match.
	lower := strings.ToLower(s)
	if strings.Contains(lower, "no longer ") || strings.Contains(lower, "any more") || strings.Contains(lower, "anymore") {
		for _, i := range noLongerDoing.FindAllStringSubmatchIndex(s, -1) {
			verb, what := strings.ToLower(s[i[2]:i[3]]), s[i[4]:i[5]]
			if !strings.EqualFold(s[i[0]:min(len(s), i[0]+len("no longer"))], "no longer") && !anyMore.MatchString(s[i[1]:]) {
				continue // "not" says it only with "any more" after: "not retiring it any more"
			}
			if !strings.HasSuffix(verb, "ing") || lex.StopWords[verb] {
				continue
			}
			stem := lex.Key(verb)
			wk := saidKeys(strings.Trim(what, "`"))
			if len(stem) >= 4 && wk != "" {
				add(stoppedDoing + stem + " " + wk)
			}
		}
	}
	if containsAny(lower, " rule", " requirement", " policy", " restriction", " constraint") {
		for _, i := range ruleLapsed.FindAllStringSubmatchIndex(s, -1) {
			if !lapsedEnd.MatchString(s[i[1]:]) {
				continue // "the Friday rule doesn't apply to hotfixes"
			}
			// Named by several words ("after-22:00"), a statement of the
			// rule says them in that order; by one ("the copy rule"), it
			// names it and forbids or restricts.
			name := s[i[2]:i[3]]
			if p := phrase(strings.Trim(name, "`")); strings.Contains(p, " ") {
				add(takenBackName + p)
			} else if k := saidKeys(name); k != "" {
				add(lapsedRule + k)
			}
		}
	}
	if strings.ContainsAny(s, "\"“") {
		for _, m := range takeBackQuoted.FindAllStringSubmatch(s, -1) {
			if k := saidKeys(m[1]); k != "" {
				add(takenBackRule + k)
			}
		}
	}
	if strings.Contains(lower, "mind") || containsAny(lower, " said about", " said regarding", " told you about", " told you regarding", " wrote about", " wrote regarding", " asked about", " asked regarding") {
		for _, m := range forgetAbout.FindAllStringSubmatch(s, -1) {
			add(phraseKey(m[1]))
			if k := saidKeys(m[1]); strings.Contains(k, " ") {
				add(takenBackRule + k)
			}
			if g := keptAway.FindStringSubmatch(m[1]); g != nil {
				// "forget what I said about keeping CDNs out" takes back
				// "no CDN in front of it": the rule is about what it kept
				// away, which the older rule need not say with the verb.
				if k := saidKeys(g[1]); k != "" {
					add(takenBackRule + k)
				}
			}
		}
	}
	if strings.Contains(lower, "change of heart") || strings.Contains(lower, "second thoughts") {
		// "Change of heart on emails. … I do want an automatic
		// confirmation email": every rule on the topic is taken back,
		// one word being topic enough.
		for _, m := range changeOfHeart.FindAllStringSubmatch(s, -1) {
			if k := saidKeys(m[1]); len(k) > 3 {
				add(takenBackRule + k)
			}
		}
	}
	if containsAny(lower, " rule ", " policy ", " requirement ", " restriction ") {
		for _, m := range ruleAbout.FindAllStringSubmatch(s, -1) {
			if k := saidKeys(m[1]); k != "" {
				add(takenBackRule + k)
			}
		}
	}
	if containsAny(lower, "strict", "cautious", "conservative", "careful", "harsh") {
		for _, m := range tooStrict.FindAllStringSubmatch(s, -1) {
			if k := saidKeys(m[1] + m[2]); k != "" {
				add(takenBackRule + k)
			}
		}
	}
	if containsAny(lower, "again", "from now on", "whenever", "any time", "anytime") {
		for _, m := range againOK.FindAllStringSubmatch(s, -1) {
			if k := phraseKey(m[1]); k != "" {
				add(allowedAgain + k)
			}
		}
	}
	if strings.Contains(lower, "go ahead and ") {
		for _, m := range goAhead.FindAllStringSubmatch(s, -1) {
			if k := phraseKey(m[1]); k != "" {
				add(allowedAgain + k) // "go ahead and use spot for the g4dn workers" takes back "no spot"
			}
		}
	}
	if strings.Contains(lower, "caving") || strings.Contains(lower, "giving in") || strings.Contains(lower, "relenting") {
		for _, m := range caving.FindAllStringSubmatch(s, -1) {
			if k := phraseKey(m[1]); k != "" {
				add(allowedAgain + k) // "I'm caving on mouse: wheel scrolling" takes back "no mouse capture"
			}
		}
	}
	if strings.Contains(lower, "allowed") || strings.Contains(lower, "permitted") || strings.Contains(lower, "again") || strings.Contains(lower, "fine") {
		for _, m := range allowedNow.FindAllStringSubmatch(s, -1) {
			mark := allowedHere
			if m[2]+m[3]+m[4] != "" {
				mark = allowedAgain
			}
			if k := phraseKey(otherOnes.ReplaceAllString(m[1], "")); k != "" {
				add(mark + k)
			}
		}
	}
	if strings.Contains(lower, "free to") || strings.Contains(lower, "go ahead and") {
		for _, m := range feelFree.FindAllStringSubmatch(s, -1) {
			mark := allowedHere
			name := strings.Fields(m[1])
			rest := s[strings.Index(s, m[0])+len(m[0]):]
			again := strings.EqualFold(name[len(name)-1], "again")
			if len(name) == 2 && lex.StopWords[strings.ToLower(name[1])] {
				rest = name[1] + rest // "libraries as you need them"
				name = name[:1]       // "bpy.ops for that one"
			}
			if m[2] != "" || again || whenNeeded.MatchString(rest) {
				mark = allowedAgain
			}
			if k := phraseKey(strings.Join(name, " ")); k != "" {
				add(mark + k)
			}
			// "add packages to the layer yourself from now on" takes back
			// "don't put anything new into the common layer".
			if t := intoTarget.FindStringSubmatch(m[1] + m[2]); t != nil && mark == allowedAgain {
				if k := lex.Key(t[1]); len(k) > 2 {
					add(allowedInto + k)
				}
			}
		}
	}
	if strings.Contains(lower, "free to") || strings.Contains(lower, "go ahead and") {
		for _, m := range freeToDo.FindAllStringSubmatch(s, -1) {
			if verb := strings.ToLower(m[1]); !freeVerbs[verb] {
				add(allowedDoing + lex.Key(verb) + " " + saidKeys(strings.Join(prose.FirstWords(strings.Fields(m[2]), 6), " ")))
			}
		}
	}
	if GoesBack(s) {
		// "… a change of heart: show fines after all" does what a rule
		// forbade ("please don't show fines on the screen") as a
		// permission does: any word of the sentence that goes back may
		// be the act's verb, the words after it what the act is done to
		// (forbidsDoing decides).
		for _, sn := range prose.Sentences(s) {
			if !GoesBack(sn) {
				continue
			}
			ws := strings.Fields(sn)
			for i, w := range ws {
				if v := strings.ToLower(strings.Trim(w, ",.;:!?—–()`'\"")); len(v) >= 3 && !lex.StopWords[v] && !freeVerbs[v] {
					if what := saidKeys(strings.Join(prose.FirstWords(ws[i+1:], 6), " ")); what != "" {
						add(allowedDoing + lex.Key(v) + " " + what)
					}
				}
			}
		}
	}
	if strings.Contains(lower, "not") {
		for _, m := range letsNot.FindAllStringSubmatch(s, -1) {
			add(phraseKey(m[1]))
		}
	}
	if strings.Contains(lower, "out") {
		for _, m := range ripOut.FindAllStringSubmatch(s, -1) {
			add(lex.Key(strings.Trim(m[1], "`")))
		}
	}
	if strings.Contains(lower, "support") {
		for _, m := range droppedSupport.FindAllStringSubmatch(s, -1) {
			add(droppedSeries + m[1] + m[2])
		}
	}
	if strings.Contains(lower, " and ") {
		for _, m := range goneList.FindAllStringSubmatch(s, -1) {
			for _, name := range namesGone(m[1]) {
				if k := lex.Key(name); len(k) > 2 && !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
	}
	for _, m := range removal.FindAllStringSubmatch(s, -1) {
		name := strings.TrimRight(strings.Trim(m[1]+m[2]+m[3], "`"), "/")
		if len(name) < 3 || lex.StopWords[strings.ToLower(name)] {
			continue
		}
		if sourceExt[path.Ext(name)] {
			// "RetryHandler.cs was deleted": the class went with its
			// file. "Startup.cs was deleted" says nothing of startup.
			name = strings.TrimSuffix(name, path.Ext(name))
			if !lex.CodeName(name) {
				continue
			}
		}
		if k := lex.Key(name); k != "" && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// sourceExt are the extensions of files named for the one type they hold.
var sourceExt = map[string]bool{".cs": true, ".java": true, ".kt": true, ".swift": true, ".ts": true, ".tsx": true,
	".py": true, ".rb": true, ".go": true, ".rs": true, ".cpp": true, ".h": true, ".hpp": true, ".m": true, ".php": true, ".scala": true, ".dart": true}

// switchOn and switchOff find a statement that a switch is on or off:
// "keep it on", "turn SIMD on", "`compile: true` is set", "compile is off
// again", "no SIMD yet", "No SIMD, as you said". "Our users are on Safari
// 15" and "keep an eye on the worker" put something on a thing: a
// switch's "on" after its name ends the clause.
var (
	switchOn  = lazyre.New(`(?i)\b(?:(?:keep|leave|turn|turned|switch|switched)(?: it| them)? on\b|(?:keep|leave|turn|turned|switch|switched)(?: [\w-]+){1,2}? on(?:[.,;:!)]|\s*$| now\b| again\b)|(?:is|are|stays?|left) on(?:[.,;:!)]|\s*$| now\b| again\b)|enabled\b|[\w-]+: ?true\b)`)
	switchOff = lazyre.New(`(?i)\b(?:(?:keep|leave|turn|turned|switch|switched)(?: it| them)? off\b|(?:keep|leave|turn|turned|switch|switched)(?: [\w-]+){1,2}? off(?:[.,;:!)]|\s*$| now\b| again\b| for\b)|(?:is|are|stays?|left) off\b|off again\b|disabled\b|[\w-]+: ?false\b|no [\w-]+ yet\b|(?:^|[.;:]\s)no (?-i:[A-Z][A-Z0-9][\w-]*|[\w-]*[0-9][\w-]*)[,;])`)
)

// State is 1 when s says a switch is on, -1 when off, 0 when it
// says neither or both.
func State(s string) int {
	on, off := switchOn.MatchString(s), switchOff.MatchString(s)
	switch {
	case on && !off:
		return 1
	case off && !on:
		return -1
	}
	return 0
}

// Moves reports whether s moves a folder or file: "moved", "renamed",
// "git mv".
func Moves(s string) bool { return moveCue.MatchString(s) }

// KeySet is the keys of the words of s.
func KeySet(s string) map[string]bool {
	out := make(map[string]bool)
	for _, w := range strings.Fields(s) {
		out[lex.Key(w)] = true
	}
	return out
}

// Keys are the comparison keys of s's content words.
func Keys(s string) map[string]bool {
	out := make(map[string]bool)
	for w := range lex.ContentWords(s) {
		out[lex.Key(w)] = true
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// IsWord reports whether key k is a word that says something changed,
// or when, rather than what.
func IsWord(k string) bool { return changeWords[k] }

// containsAny reports whether s holds one of the words.
func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// Only returns the keys of the thing a sentence says alone changed:
// "The parquet files under /mnt/research/results stay where they are,
// only the catalog moved." names the catalog, and nil when it says no
// such thing. A change that gives no value is then of that thing only,
// whatever else the sentence shares with an older one.
func Only(s string) map[string]bool {
	if !strings.Contains(strings.ToLower(s), "only") {
		return nil
	}
	var out map[string]bool
	for _, m := range onlyChanged.FindAllStringSubmatchIndex(s, -1) {
		if notBefore.MatchString(s[:m[0]]) {
			continue // "not only the catalog moved, the parquet files did too"
		}
		for k := range TopicKeys(s[m[2]:m[3]]) {
			if out == nil {
				out = make(map[string]bool)
			}
			out[k] = true
		}
	}
	return out
}

// notBefore is a "not" right before what it ends.
var notBefore = lazyre.New(`(?i)\bnot\s*$`)

// onlyChanged is a change said of one thing alone: "only the catalog
// moved", "only its port changed", "just the schedule was changed".
var onlyChanged = lazyre.New(`(?i)\b(?:only|just)\s+(?:the\s+|its\s+|their\s+|our\s+)?((?:` + "`[^`]+`" + `|[\w./:-]+)(?:\s+[\w./:-]+)?)\s+(?:has\s+|have\s+|was\s+|were\s+|is\s+|are\s+)?(?:moved|changed|switched|migrated|renamed|went)\b`)
