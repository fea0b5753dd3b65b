package differ

import (
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
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
// port p another port: the two name the same command in backquotes,
// and n names ports, not p. The caller has n announce a change: a
// command may serve on two ports at once.
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
	least := 2
	if now {
		least = 1
	}
	for _, x := range a {
		other, same := false, false
		for _, y := range b {
			if durationOf(x, y, least) {
				other = true
			} else if sameDuration(x, y) {
				same = true
			}
		}
		if other && !same {
			return true
		}
	}
	return false
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

// Period reports whether x and newer statement n each say how often
// one thing happens, and n says it happens at another period: "every 4
// hours" and "once an hour", "nightly" and "every 6 hours".
func Period(x, n string) bool {
	xp, np := prose.Periods(x), prose.Periods(n)
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
