package summarize

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Cue phrases, case-insensitive. A ’ counts as a '.
var (
	decisionStrong = regexp.MustCompile(`(?i)\b(decided|decision|agreed|we'll (use|go with|keep|switch|store|adopt|move|stick)|we will (use|go with|keep|switch|store|adopt|move|stick)|let's (use|go with|keep|switch|store|adopt|move|stick)|i'll (use|go with|keep|switch to|stick)|going with|go with|opted (for|to)|chose|chosen|settled on|we should use|the plan is to|stick with)\b`)
	decisionWeak   = regexp.MustCompile(`(?i)\b(instead of|rather than|switch(ed)? (it |this |that |them )?to|in favou?r of)\b`)
	planMarker     = regexp.MustCompile(`(?i)(^(use|prefer|keep|store|switch|move|replace|make)\b|\b(we|we'll|let's|i'll|i will|we should|should use|i switched|i replaced|i changed)\b)`)
	reasonCue      = regexp.MustCompile(`(?i)\b(because|since|so that|so we|to avoid|to keep|which means|due to|as it|as they|otherwise)\b`)
	contrastCue    = regexp.MustCompile(`(?i)\b(instead of|rather than|over|in favou?r of|not)\b`)

	factCue = regexp.MustCompile(`(?i)(\bon port \d+|\bport \d{2,5}\b|\blistens on\b|\bruns on\b|\brequires\b|\bdepends on\b|\b(is|are) (configured|defined|set|declared|registered|stored|kept|generated|located|pinned|built|vendored) (in|via|by|from|at|to|with)\b|\blives? in\b|\bdefaults to\b|\bthe default is\b|\bmust (be|not|run|have)\b|\bonly works\b|\bis deprecated\b|\b(does not|doesn't) support\b|\bis not supported\b|\bexpects\b|\bversion \d|\buses \S+ (for|to)\b|\benvironment variable\b|\benv var\b|\bis (the )?(entry point|source of truth)\b)`)
	hedge   = regexp.MustCompile(`(?i)\b(might|maybe|perhaps|probably|possibly|i think|i believe|seems|appears to|could be|not sure|guess|likely|unclear|if)\b`)
	narrate = regexp.MustCompile(`(?i)^(let me|now i|now let|now,|i'll|i will|i'm going to|i am going to|next,? i|first,? i|then i|okay|ok,|ok\b|great|perfect|done|sure|good|excellent|here's|here is|looking at|i see|i found|i can see|the (test|build|command|output) (now )?(passes|fails|failed|passed))\b`)

	prefStrong = regexp.MustCompile(`(?i)\b(always|never|from now on)\b`)
	prefMid    = regexp.MustCompile(`(?i)\b(i prefer|prefer|i'd rather|i would rather|please use|please don't|please do not|please avoid|avoid|i like|i don't like|i want you to|we use|we don't use|do not use|don't use|make sure to|make sure you|keep (it|them|the)|stick to)\b`)
	prefWeak   = regexp.MustCompile(`(?i)^(don't|do not|stop|no more)\b`)
	oneOff     = regexp.MustCompile(`(?i)\b(for now|this time|right now|yet|today|at the moment|in this (pr|commit|change))\b`)

	patternCue = regexp.MustCompile(`(?i)\b(in (this|the|our) (repo|repository|project|codebase),? we|by convention|the convention|conventions?|the pattern|this pattern|same pattern|consistently|as elsewhere|like the other|follows? the same|the (codebase|repo|repository|project) uses|idiomatic|we always|every \w+ (has|uses|gets))\b`)
	openCue    = regexp.MustCompile(`(?i)\b(todo|next steps?|still (need|needs|fails|failing|broken|missing|to do|to be)|remaining|not yet|left to|follow[- ]up|open question|tbd|haven't|have not|later we|we should also|needs? (more|further)|out of scope|known issue)\b`)

	inlineCode = regexp.MustCompile("`([^`\n]{1,40})`")
	tagWord    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.:/-]*$`)
	concrete   = regexp.MustCompile("[0-9`/]|\\.[a-z]{1,4}\\b")
)

// Importance of the candidates, 0..1: what each starts at, and what adds
// to it. Decisions matter most when they give a reason; preferences when
// they are stated as rules ("always", "never"); facts when they hold a
// value (a number, a path, a name in backticks); a habit when it repeats.
const (
	impDecision      = 0.6  // a decision cue
	impDecisionWhy   = 0.15 // ... with a reason (because, so that, to avoid)
	impDecisionUser  = 0.1  // ... stated by the user
	impDecisionVs    = 0.05 // ... naming what it was chosen over
	impPrefRule      = 0.85 // always, never, from now on, in this repo
	impPrefStated    = 0.7  // prefer, avoid, please use, we use
	impPrefImpera    = 0.55 // a bare "don't …"
	impPrefOneOff    = 0.2  // less for "for now", "this time", "yet"
	impFact          = 0.45 // a fact cue
	impFactConcrete  = 0.1  // ... with a concrete value
	impFactUser      = 0.1  // ... stated by the user
	impPattern       = 0.5  // a convention named in text
	impPatternUser   = 0.7  // ... by the user ("in this repo we …")
	impPatternRepeat = 0.4  // a check run 3 times, +0.05 per further run up to 0.65
	maxPerKind       = 8
)

