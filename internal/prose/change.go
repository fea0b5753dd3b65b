package prose

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
)

// A statement that announces a change says so with one of a family of
// phrasings: what it replaces ("instead of 3001", "rather than the
// store", "no longer uses X", "moved from X", "from X to Y"), or that the
// state is new ("is now", "now listens", "switched to", "reverted",
// "rolled back", "turned off", "after all", "back to").
var (
	changeRE = lazyre.New(`(?i)\b(instead of|no longer|rather than|switch(ed|ing)|mov(ed|ing)|migrat(ed|ing)|revert(ed|ing)?|rolled back|roll(ing)? back|turn(ed|ing)? ([\w-]+ ){0,3}off|dropp(ed|ing)|after all|back to|(is|are|was|'s|'re) now|now (\w+s|on|at|in|lives?|points?)|from \S+( \S+)? to)\b`)
	// oldRE captures the value a change replaces.
	oldRE = lazyre.New(`(?i)\b(?:instead of|rather than|no longer (?:uses?|using|needs?|on|in|at|with|runs?|listens? on)|(?:mov|switch|migrat|chang|bump|upgrad|downgrad|revert|port)\w* (?:[\w/-]+ ){0,3}from|(?:^|[,;:]\s*|\b(?:is|are|was|went|goes|changed|moved|bumped|raised|lowered|cut) )from|replac(?:ed|ing) |\bnow\b[^,;]{1,60}, not )\s*(?:the |a |an |our |its |their )?((?:[^,.;:()!?—\n]|[.:][^\s.])+)`)
	// oldStop ends the value a change replaces: "from 3.9 to 3.11",
	// "instead of 3 because …".
	oldStop = lazyre.New(`(?is)\s+(to|with|so|and|but|because|since|which|that|for|in|on|at|now|as|when|while|by|after|before|each|every|per)\b.*$`)
)

// Change reports whether a statement announces a change of what was so
// before, and the values it says were replaced ("3001" in "the API now
// listens on 4100 instead of 3001"; "zustand store" in "filters live in
// the URL instead of the Zustand store"), at most three words each, in
// lower case.
func Change(text string) (bool, []string) {
	s := strings.ReplaceAll(text, "’", "'")
	if !changeRE.MatchString(s) {
		return false, nil
	}
	var old []string
	for _, m := range oldRE.FindAllStringSubmatch(s, -1) {
		v := strings.TrimSpace(oldStop.ReplaceAllString(m[1], ""))
		if f := strings.Fields(v); len(f) > 3 {
			v = strings.Join(f[:3], " ")
		}
		if v = strings.ToLower(strings.Trim(v, "`'\" ")); v != "" {
			old = AppendNew(old, v)
		}
	}
	return true, old
}
