package quantity

import (
	"strings"
	"unicode"

	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// A quantity is a number and what it counts, the word after it: "keeps
// 7 daily", "500-bundle pages", "30 fps". Two statements on one topic
// that give what they count different numbers give one of them another
// value, however each is worded: "keeps 14 dailies now" retires "keeps 7
// daily snapshots" without a word about the change. The word before a
// number is not taken: it names the number ("level 1", "port 7070") as
// often as it counts it; a command's long option is (--keep-daily 7).

// A Quantity is weak when what it counts is a unit of measure: many
// things last minutes or take megabytes, so a measure counts only with
// what it measures ("25 minutes of warehouse time"), and then, like a
// share, only between statements on the same topic.
type Quantity struct {
	Unit, Value string
	Weak        bool
}

// Of returns the quantities s gives. Numbers inside versions,
// addresses, times and code are none.
func Of(s string) []Quantity {
	if !strings.ContainsAny(s, "0123456789") && !numberWord.MatchString(s) {
		return nil
	}
	s = thousands.ReplaceAllStringFunc(s, func(n string) string { return strings.ReplaceAll(n, ",", "") })
	if strings.ContainsAny(s, "°℃℉") {
		s = gluedDegrees.ReplaceAllString(s, "$1 $2") // "8°C" is "8 °C"
	}
	toks := strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;()[]{}\"!?—–", r)
	})
	var out []Quantity
	seen := map[Quantity]bool{}
	// "maxRetries = 3" counts retries as "up to 5 retries" does.
	for _, m := range maxSetting.FindAllStringSubmatch(s, -1) {
		if u := unitKey(m[1] + m[2]); u != "" && !measures[u] {
			out = appendNew(out, seen, Quantity{Unit: u, Value: m[3]})
		}
	}
	for i, t := range toks {
		t = strings.TrimRight(t, ".:")
		unit, next := "", i+1 // next: the word after the unit
		if n, ok := timesWord[strings.ToLower(t)]; ok {
			// "once a day" against "once a week": how often, like a
			// measure only with its topic.
			if per := period(toks, i+1); per != "" {
				out = appendNew(out, seen, Quantity{Unit: Times, Value: n + "/" + per, Weak: true})
			}
			continue
		}
		if v, n, ok := money(toks, i); ok {
			// "€150 a month" and "250 EUR a month" are both what a
			// month costs, like any measure only with its topic.
			q := Quantity{Unit: "money", Value: v, Weak: true}
			if per := period(toks, n); per != "" {
				q.Unit += "/" + per
			}
			out = appendNew(out, seen, q)
			continue
		}
		if n, ok := strings.CutSuffix(t, "/s"); ok && decimal(n) {
			// "at 150/s" is a rate, as "300 checkouts per second" is.
			out = appendNew(out, seen, Quantity{Unit: "hz", Value: n})
			continue
		}
		if n, ok := strings.CutPrefix(t, "-"); ok && decimal(n) {
			// "-23 LUFS" against "-16 LUFS": a level below zero counts
			// what the word after it names; below zero, a measure ("-5 s")
			// is an offset, no quantity.
			if u := unitKey(next1(toks, i)); u != "" && !measures[u] {
				out = appendNew(out, seen, Quantity{Unit: u, Value: t})
			}
			continue
		}
		if n, u, ok := strings.Cut(t, "-"); ok && prose.IsDigits(n) {
			if unit = unitKey(u); unit == "" {
				continue // a date or a range: "2026-03-09", "5-10"
			}
			t = n // "500-bundle pages"
			if w := strings.ToLower(strings.TrimRight(next1(toks, i), ".:")); unit == "bit" && w != "" && !lex.StopWords[w] {
				// "a 2048-bit key" and "8-bit bodies" are widths of
				// two things: each counts what it names.
				out = appendNew(out, seen, Quantity{Unit: unit + "/" + w, Value: t})
				continue
			}
		}
		if d, ok := prose.Digits(strings.ToLower(t)); ok && d != "1" {
			// "four shards" against "six shards": a number in words
			// counts only what the next word names.
			if unit = unitKey(next1(toks, i)); unit == "" || measures[unit] {
				continue
			}
			out = appendNew(out, seen, Quantity{Unit: unit, Value: d})
			continue
		}
		if n, ok := strings.CutSuffix(t, "%"); ok {
			t, unit = n, "%"
		} else if i+1 < len(toks) && strings.HasPrefix(toks[i+1], "%") {
			unit = "%"
		}
		if v, ok := thousandsOf(t); ok {
			t = v // "64K entries" counts 64,000 entries as "64000 entries" does
		}
		if !decimal(t) {
			continue
		}
		if i > 0 && strings.EqualFold(toks[i-1], "by") {
			continue // "wrong by 200 bytes": a difference, not a value
		}
		if unit == "" && i+1 < len(toks) {
			unit, next = unitKey(toks[i+1]), i+2
		}
		if unit == "" && i > 0 {
			unit = optionUnit(toks[i-1]) // "--keep-daily 7" keeps 7 daily
		}
		if unit == "" && i > 0 && len(t) >= 4 && counter[strings.ToLower(toks[i-1])] {
			// "at block 19,850,000" against "block 20,100,000 now": a
			// position in a sequence, named by the word before it. Most
			// such words name one thing of many ("order 10482").
			out = appendNew(out, seen, Quantity{Unit: unitKey(toks[i-1]), Value: t})
			continue
		}
		if unit == "" && atOnce(toks, i+1) {
			// "runs 3 at a time" against "runs 15 at a time now".
			out = appendNew(out, seen, Quantity{Unit: "at once", Value: t})
			continue
		}
		if unit == "" {
			for _, u := range partOf(toks, i) {
				out = appendNew(out, seen, Quantity{Unit: u, Value: t})
			}
			continue
		}
		if period(toks, next) == "second" {
			// "30 ticks per second" is a rate, as "60 Hz" is.
			out = appendNew(out, seen, Quantity{Unit: "hz", Value: t})
		}
		q := Quantity{Unit: unit, Value: t, Weak: measures[unit]}
		if measures[unit] && unit != "%" && !Temperature(unit) {
			// One measure of many things: it counts what the words
			// after it say it measures, or nothing this can tell. A
			// share or a temperature is a setting's level on the topic
			// it shares ("on below 8 °C").
			// A size of nothing named after it, said as it is now ("all
			// three nodes have 256 GB now", "the default long edge is
			// 320 px now") is bare: it meets a size of what the other statement names
			// ("128 GB RAM each" once it names RAM, "the 256 px long
			// edge"). A time is read as a duration (prose.Durations).
			w := qualifier(toks, next)
			if w == "" && !(sizes[unit] && saidNow(toks, next) && !strings.EqualFold(strings.TrimRight(toks[next-1], ".:"), "GbE")) {
				continue
			}
			q.Unit += "/" + w
		}
		out = appendNew(out, seen, q)
	}
	return out
}

