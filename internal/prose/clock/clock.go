package clock

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// Times are the times of day s gives, a claim per clause that gives
// one, each with the words before it that say what happens then: "the
// cron job prints it at 19:00 now" gives "cron job print time" 19:00,
// "the restart lock runs 19:00 to 22:30" gives "restart lock time"
// 19:00-22:30. A time said to be past ("can't wait for 9pm any more",
// "from 02:15 to 03:30") is none of what holds.
func Times(s string) []prose.Claim {
	if !timeHint.MatchString(s) {
		return nil // most statements with a number give no time: the pack asks this of every newer one
	}
	var out []prose.Claim
	for _, c := range timeClause.Split(s, -1) {
		if pastTime.MatchString(c) {
			continue
		}
		c = fromTime.ReplaceAllString(c, "$1")
		last := 0
		for _, m := range clockRE.FindAllStringSubmatchIndex(c, -1) {
			v := clockOf(c, m[2], m[3], m[4], m[5], m[6], m[7])
			if v == "" {
				continue
			}
			if m[8] >= 0 { // a range: "19:00 to 22:30"
				if w := clockOf(c, m[8], m[9], m[10], m[11], m[12], m[13]); w != "" {
					v += "-" + w
				}
			}
			var ws []string
			for _, w := range prose.ContentWords(c[last:m[0]]) {
				if !clockWords()[w] {
					ws = append(ws, prose.Stem(w))
				}
			}
			last = m[1]
			if len(ws) == 0 {
				continue
			}
			out = append(out, prose.Claim{Subject: strings.Join(ws[max(0, len(ws)-3):], " ") + " time", Values: []string{v}})
		}
	}
	return out
}

// clockOf reads the time of day of a match's groups (hour, minutes,
// am/pm) as "HH:MM", "" when it is none: "21:00", "9pm", "7.30 pm".
func clockOf(s string, hs, he, ms, me, ps, pe int) string {
	h, err := strconv.Atoi(s[hs:he])
	if err != nil {
		return ""
	}
	m := 0
	if ms >= 0 {
		if s[he] == '.' && ps < 0 {
			return "" // "Python 3.11", "10.20.0.50": a version or an address
		}
		m, _ = strconv.Atoi(s[ms:me])
	}
	switch {
	case ps >= 0:
		if h < 1 || h > 12 {
			return ""
		}
		if p := strings.ToLower(s[ps:pe]); strings.HasPrefix(p, "p") && h != 12 {
			h += 12
		} else if strings.HasPrefix(p, "a") && h == 12 {
			h = 0
		}
	case ms < 0:
		return "" // a bare number is no time
	}
	if h > 23 || m > 59 {
		return ""
	}
	return fmt.Sprintf("%02d:%02d", h, m)
}

var (
	// clockRE is a time of day, 24-hour ("21:00", "03:30") or with am
	// or pm ("9pm", "7.30 pm"), and the end of a range after it ("19:00
	// to 22:30", "19:00–22:30").
	clockRE = lazyre.New(`(?i)\b([01]?\d|2[0-3])(?:[:.]([0-5]\d))?(?:\s?([ap])\.?m\.?)?\b` +
		`(?:\s*(?:to|until|till|–|-)\s*([01]?\d|2[0-3])(?:[:.]([0-5]\d))?(?:\s?([ap])\.?m\.?)?\b)?`)
	// timeHint is what every time clockRE reads holds: minutes after a
	// colon, or am or pm.
	timeHint = lazyre.New(`(?i)\d:[0-5]\d|\d\s?[ap]\.?m\b`)
	// timeClause splits a sentence where a clause ends.
	timeClause = lazyre.New(`[;(]\s*|:\s+|,\s+|\s+—\s+|\s+and\s+(?:the|a|an|our|its)\s`)
	// pastTime is a clause that gives a time as what no longer holds.
	pastTime = lazyre.New(`(?i)\b(?:any ?more|no longer|instead of|rather than|used to|was|were|previously|formerly|before)\b`)
	// fromTime is the time a change moved a thing away from: "from 02:15
	// to 03:30".
	fromTime = lazyre.New(`(?i)\bfrom\s+(?:[01]?\d|2[0-3])(?:[:.][0-5]\d)?(?:\s?[ap]\.?m\.?)?\s+(to)\b`)
	// clockWords say when, not what happens then; made at first use, as
	// prose's word sets are.
	clockWords = sync.OnceValue(func() map[string]bool {
		return prose.WordSet(`at by from until till to around about every each daily nightly night day morning evening time now today tonight o'clock past quarter itself themselves automatically`)
	})
)
