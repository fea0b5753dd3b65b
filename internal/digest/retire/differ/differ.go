package differ

import (
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/digest/quantity"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// DistinctValue reports whether code value v names one thing, not one
// of many: a number of four digits or more, a version, a path or a host.
func DistinctValue(v string) bool {
	return len(v) >= 4 && change.IsNumber(v) || change.IsVersion(v) || strings.ContainsAny(v, "/:") || strings.Count(v, ".") > 0 && len(v) > 4
}

// MixedCode reports whether v is a code of letters and digits, a
// firmware or a model ("fw26", "sp19", "t46u"): the one value an edited
// line changed ("…, FW26, …" → "…, FW27, …") names one thing.
func MixedCode(v string) bool {
	return len(v) >= 3 && strings.ContainsAny(v, "0123456789") && strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyz") && strings.Trim(v, "abcdefghijklmnopqrstuvwxyz0123456789") == ""
}

// HasValue reports whether text holds code value v, lower-case, as a
// value of its own: search-dev.internal in http://search-dev.internal:9200,
// not in search-dev.internal.example.
func HasValue(text, v string) bool {
	lower := strings.ToLower(text)
	return lex.HasBounded(lower, v, func(j, end int) bool {
		return (j == 0 || !lex.IsWordByte(lower[j-1]) && lower[j-1] != '-') && (end == len(lower) || !lex.IsWordByte(lower[end]) && lower[end] != '-' && !(lower[end] == '.' && end+1 < len(lower) && lex.IsWordByte(lower[end+1])))
	})
}

// Listen reports whether newer text n says a named listener listens
// on another port than x says it does: "wg0 listens on UDP 443 now" for
// "interface wg0 on the router, 10.99.0.1/24, listening on UDP 51820". x
// names the listener before it says where it listens, with no relative
// clause between ("nginx proxies to the API, which listens on 8080" is
// the API's port), and does not name the new port. The caller has n
// announce a change.
func Listen(x, n string) bool {
	m := listener.FindStringSubmatch(n)
	if m == nil {
		return false
	}
	name := strings.ToLower(article.ReplaceAllString(m[1], ""))
	if notListener[name] {
		return false
	}
	xm := listenOn.FindStringSubmatchIndex(x)
	if xm == nil || x[xm[2]:xm[3]] == m[2] || HasValue(x, m[2]) {
		return false
	}
	before := strings.ToLower(x[:xm[0]])
	at := strings.LastIndex(before, name)
	if at < 0 || !HasValue(before, name) {
		return false
	}
	return !relative.MatchString(before[at+len(name):])
}

var (
	// listener is the name, a word or two, of what listens on a port,
	// and the port.
	listener = lazyre.New(`(?i)(?:^|[\s(])((?:[\w.-]+\s+)?[\w.-]+)\s+(?:now\s+|still\s+)?listens\s+on\s+` + portOf)
	// listenOn is a port something listens on.
	listenOn    = lazyre.New(`(?i)\blisten(?:s|ing)?\s+on\s+` + portOf)
	portOf      = `(?:(?:udp|tcp)(?:/|\s+))?(?:port\s+)?:?(\d{2,5})\b`
	article     = lazyre.New(`(?i)^(?:the|a|an|our|its|their)\s+`)
	relative    = lazyre.New(`(?i)\b(?:which|that|who|where)\b|;`)
	notListener = prose.WordSet(`it that this which what who server service daemon app one now also`)
)

// Port reports whether newer text n gives the thing x serves on
// port p another port: the two name the same command, in backquotes in
// n and in x or in x's words ("the usual npx wrangler dev on
// http://localhost:8787" once "`wrangler dev` for this worker listens on
// port 8790"), and n names ports, not p. The caller has n announce a
// change: a command may serve on two ports at once.
func Port(x, p, n string) bool {
	np := prose.Ports(n)
	if len(np) == 0 || slices.Contains(np, p) {
		return false
	}
	for _, m := range quoted.FindAllString(x, -1) {
		if len(m) > 5 && strings.Contains(n, m) {
			return true
		}
	}
	for _, m := range quoted.FindAllString(n, -1) {
		if c := strings.Trim(m, "`"); len(c) > 5 && strings.Contains(c, " ") && strings.Contains(x, c) {
			return true
		}
	}
	return false
}

// Arg reports whether newer text n quotes a command that x quotes
// with one number in it changed, and not x's own: the same command line
// run with another count, size or level now.
func Arg(x, n string) bool {
	xs, ns := quoted.FindAllString(x, -1), quoted.FindAllString(n, -1)
	for _, m := range xs {
		if slices.Contains(ns, m) {
			return false
		}
	}
	for _, m := range xs {
		a := strings.Fields(strings.Trim(m, "`"))
		if len(a) < 3 {
			continue
		}
		for _, q := range ns {
			b := strings.Fields(strings.Trim(q, "`"))
			if differ := prose.OneDiffers(a, b); differ > 0 && argNumber.MatchString(a[differ]) && argNumber.MatchString(b[differ]) {
				return true
			}
		}
	}
	return false
}

// Place reports whether newer text n says where it runs, in words
// outside its code, and x does not say the same: "To reproduce locally,
// run `gunicorn … -w 2`" is no change of production's `-w 8`.
func Place(x, n string) bool {
	xw := lex.ContentWords(quoted.ReplaceAllString(x, " "))
	for w := range lex.ContentWords(quoted.ReplaceAllString(n, " ")) {
		if placeWords[w] && !xw[w] {
			return true
		}
	}
	return false
}

// Schedule reports whether newer text n quotes a cron schedule and
// x quotes another one, none of n's: "a Cloud Scheduler trigger at
// `0 2 * * *` UTC" once "the trigger is `30 4 * * *` UTC now". The
// caller has the two share the topic and n announce the change: two
// jobs have two schedules.
func Schedule(x, n string) bool {
	var xs []string
	for _, m := range quoted.FindAllString(x, -1) {
		if cron.MatchString(m) {
			xs = append(xs, m)
		}
	}
	if xs == nil {
		return false
	}
	other := false
	for _, m := range quoted.FindAllString(n, -1) {
		if !cron.MatchString(m) {
			continue
		}
		if slices.Contains(xs, m) {
			return false
		}
		other = true
	}
	return other
}

// cron is a cron schedule in backquotes: five fields (six with seconds)
// of digits, stars, ranges, lists and steps.
var cron = lazyre.New("^`(?:[0-9*/,-]+ ){4,5}[0-9*/,-]+`$")

var placeWords = prose.WordSet(`locally local ci production prod staging dev debug debugging reproduce laptop test tests`)

// argNumber is a command's numeric argument, alone or in its flag:
// 4, -j4, --workers=4.
var argNumber = lazyre.New(`^(?:-{1,2}[\w-]*=?)?\d+(?:\.\d+)?$`)

// quoted is a span in backquotes.
var quoted = lazyre.New("`[^`]+`")

// Value reports whether two claims give the same setting (a port,
// version, URL, path, host or command of the same thing) different
// values.
func Value(a, b prose.Claim) bool {
	if a.Subject == "" || a.Subject != b.Subject || len(a.Values) == 0 || len(b.Values) == 0 {
		return false
	}
	if !strings.ContainsAny(a.Subject, " ") {
		return false // an attribute of nothing named
	}
	for _, v := range a.Values {
		if slices.Contains(b.Values, v) {
			return false
		}
	}
	return true
}

// Duration reports whether two durations are of one thing named
// with more words in one of them ("the default rest" and "the rest too
// short, make the default") and differ: every word of the shorter
// name, at least two, is in the longer.
func Duration(a, b prose.Claim) bool { return durationOf(a, b, 2) }

// durationOf is Duration for subjects of at least least words.
func durationOf(a, b prose.Claim, least int) bool {
	an, ok1 := strings.CutSuffix(a.Subject, " duration")
	bn, ok2 := strings.CutSuffix(b.Subject, " duration")
	if !ok1 || !ok2 || len(a.Values) == 0 || len(b.Values) == 0 {
		return false
	}
	aw, bw := strings.Fields(an), strings.Fields(bn)
	if len(aw) > len(bw) {
		aw, bw = bw, aw
	}
	if len(aw) < least {
		return false
	}
	for _, w := range aw {
		if !slices.Contains(bw, w) {
			return false
		}
	}
	for _, v := range a.Values {
		if slices.Contains(b.Values, v) {
			return false
		}
	}
	return true
}

// Times reports whether a clause of x and a clause of n give one thing
// another time of day, and no clause of n gives it x's: "it should print
// by itself at 21:00" once "the cron job prints it at 19:00 now". What
// happens then is the words before the time (clock.Times); they share
// one that is not only that something runs or starts, two when n does
// not announce a change.
func Times(x, n []prose.Claim, now bool) bool {
	return anotherValue(x, n, now,
		func(a, b prose.Claim, least int) bool {
			return sameEvent(a, b, least) && !slices.Equal(a.Values, b.Values)
		},
		func(a, b prose.Claim, least int) bool { return sameEvent(a, b, least) })
}

// anotherValue reports whether a claim of x meets, among n's, one that
// differs (another value of the same thing) and none that agrees: the
// shape of Times and Durations. A thing named in one word is the same
// thing when n announces a change (now), two words otherwise.
func anotherValue(x, n []prose.Claim, now bool, differs, agrees func(a, b prose.Claim, least int) bool) bool {
	least := 2
	if now {
		least = 1
	}
	for _, a := range x {
		other, same := false, false
		for _, b := range n {
			if differs(a, b, least) {
				other = true
			} else if agrees(a, b, least) {
				same = true
			}
		}
		if other && !same {
			return true
		}
	}
	return false
}

// sameEvent reports whether time claims a and b say when one thing
// happens: every word of the shorter subject, at least least, is in the
// longer, and one of them says more than that something runs or starts.
func sameEvent(a, b prose.Claim, least int) bool {
	aw := strings.Fields(strings.TrimSuffix(a.Subject, " time"))
	bw := strings.Fields(strings.TrimSuffix(b.Subject, " time"))
	if len(aw) > len(bw) {
		aw, bw = bw, aw
	}
	if len(aw) < least {
		return false
	}
	telling := false
	for _, w := range aw {
		if !slices.Contains(bw, w) {
			return false
		}
		telling = telling || !genericEvent[w]
	}
	return telling
}

// genericEvent are the words of what happens at a time that say only
// that something does: "the backup runs at 02:00" and "the report runs
// at 06:00" are two things.
var genericEvent = map[string]bool{"run": true, "start": true, "happen": true, "go": true, "fire": true, "trigger": true, "execut": true, "begin": true, "end": true, "finish": true, "kick": true}

// Durations reports whether a clause of one statement and a clause
// of another give one thing different durations (Duration), and no
// clause of the other gives it the same: "live 15 minutes, 30 days with
// remember-me" says 15 minutes still.
//
// now says the newer one announces a change: it gives its duration as
// what holds now ("reservations now expire after 7 days") or says what
// it replaced ("the lookback default is 5 days … five daily partitions
// instead of three"): then a thing named in one word ("Reservations
// should expire after 5 days", "our lookback is only 3 days") is the
// same thing.
func Durations(a, b []prose.Claim, now bool) bool {
	return anotherValue(a, b, now, durationOf, func(x, y prose.Claim, _ int) bool { return sameDuration(x, y) })
}

// sameDuration reports whether claim b gives the duration of claim a's
// thing one of a's values.
func sameDuration(a, b prose.Claim) bool {
	for _, v := range b.Values {
		if slices.Contains(a.Values, v) {
			return true
		}
	}
	return false
}

// A Fraction is a count said out of a total: "412 of the 430 local
// codes", "3 out of 5 workers".
type Fraction struct {
	N, Total, Noun string // Noun: the counted thing's stem
}

var fractionExpr = lazyre.New(`(?i)\b(\d[\d,]*) (?:of|out of) (?:the |all |our )?(\d[\d,]*) (?:[a-z][\w-]* ){0,2}?([a-z][\w-]*s)\b`)

// FractionsOf reads the fractions s states.
func FractionsOf(s string) []Fraction {
	var out []Fraction
	for _, m := range fractionExpr.FindAllStringSubmatch(s, -1) {
		out = append(out, Fraction{m[1], m[2], prose.Stem(strings.ToLower(m[3]))})
	}
	return out
}

// Fractions reports whether newer fractions nf count one of xf's
// things out of the same total otherwise: "412 of the 430 local codes
// have a LOINC code" once "424 of the 430 codes translate".
func Fractions(xf, nf []Fraction) bool {
	for _, a := range xf {
		for _, b := range nf {
			if a.Total == b.Total && a.Noun == b.Noun && a.N != b.N && a.N != a.Total {
				return true
			}
		}
	}
	return false
}

// OtherPeriod reports whether a statement and a newer one, of periods
// xp and np (prose.Periods, read once each), each say how often one
// thing happens, and the newer one says it happens at another period:
// "every 4 hours" and "once an hour", "nightly" and "every 6 hours".
func OtherPeriod(xp, np []float64) bool {
	return len(xp) == 1 && len(np) == 1 && xp[0] != np[0]
}

// A Rejected value is a number a statement says will not do, with what
// it counts: "kept 90 days …, 14 isn't enough" rejects 14 days.
type Rejected struct{ N, Unit string }

// RejectedOf reads the values s says will not do ("14 isn't enough", "2
// GB is too small"), each with its own unit or, said bare, with the
// unit of the value s gives instead.
func RejectedOf(s string) []Rejected {
	if !strings.Contains(s, "enough") && !strings.Contains(s, "too ") {
		return nil
	}
	var out []Rejected
	for _, m := range rejectedExpr.FindAllStringSubmatchIndex(s, -1) {
		n, unit := s[m[2]:m[3]], ""
		if m[4] >= 0 {
			unit = s[m[4]:m[5]]
		} else {
			// A bare number takes the unit of another number the
			// sentence gives: "kept 90 days for investigations, 14
			// isn't enough".
			for _, v := range numberUnit.FindAllStringSubmatch(s, -1) {
				if v[1] != n && !rejectedWord[strings.ToLower(v[2])] {
					unit = v[2]
					break
				}
			}
		}
		if unit != "" {
			out = append(out, Rejected{n, prose.Stem(strings.ToLower(unit))})
		}
	}
	return out
}

// NamesRejected reports whether x gives one of the values rj rejects,
// as that many of its unit ("keeps 14 days"), and is no rejection
// itself.
func NamesRejected(x string, rj []Rejected) bool {
	if len(RejectedOf(x)) > 0 {
		return false
	}
	for _, v := range numberUnit.FindAllStringSubmatch(x, -1) {
		for _, r := range rj {
			if v[1] == r.N && prose.Stem(strings.ToLower(v[2])) == r.Unit {
				return true
			}
		}
	}
	return false
}

var (
	// rejectedExpr is a number said not to do: "14 isn't enough", "512
	// is too big", "2 GB is way too small".
	rejectedExpr = lazyre.New(`(?i)\b(\d+(?:\.\d+)?)(?:\s+([a-z]+))?\s+(?:(?:is|are|was|were)(?:n't| not)\s+enough|(?:is|are|was|were)\s+(?:way\s+|much\s+|far\s+)?too\s+(?:short|long|low|high|small|big|large|few|many|much|little|early|late|slow|fast|tight|loose))\b`)
	// numberUnit is a number and the word after it.
	numberUnit = lazyre.New(`\b(\d+(?:\.\d+)?)\s+([A-Za-z]+)\b`)
)

// rejectedWord is a word after a number that is no unit: "14 isn't".
var rejectedWord = map[string]bool{"is": true, "are": true, "was": true, "were": true, "isn": true, "aren": true, "to": true, "and": true, "or": true, "of": true, "for": true, "in": true, "at": true}

// SameLead reports whether what n opens on (its first two content words
// but for a verb of change) is among the first three of x: a temperature
// belongs to the thing a statement is about first ("the cabinet heater
// runs on below 8 °C" and "heater band lowered to on below 6 °C"), not to
// a thing x names later ("smartd warns when a disk in the NAS passes
// 45 °C" and "the NAS fan curve ramps up at 40 °C"). Two things in one
// place ("the greenhouse heater", "the greenhouse vent") it cannot tell.
func SameLead(x, n string) bool {
	xw := prose.ContentWords(x)
	lead := map[string]bool{}
	for _, w := range prose.ContentWords(n) {
		if len(lead) == 2 {
			break
		}
		if !changeVerb[w] {
			lead[lex.Key(w)] = true
		}
	}
	for _, w := range xw[:min(3, len(xw))] {
		if lead[lex.Key(w)] {
			return true
		}
	}
	return false
}

var changeVerb = prose.WordSet(`changed moved set raised lowered bumped dropped cut made switched put turned`)

// AcquiredSize reports whether s says a thing of the given size unit
// and noun (quantity.Quantity's "gb/disk") was got or put in: "IT gave us
// a 500 GB disk", "we bought a new 2 TB disk". What was upgraded to a
// size ("the designer's laptop to 32 GB RAM") is another thing's.
func AcquiredSize(s, size, noun string) bool {
	for _, m := range acquired.FindAllStringSubmatch(s, -1) {
		if quantity.UnitOf(m[1]) == size && quantity.UnitOf(m[2]) == noun {
			return true
		}
	}
	return false
}

// acquired is a thing of a size got or put in, its unit and noun.
var acquired = lazyre.New(`(?i)\b(?:gave us|got us|got|bought|ordered|installed|swapped in|put in|added)\s+(?:us\s+)?(?:a |an |the |another )?(?:new |bigger |larger |second |extra )?\d[\d.,]*\s*([kmgtp]i?b)\s+([a-z][\w-]*)`)

// OtherPaths reports whether x and newer each give a number to a path
// ("mount /live.mp3 at 128 kbps", "`/live.opus` at 96 kbps") and to
// none the other gives one: what they count are of two things.
func OtherPaths(x, newer string) bool {
	if !strings.ContainsAny(x, "/~") || !strings.ContainsAny(newer, "/~") {
		return false
	}
	xp := pathNumber.FindAllStringSubmatch(x, -1)
	if len(xp) == 0 {
		return false
	}
	np := pathNumber.FindAllStringSubmatch(newer, -1)
	if len(np) == 0 {
		return false
	}
	for _, a := range xp {
		for _, b := range np {
			if a[1] == b[1] {
				return false
			}
		}
	}
	return true
}

// OtherCompounds reports whether x and newer each count unit u in a
// compound that describes a noun ("the 400-symbol universe", "a
// 20-symbol sample of Q1 2023") and no noun of one is the other's: the
// counts are of two things, whatever identifier both sentences name
// (meanrev_hourly, run over both).
func OtherCompounds(x, newer, u string) bool {
	a, b := compoundNouns(x, u), compoundNouns(newer, u)
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	for _, w := range a {
		if slices.Contains(b, w) {
			return false
		}
	}
	return true
}

// compoundNouns returns the keys of the nouns that a count of unit u,
// said as a compound, describes: "universe" of "the 400-symbol
// universe".
func compoundNouns(s, u string) []string {
	if !strings.Contains(s, "-") {
		return nil
	}
	var out []string
	for _, m := range compoundCount.FindAllStringSubmatch(s, -1) {
		if quantity.UnitOf(m[1]) == u && !quantity.Counter(quantity.UnitOf(m[2])) {
			out = append(out, lex.Key(m[2]))
			if m[3] != "" && !linkWord[strings.ToLower(m[3])] {
				// "the 400-symbol liquid universe": the noun may come
				// after a word that describes it.
				out = append(out, lex.Key(m[3]))
			}
		}
	}
	return out
}

// compoundCount is a count said as a compound before its noun: "a
// 400-symbol universe", "the 20-symbol sample".
var compoundCount = lazyre.New(`\b\d[\d.,]*-([a-zA-Z]+)\s+([a-z][a-z]+)\b(?:\s+([a-z][a-z]+)\b)?`)

// linkWord is a word after a compound's noun that begins what follows it.
var linkWord = map[string]bool{"of": true, "on": true, "in": true, "at": true, "for": true, "from": true, "with": true, "to": true,
	"by": true, "into": true, "and": true, "or": true, "the": true, "is": true, "are": true, "was": true, "now": true}

// pathNumber is a path a number follows, said of it: "/live.mp3 at 128
// kbps", "`/srv/music` is 2.1 TB".
var pathNumber = lazyre.New("(?:^|[\\s`(])([/~][\\w.~/-]*\\w)`?\\s+(?:at|is|of|=|:|with)?\\s*~?\\d")

// HoldsBack reports whether x is a rule that holds a thing back until
// someone has looked at it (holdBack).
func HoldsBack(x string) bool { return holdBack.MatchString(x) }

// Lifts reports whether n says such a hold is over (lifted).
func Lifts(n string) bool { return lifted.MatchString(n) }

// holdBack is a rule that holds a thing back until someone has looked at it:
// "nothing goes out to members unless Ute and I have seen the dry-run
// list first", "deploys only after Sam has approved the plan".
var holdBack = lazyre.New(`(?i)\b(?:unless|until|only (?:for )?(?:after|once|when)|not before)\b[^.;]{0,80}?\b(?:seen|approved|reviewed|checked|signed off|gone through|looked at|okayed|ok'd)\b`)

// lifted says such a hold is over: "you can send them automatically
// from now on, no need to wait for us", "they go out on a timer, no
// review step". Not "without asking me": that is how a rule is said.
var lifted = lazyre.New(`(?i)\bno need to (?:wait|ask|check with|run (?:it|them) by|get (?:it|them) approved)\b|\bno (?:more |longer a )?(?:review|approval|sign-off) step\b`)