// money reads an amount at toks[i], its currency before it ("€150",
// "$2000") or after it ("250 EUR"): its number, and the index of the
// token after it.
func money(toks []string, i int) (value string, next int, ok bool) {
	t := toks[i]
	n := strings.TrimLeft(t, "€$£")
	if n != t {
		n = strings.TrimSuffix(strings.TrimRight(n, ".:"), "k")
		return n, i + 1, decimal(n)
	}
	if !prose.IsDigits(strings.Replace(strings.TrimRight(t, ".:"), ".", "", 1)) || i+1 >= len(toks) {
		return "", 0, false
	}
	switch strings.ToLower(strings.TrimRight(toks[i+1], ".:")) {
	case "eur", "euro", "euros", "usd", "dollars", "gbp", "pounds", "chf":
		return strings.TrimRight(t, ".:"), i + 2, true
	}
	return "", 0, false
}

// Times is the unit of how often a thing happens in a period: "once a
// day" is 1/day of it.
const Times = "times"

// timesWord is how many times a word says: "once", "twice".
var timesWord = map[string]string{"once": "1", "twice": "2", "thrice": "3"}

// period is the time a number is given for, said at toks[i]: "a
// month", "per year", "every second" ("second" too for "per sec", "a
// s"); "" when none.
func period(toks []string, i int) string {
	if i+1 >= len(toks) {
		return ""
	}
	switch strings.ToLower(toks[i]) {
	case "a", "an", "per", "each", "every":
		switch w := strings.ToLower(strings.TrimRight(toks[i+1], ".:")); w {
		case "second", "sec", "s":
			return "second"
		case "month", "year", "week", "day", "hour":
			return w
		}
	}
	return ""
}

// maxSetting is a setting named for the most of what it counts, set to
// a number: maxRetries = 3, max_workers: 8, MAX_CONNECTIONS=20.
var maxSetting = lazyre.New(`\b(?:max|MAX|Max)(?:([A-Z][a-z]+)|[_-]([a-zA-Z]+))\s*[:=]\s*(\d+)\b`)

// numberWord finds a number written out that Digits reads, or a count
// of times (timesWord).
var numberWord = lazyre.New(`(?i)\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|once|twice|thrice)\b`)

// next1 is the token after toks[i], "" at the end.
func next1(toks []string, i int) string {
	if i+1 < len(toks) {
		return toks[i+1]
	}
	return ""
}

// appendNew appends q to out unless seen holds it.
func appendNew(out []Quantity, seen map[Quantity]bool, q Quantity) []Quantity {
	if seen[q] {
		return out
	}
	seen[q] = true
	return append(out, q)
}