func clamp(x, lo, hi float64) float64 { return max(lo, min(hi, x)) }

// candidates collects the items of one segment in order, deduplicated.
type candidates struct {
	list []Candidate
	seen map[string]bool
	open []string
}

func (c *candidates) add(k Kind, sentence, body string, imp float64, tags []string) {
	key := string(k) + ":" + normalize(sentence)
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	if body == "" {
		body = sentence
	}
	c.list = append(c.list, Candidate{Kind: k, Title: title(trimLead(sentence)), Body: body, Importance: round2(imp), Tags: tags})
}

// leadIn is talk before the point: "OK, ", "Decided: ".
var leadIn = regexp.MustCompile(`(?i)^((ok|okay|alright|yes|so|also|good|great|right|then|and|decided|decision|note|fact|summary)\b[,:.!]?\s+)+`)

// trimLead removes lead-in words from a title and capitalises it.
func trimLead(s string) string {
	t := leadIn.ReplaceAllString(s, "")
	if len(t) < 8 {
		return s
	}
	r, n := utf8.DecodeRuneInString(t)
	return string(unicode.ToUpper(r)) + t[n:]
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// fromText finds decisions, facts, preferences, patterns and open points
// in what the user or the assistant said.
func (c *candidates) fromText(role Role, text string) {
	ss := sentences(strings.ReplaceAll(text, "’", "'"))
	for i, s := range ss {
		if len(s) < 12 || len(s) > 600 {
			continue
		}
		question := strings.HasSuffix(s, "?")
		tags := tagsOf(s)
		switch {
		case !question && decision(role, s):
			imp := impDecision
			body := s
			next := ""
			if i+1 < len(ss) {
				next = ss[i+1]
			}
			if reasonCue.MatchString(s) {
				imp += impDecisionWhy
			} else if next != "" && reasonCue.MatchString(next) && len(next) < 300 {
				imp += impDecisionWhy
				body = s + " " + next
			}
			if role == User {
				imp += impDecisionUser
			}
			if contrastCue.MatchString(s) {
				imp += impDecisionVs
			}
			c.add(Decision, s, body, clamp(imp, 0, 0.95), tags)
		case role == User && patternCue.MatchString(s):
			c.add(Pattern, s, "", impPatternUser, tags)
		case role == User && preference(s) > 0:
			c.add(Preference, s, "", preference(s), tags)
		case !question && patternCue.MatchString(s) && !narrate.MatchString(s):
			c.add(Pattern, s, "", impPattern, tags)
		case !question && factCue.MatchString(s) && !hedge.MatchString(s) && !narrate.MatchString(s):
			imp := impFact
			if concrete.MatchString(s) {
				imp += impFactConcrete
			}
			if role == User {
				imp += impFactUser
			}
			c.add(Fact, s, "", imp, tags)
		}
		if role == Assistant && openCue.MatchString(s) && !narrate.MatchString(s) {
			c.open = appendNew(c.open, clip(s, 200))
		}
	}
}

// decision: a strong cue, or a weak one ("instead of") in a plan or in
// what the user asks for.
func decision(role Role, s string) bool {
	if decisionStrong.MatchString(s) {
		return !hedge.MatchString(s) || strings.Contains(strings.ToLower(s), "decided")
	}
	return decisionWeak.MatchString(s) && (role == User || planMarker.MatchString(s)) && !hedge.MatchString(s)
}

// preference is the importance of a user's sentence as a preference, 0
// when it is none.
func preference(s string) float64 {
	imp := 0.0
	switch {
	case prefStrong.MatchString(s):
		imp = impPrefRule
	case prefMid.MatchString(s):
		imp = impPrefStated
	case prefWeak.MatchString(s):
		imp = impPrefImpera
	default:
		return 0
	}
	if oneOff.MatchString(s) {
		imp -= impPrefOneOff
	}
	return max(imp, 0.3)
}

// tagsOf takes a sentence's short names in backticks as tags: `postgres`,
// `go test`. Paths give their file name.
func tagsOf(s string) []string {
	var tags []string
	for _, m := range inlineCode.FindAllStringSubmatch(s, -1) {
		t := strings.TrimRight(strings.ToLower(strings.TrimSpace(m[1])), "/:")
		if i := strings.LastIndexByte(t, '/'); i >= 0 && i < len(t)-1 {
			t = t[i+1:]
		}
		if !tagWord.MatchString(t) || len(t) > 30 {
			continue
		}
		tags = appendNew(tags, t)
		if len(tags) == 4 {
			break
		}
	}
	sort.Strings(tags)
	return tags
}

// capped keeps at most maxPerKind of each kind, the most important (the
// earlier on ties), in their original order.
func capped(list []Candidate) []Candidate {
	byKind := map[Kind][]int{}
	for i, c := range list {
		byKind[c.Kind] = append(byKind[c.Kind], i)
	}
	keep := make([]bool, len(list))
	for _, idx := range byKind {
		sort.SliceStable(idx, func(a, b int) bool { return list[idx[a]].Importance > list[idx[b]].Importance })
		for i, j := range idx {
			keep[j] = i < maxPerKind
		}
	}
	var out []Candidate
	for _, k := range []Kind{Decision, Preference, Fact, Pattern} {
		for i, c := range list {
			if keep[i] && c.Kind == k {
				out = append(out, c)
			}
		}
	}
	return out
}
