package when

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

var (
	isoDate   = lazyre.New(`(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?`)
	monthDay  = lazyre.New(`(?i)\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	dayMonth  = lazyre.New(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?\s+(\d{4})\b`)
	clockTime = lazyre.New(`(?i)\b(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([ap])?\.?m?\.?\b`)
)

// Parse reads the time of a session or a turn as chat exports write it:
// RFC 3339, "2025-03-09 14:10", "March 9, 2025", "9 March 2025", "1:56 pm
// on 8 May, 2023". Times without a zone are taken as UTC. It returns the
// zero time when s holds no date.
func Parse(s string) time.Time {
	t, _ := Find(s)
	return t
}

// Find finds the first date in s, with the time of day next to it, and
// returns s without them.
func Find(s string) (time.Time, string) {
	if loc := isoDate.FindStringSubmatchIndex(s); loc != nil {
		m := isoDate.FindStringSubmatch(s)
		rest := s[:loc[0]] + " " + s[loc[1]:]
		if m[4] != "" {
			if t := Stamp(m[0]); !t.IsZero() {
				return t.UTC(), rest
			}
		}
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		t := date(y, mo, d)
		if t.IsZero() {
			return t, s
		}
		return withClock(t, rest)
	}
	for _, re := range []*lazyre.Regexp{monthDay, dayMonth} {
		loc := re.FindStringSubmatchIndex(s)
		if loc == nil {
			continue
		}
		m := re.FindStringSubmatch(s)
		mon, day := m[1], m[2]
		if re == dayMonth {
			mon, day = m[2], m[1]
		}
		d, _ := strconv.Atoi(day)
		y, _ := strconv.Atoi(m[3])
		t := date(y, monthIndex(mon), d)
		if t.IsZero() {
			continue
		}
		return withClock(t, s[:loc[0]]+" "+s[loc[1]:])
	}
	return time.Time{}, s
}

// DropClock returns s without the times of day it names ("14:10", "1:56
// pm").
func DropClock(s string) string { return clockTime.ReplaceAllString(s, "") }

// Stamp parses a timestamp as a transcript writes it: RFC 3339 with or
// without seconds, zone or "T" ("2025-03-09 19:45"). The zero time when s
// is none.
func Stamp(s string) time.Time {
	s = strings.Replace(s, " ", "T", 1)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04:05", "2006-01-02T15:04Z07:00", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// withClock adds to a day the first time of day in rest ("14:10", "1:56
// pm"), and returns rest without it.
func withClock(day time.Time, rest string) (time.Time, string) {
	m := clockTime.FindStringSubmatchIndex(rest)
	if m == nil {
		return day, rest
	}
	h, _ := strconv.Atoi(rest[m[2]:m[3]])
	mi, _ := strconv.Atoi(rest[m[4]:m[5]])
	sec := 0
	if m[6] >= 0 {
		sec, _ = strconv.Atoi(rest[m[6]:m[7]])
	}
	if m[8] >= 0 {
		switch pm := unicode.ToLower(rune(rest[m[8]])) == 'p'; {
		case h == 12 && !pm:
			h = 0
		case h < 12 && pm:
			h += 12
		}
	}
	if h > 23 || mi > 59 || sec > 59 {
		return day, rest
	}
	return day.Add(time.Duration(h)*time.Hour + time.Duration(mi)*time.Minute + time.Duration(sec)*time.Second), rest[:m[0]] + rest[m[1]:]
}

// date is a day in UTC, or the zero time when the numbers make none.
func date(y, m, d int) time.Time {
	if y < 1900 || y > 9999 || m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return time.Time{} // February 30th
	}
	return t
}

func monthIndex(name string) int {
	const months = "janfebmaraprmayjunjulaugsepoctnovdec"
	return strings.Index(months, strings.ToLower(name[:3]))/3 + 1
}