// optionUnit is what a command's long option before a number counts,
// the option's last word: --keep-daily, --max-workers. "" for anything
// else, which names the number more often than it counts it.
func optionUnit(t string) string {
	t = strings.Trim(t, "`'")
	if !strings.HasPrefix(t, "--") {
		return ""
	}
	u := unitKey(t[strings.LastIndexAny(t, "-_")+1:])
	if measures[u] {
		return ""
	}
	return u
}

// atOnce reports whether toks at i say a number is how many run
// together: "at a time", "at once", "in parallel", "concurrently".
func atOnce(toks []string, i int) bool {
	var ws []string
	for j := i; j < len(toks) && j < i+3; j++ {
		ws = append(ws, strings.ToLower(strings.TrimRight(toks[j], ".:")))
	}
	w := strings.Join(ws, " ") + " "
	return strings.HasPrefix(w, "at a time ") || strings.HasPrefix(w, "at once ") || strings.HasPrefix(w, "in parallel ") || strings.HasPrefix(w, "concurrently ")
}

// partOf is what number toks[i] counts as a part of a whole: "120 of the
// ~300 head queries" counts queries (or heads: both are given). A
// measure is none.
func partOf(toks []string, i int) []string {
	j := i + 1
	if j >= len(toks) || !strings.EqualFold(toks[j], "of") {
		return nil
	}
	if j++; j < len(toks) && strings.EqualFold(toks[j], "the") {
		j++
	}
	if j >= len(toks) || !prose.IsDigits(strings.TrimLeft(toks[j], "~≈")) {
		return nil
	}
	var out []string
	for k := j + 1; k < len(toks) && k <= j+2; k++ {
		if u := unitKey(toks[k]); u != "" && !measures[u] {
			out = append(out, u)
		} else {
			break
		}
	}
	return out
}

// qualifier is what a measure whose unit toks[i] follows measures, when
// the words there say: "25 minutes of warehouse time", "a 13 hour
// countdown"; "" when they do not.
func qualifier(toks []string, i int) string {
	if i < len(toks) && strings.EqualFold(toks[i], "of") {
		i++
	}
	if i < len(toks) {
		return unitKey(toks[i])
	}
	return ""
}

// measures are the unit keys of units of measure: time, size, share,
// frequency.
var measures = func() map[string]bool {
	m := map[string]bool{"%": true}
	for _, w := range strings.Fields(`ms millisecond milliseconds s sec secs second seconds min mins minute minutes
		h hr hrs hour hours day days night nights week weeks month months year years
		b kb mb gb tb kib mib gib tib byte bytes px pt em rem mm cm ma mv v mw w kw °c °f`) {
		if u := unitKey(w); u != "" {
			m[u] = true
		}
	}
	return m
}()

// saidNow reports whether toks from i say a value is as it is now: "now"
// or "today" next, or the text ends there (a statement is read a
// sentence at a time; a size before a full stop inside a longer text is
// not bare).
func saidNow(toks []string, i int) bool {
	if i >= len(toks) {
		return true
	}
	w := strings.ToLower(strings.TrimRight(toks[i], ".:"))
	return w == "now" || w == "today"
}

// sizes are the unit keys of sizes of memory and storage, and of images.
var sizes = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`kb mb gb tb kib mib gib tib px`) {
		m[unitKey(w)] = true
	}
	return m
}()

// NamedSize reports whether unit u is a size of something it names
// ("px/long": "the 256 px long edge"), and gives the size's own unit.
func NamedSize(u string) (size string, ok bool) {
	size, what, _ := strings.Cut(u, "/")
	return size, what != "" && sizes[size]
}

// degrees are the units of a temperature, a symbol and a letter.
var degrees = map[string]string{"°c": "degc", "℃": "degc", "ºc": "degc", "°f": "degf", "℉": "degf"}

// gluedDegrees is a temperature written without a space: "8°C".
var gluedDegrees = lazyre.New(`(\d)(°[CFcf]|℃|℉)`)

// Temperature reports whether unit is a temperature's: a threshold a
// change moves ("heater band lowered to on below 6 °C") more often
// than a reading.
func Temperature(unit string) bool { return unit == "degc" || unit == "degf" }

// thousands matches a number with its thousands separated: "200,000",
// "1,000,000".
var thousands = lazyre.New(`\d,\d{3}(?:,\d{3})*\b`)

