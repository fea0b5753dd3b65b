package expand

import (
	"strconv"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// A Window is a span of dates a query names: From inclusive, To
// exclusive.
type Window struct {
	From, To time.Time
}

// Contains reports whether t lies in w.
func (w Window) Contains(t time.Time) bool {
	return !t.Before(w.From) && t.Before(w.To)
}

var months = map[string]time.Month{
	"january": time.January, "february": time.February, "march": time.March, "april": time.April,
	"may": time.May, "june": time.June, "july": time.July, "august": time.August,
	"september": time.September, "october": time.October, "november": time.November, "december": time.December,
	"jan": time.January, "feb": time.February, "mar": time.March, "apr": time.April, "jun": time.June,
	"jul": time.July, "aug": time.August, "sep": time.September, "sept": time.September, "oct": time.October,
	"nov": time.November, "dec": time.December,
}

// seasons start in their first month (the northern hemisphere's) and
// last three months; holidays are windows around their day.
var seasons = map[string]time.Month{
	"spring": time.March, "summer": time.June, "autumn": time.September, "fall": time.September, "winter": time.December,
}

var (
	// A month name as a time: after a preposition ("in May", "early
	// June", "between December and February"), or with a day or year
	// ("May 2024", "12 March", "March 3rd"). Alone it may be a name
	// (June, Jun) or a verb (may).
	monthRE = lazyre.New(`(?i)\b(?:in|of|during|since|until|by|before|after|between|early|mid|late|end of|start of|beginning of)\s+(january|february|march|april|may|june|july|august|september|october|november|december)\b(?:\s+(\d{4})\b)?|\b(?:\d{1,2}(?:st|nd|rd|th)?\s+)(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\b(?:\s+(\d{4})\b)?|\b(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(\d{4})\b|\b(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\s+\d{1,2}(?:st|nd|rd|th)?\b`)
	// A season as a time: after a preposition or determiner ("in the
	// summer", "last autumn"), and not as an adjective ("the autumn
	// menu"): the next word, if any, must be one that may follow a time.
	rangeRE   = lazyre.New(`(?i)\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+(?:and|to|till|until)\s+(january|february|march|april|may|june|july|august|september|october|november|december)\b`)
	seasonRE  = lazyre.New(`(?i)\b(last|this|that|in|during|over|since|early|late|next|the)\s+(spring|summer|autumn|fall|winter)\b(?:\s+(?:of\s+)?(\d{4})\b)?(?:\s+([a-z]+))?`)
	holidayRE = lazyre.New(`(?i)\b(christmas|xmas|new year'?s?( eve| day)?|easter)\b`)
	yearRE    = lazyre.New(`\b(?:in|of|during|since)\s+(19\d\d|20\d\d)\b`)
	agoRE     = lazyre.New(`(?i)\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|several|couple of|\d+)\s+(day|week|month|year)s?\s+ago\b`)
	lastRE    = lazyre.New(`(?i)\b(last|past|previous)\s+(week|month|year)\b|\b(yesterday|recently|lately)\b`)
)

// afterTime are words that may follow a season named as a time ("in
// the summer before ...", "the spring holidays").
var afterTime = map[string]bool{
	"holiday": true, "holidays": true, "break": true, "term": true, "and": true, "or": true, "when": true,
	"while": true, "before": true, "after": true, "did": true, "was": true, "were": true, "is": true, "has": true,
	"had": true, "then": true, "to": true, "in": true, "at": true, "on": true, "for": true, "with": true,
	"of": true, "that": true, "what": true, "how": true, "who": true, "where": true, "why": true, "which": true,
	"she": true, "he": true, "they": true, "we": true, "i": true, "you": true,
}

var numbers = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "a few": 3, "several": 4, "couple of": 2,
}