// unitKey is the comparison key of a word that can say what a number
// counts: letters only, no stop word. "bundle" and "bundles", "daily"
// and "dailies" meet.
func unitKey(w string) string {
	w = strings.ToLower(strings.TrimRight(w, ".:"))
	if d, ok := degrees[w]; ok {
		return d // "8 °C" against "6 °C": a temperature, a measure
	}
	if len(w) < 2 || lex.StopWords[w] || quantityNoise[w] || quantityNoise[lex.Stem(w)] || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
		return ""
	}
	if m := periodCount.FindStringSubmatch(w); m != nil {
		return m[1] // "36 hourlies", "12 monthlies": snapshots kept, no time
	}
	if len(w) == 4 && w[3] == 's' && w[2] != 's' {
		w = w[:3] // "pods", "rows", "days": Stem leaves short plurals alone
	}
	return strings.TrimRight(lex.Key(lex.Stem(w)), "eiy")
}

// UnitOf is the unit key a word gives a number ("GB" → gb, "disks" →
// disk), as Of reads it; "" for a word that says no unit.
func UnitOf(w string) string { return unitKey(w) }

// periodCount is a count of things kept per period, as snapshots are:
// "hourlies", "daily", "monthlies". Its key is not the period's, which
// is a measure.
var periodCount = lazyre.New(`^(hourl|dail|weekl|monthl|yearl)(?:y|ies)$`)

// Counter reports whether unit u is a position in a sequence a long
// number gives ("block 19850000"): two such positions are of one thing
// whatever else their statements share. A count of the same word is read
// so too ("120 iterations per second" once "300 iterations per second
// now", "10 epochs"): most often one setting's number, though not always
// ("4 slots" of a CI runner and "2 slots free" on a board; a replay of
// the opened projects keeps more right than wrong this way).
func Counter(u string) bool { return counterUnits[u] }

// counterUnits are the unit keys of the counter words.
var counterUnits = func() map[string]bool {
	m := map[string]bool{}
	for w := range counter {
		m[unitKey(w)] = true
	}
	return m
}()

// counter are words before a long number that give a position in one
// sequence, which a newer statement moves: "block 20,100,000".
var counter = prose.WordSet(`block height epoch step iteration slot round generation`)

// quantityNoise are words next to a number that do not say what it
// counts.
var quantityNoise = prose.WordSet(`times time step steps line lines page version versions
	jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july august september october november december
	monday tuesday wednesday thursday friday saturday sunday am pm utc issue pr number no item items`)

// Other returns what a and b both count and give different
// numbers, neither naming the other's: "7 daily" and "14 dailies", not
// "from 7 to 14 dailies" against "7 daily"; "" if there is none. weak
// says either one's quantity is weak.
func Other(a, b []Quantity, ak, bk map[string]bool) (unit string, weak bool) {
	for _, q := range a {
		other, shared, w := false, false, q.Weak
		for _, p := range b {
			if p.Unit == q.Unit && !bare(q.Unit) || measuresNamed(q.Unit, p.Unit, bk) || measuresNamed(p.Unit, q.Unit, ak) {
				other, w = true, w || p.Weak
				shared = shared || p.Value == q.Value || ak[p.Value]
			}
		}
		for _, o := range a {
			shared = shared || o.Unit == q.Unit && bk[o.Value]
		}
		if other && !shared {
			return q.Unit, w
		}
	}
	return "", false
}

// bare reports whether measure unit u names nothing it measures: "gb/".
func bare(u string) bool { return strings.HasSuffix(u, "/") }

// measuresNamed reports whether measure unit u of one statement ("gb/ram")
// is what a bare measure of the same unit (v, "gb/") of another measures,
// since that statement's keys k name it: "the RAM upgrade came, all three
// nodes have 256 GB now".
func measuresNamed(u, v string, k map[string]bool) bool {
	unit, what, ok := strings.Cut(u, "/")
	if !ok || what == "" || v != unit+"/" {
		return false
	}
	for key := range k {
		if unitKey(key) == what {
			return true
		}
	}
	return false
}

// decimal reports whether s is a number, with at most one decimal point
// and digits before it: "150", "2.5"; not ".5" nor "1.2.3".
// thousandsOf reads a count written with a thousands or millions
// suffix, "64K", "256k", "1.5M", as its number. A lower-case "m" is a
// minute as often ("10m"); a size's K ("64 KB") is a unit.
func thousandsOf(t string) (string, bool) {
	if len(t) < 2 {
		return "", false
	}
	n, zeros := t[:len(t)-1], 0
	switch t[len(t)-1] {
	case 'k', 'K':
		zeros = 3
	case 'M':
		zeros = 6
	default:
		return "", false
	}
	if !decimal(n) {
		return "", false
	}
	whole, frac, _ := strings.Cut(n, ".")
	if len(frac) > zeros {
		return "", false
	}
	v := strings.TrimLeft(whole+frac+strings.Repeat("0", zeros-len(frac)), "0")
	if v == "" {
		v = "0"
	}
	return v, true
}

func decimal(s string) bool {
	return prose.IsDigits(strings.Replace(s, ".", "", 1)) && !strings.HasPrefix(s, ".")
}