// When returns the windows of dates query names, relative to ref (the
// newest date the memory talks about), and nothing when it names no
// time. A time without a year ("in May", "the summer") stands for each
// of its last occurrences that began by ref, up to two years back: a
// boost, not a filter, so the older ones do no harm. "last summer" is
// the last one over by ref.
func When(query string, ref time.Time) []Window {
	if ref.IsZero() {
		return nil
	}
	ref = ref.UTC()
	var out []Window
	// back lists a span's occurrences that began by ref, newest first:
	// start(y) is the span in year y.
	back := func(start func(y int) Window, last bool) {
		n := 0
		for y := ref.Year() + 1; y >= ref.Year()-2 && n < 2; y-- {
			w := start(y)
			if w.From.After(ref) || last && w.To.After(ref) {
				continue
			}
			out = append(out, w)
			n++
			if last {
				return
			}
		}
	}
	monthSpan := func(m time.Month, days int) func(y int) Window {
		return func(y int) Window {
			from := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
			return Window{from, from.AddDate(0, days, 0)}
		}
	}
	for _, g := range monthRE.FindAllStringSubmatch(query, -1) {
		// The month is in one of the alternatives' groups, and the
		// year, if any, in the next.
		var name, year string
		for _, p := range [][2]int{{1, 2}, {3, 4}, {5, 6}, {7, 0}} {
			if g[p[0]] != "" {
				name = strings.ToLower(g[p[0]])
				if p[1] > 0 {
					year = g[p[1]]
				}
				break
			}
		}
		m, ok := months[name]
		if !ok {
			continue
		}
		if y, err := strconv.Atoi(year); err == nil {
			out = append(out, monthSpan(m, 1)(y))
			continue
		}
		back(monthSpan(m, 1), false)
	}
	for _, g := range rangeRE.FindAllStringSubmatch(query, -1) {
		back(monthSpan(months[strings.ToLower(g[1])], 1), false)
	}
	for _, g := range seasonRE.FindAllStringSubmatch(query, -1) {
		if g[4] != "" && !afterTime[strings.ToLower(g[4])] {
			continue
		}
		m := seasons[strings.ToLower(g[2])]
		span := monthSpan(m, 3)
		if y, err := strconv.Atoi(g[3]); err == nil {
			out = append(out, span(y))
			if m == time.December { // the winter of 2025 ends or begins in it
				out = append(out, span(y-1))
			}
			continue
		}
		back(span, strings.EqualFold(g[1], "last"))
	}
	for _, g := range holidayRE.FindAllStringSubmatch(query, -1) {
		var span func(y int) Window
		switch h := strings.ToLower(g[1]); {
		case strings.HasPrefix(h, "new year"):
			span = func(y int) Window {
				d := time.Date(y, time.December, 24, 0, 0, 0, 0, time.UTC)
				return Window{d, d.AddDate(0, 0, 16)}
			}
		case h == "easter":
			span = monthSpan(time.March, 2) // late March to April
		default:
			span = func(y int) Window {
				d := time.Date(y, time.December, 10, 0, 0, 0, 0, time.UTC)
				return Window{d, d.AddDate(0, 0, 27)}
			}
		}
		back(span, false)
	}
	for _, g := range yearRE.FindAllStringSubmatch(query, -1) {
		y, _ := strconv.Atoi(g[1])
		out = append(out, Window{time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(y+1, 1, 1, 0, 0, 0, 0, time.UTC)})
	}
	for _, g := range agoRE.FindAllStringSubmatch(query, -1) {
		n, ok := numbers[strings.ToLower(g[1])]
		if !ok {
			n, _ = strconv.Atoi(g[1])
		}
		if n <= 0 || n > 100 {
			continue
		}
		var at time.Time
		var slack time.Duration
		switch strings.ToLower(g[2]) {
		case "day":
			at, slack = ref.AddDate(0, 0, -n), 2*24*time.Hour
		case "week":
			at, slack = ref.AddDate(0, 0, -7*n), 5*24*time.Hour
		case "month":
			at, slack = ref.AddDate(0, -n, 0), 16*24*time.Hour
		case "year":
			at, slack = ref.AddDate(-n, 0, 0), 183*24*time.Hour
		}
		out = append(out, Window{at.Add(-slack), at.Add(slack)})
	}
	for _, g := range lastRE.FindAllStringSubmatch(query, -1) {
		var d time.Duration
		switch strings.ToLower(g[2] + g[3]) {
		case "week":
			d = 10 * 24 * time.Hour
		case "month":
			d = 40 * 24 * time.Hour
		case "year":
			d = 400 * 24 * time.Hour
		case "yesterday":
			d = 2 * 24 * time.Hour
		default: // recently, lately
			d = 30 * 24 * time.Hour
		}
		out = append(out, Window{ref.Add(-d), ref.Add(24 * time.Hour)})
	}
	return out
}
