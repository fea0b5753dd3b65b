package pick

import (
	"maps"
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// A user often decides by pointing at what the agent offered: "go with
// the table", "do the 2 minutes", "go with the second", "do both". Read
// alone, in core memory or a later session's pack, such a decision says
// nothing; the offer it answers says what was chosen.

// pickRE is a decision that picks: the verb, then what it picks, which
// points back when it has an article ("the table") or a place ("the
// second", "both").
var pickRE = lazyre.New(`(?i)(?:^|\b(?:ok|okay|yes|yeah|sure|fine|then|so|and|makes sense|sounds good)[,.!]?\s+)(?:let'?s\s+)?(?:go(?:ing)? with|do|use|take|pick|try)\s+(the\s+|your\s+|option\s+)?([^,.;:!?()]{2,60})`)

// pickEnd cuts what follows the pick: "the table though", "both, then".
var pickEnd = lazyre.New(`(?i)\s+(?:though|then|please|but|instead|for now|first|too|anyway|as well)\b.*$`)

// pickAnd joins two picks: "flip-link and the in-place sort".
var pickAnd = lazyre.New(`\s+(?:and|&|plus)\s+(?:the\s+)?`)

// listItem is a line that starts an item of a numbered or bulleted list.
var listItem = lazyre.New(`^\s*(?:\d+[.)]|[-*•])\s+(\S.*)$`)

// ListItem returns the text of a line that starts an item of a numbered
// or bulleted list ("2. A job on the critical queue"), without its mark.
func ListItem(line string) (string, bool) {
	if m := listItem.FindStringSubmatch(line); m != nil {
		return m[1], true
	}
	return "", false
}

// vague are words of a pick that do not say which option: "the idea",
// "that approach".
var vague = prose.WordSet(`one ones thing things idea ideas option options approach approaches way ways fix fixes version
	change changes plan suggestion suggestions proposal route variant solution it that this`)

// ordinals are picks by position among the listed options.
var ordinals = map[string]int{"first": 0, "1st": 0, "1": 0, "one": 0, "former": 0,
	"second": 1, "2nd": 1, "2": 1, "two": 1, "third": 2, "3rd": 2, "3": 2, "three": 2}

// Of is what decision s picks from offer, the agent's message it
// answers: the option it points at, by its words or its place in a list,
// as the option's first sentence; "" when s picks nothing or the offer
// holds no such option.
func Of(s, offer string) string {
	m := pickRE.FindStringSubmatch(s)
	if m == nil || offer == "" {
		return ""
	}
	obj := strings.TrimSpace(pickEnd.ReplaceAllString(m[2], ""))
	w := strings.ToLower(obj)
	_, ordinal := ordinals[strings.Fields(w + " x")[0]]
	if m[1] == "" && !ordinal && !strings.HasPrefix(w, "both") {
		return "" // "go with go-git plus our own merge" names its choice
	}
	items := offerItems(offer)
	var out []string
	if w == "both" || w == "both of them" {
		if len(items) != 2 {
			return ""
		}
		out = items
	} else {
		for _, part := range pickAnd.Split(obj, -1) {
			if o := pickOne(part, items, offer); o != "" {
				out = prose.AppendNew(out, o)
			}
		}
	}
	for i, o := range out {
		if ss := prose.Sentences(o); len(ss) > 0 {
			o = ss[0]
		}
		out[i] = prose.UpTo(strings.TrimRight(o, ".:"), 200)
	}
	return strings.Join(out, "; ")
}

// pickOne is the option part points at: a listed one by its place, or
// the first list item (else sentence) of offer holding all of part's
// telling words.
func pickOne(part string, items []string, offer string) string {
	words := strings.Fields(strings.ToLower(part))
	if len(words) == 1 || len(words) == 2 && (words[1] == "one" || words[1] == "option") {
		if i, ok := ordinals[words[0]]; ok && len(items) > i {
			return items[i]
		}
		if (words[0] == "latter" || words[0] == "last") && len(items) > 1 {
			return items[len(items)-1]
		}
	}
	want := map[string]bool{}
	for _, w := range prose.ContentWords(part) {
		if !vague[w] {
			want[pickKey(w)] = true
		}
	}
	if len(want) == 0 {
		return ""
	}
	var advised []string
	for _, c := range prose.Sentences(offer) {
		if advice.MatchString(c) {
			advised = append(advised, c)
		}
	}
	// A list item says the option itself; the agent's advice names it
	// with its reason; any sentence holding the words will do after.
	for _, cands := range [][]string{items, advised, prose.Sentences(offer)} {
		for _, c := range cands {
			have := map[string]bool{}
			for _, w := range prose.ContentWords(c) {
				have[pickKey(w)] = true
			}
			all := true
			for w := range want {
				all = all && have[w]
			}
			if all {
				return c
			}
		}
	}
	return ""
}

// pickKey is a word as picks and offers are compared: stemmed, a number
// as digits.
func pickKey(w string) string {
	if d, ok := prose.Digits(w); ok {
		return d
	}
	return prose.Stem(w)
}

// advice is the agent recommending an option.
var advice = lazyre.New(`(?i)\b(?:i'd|i would|i recommend|i suggest|my pick|go with)\b`)

// offerItems are the items of the lists in an offer, each with the lines
// that continue it.
func offerItems(offer string) []string {
	var items []string
	in := false
	for _, l := range strings.Split(offer, "\n") {
		switch m := listItem.FindStringSubmatch(l); {
		case m != nil:
			items, in = append(items, m[1]), true
		case in && strings.TrimSpace(l) != "" && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")):
			items[len(items)-1] += " " + strings.TrimSpace(l)
		default:
			in = false
		}
	}
	return items
}

// ListedUnder returns the sentences of the list items that follow a line
// label accepts in text ("Remaining, in the order I'd do them:" then
// "1. …", "2. …"); nil when there are none.
func ListedUnder(text string, label func(line string) bool) map[string]bool {
	if !strings.Contains(text, ":\n") {
		return nil
	}
	var out map[string]bool
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if !label(strings.TrimSpace(lines[i])) {
			continue
		}
		for j := i + 1; j < len(lines); j++ {
			l := strings.TrimSpace(lines[j])
			if l == "" {
				continue
			}
			item, ok := ListItem(l)
			if !ok {
				break
			}
			if out == nil {
				out = map[string]bool{}
			}
			for _, x := range prose.Sentences(item) {
				out[strings.TrimSpace(x)] = true
			}
			i = j
		}
	}
	return out
}

// NamedVersion is what with a bare version it takes from offer named as
// offer names it: "Sounds right, go with 23.11.4" after "My suggestion:
// Slurm 23.11.4, built by us" is "go with Slurm 23.11.4", which a later
// "we're on Slurm 24.05.5 now" retires.
func NamedVersion(what, offer string) string {
	if offer == "" {
		return what
	}
	named := slices.Collect(maps.Values(prose.Versions(what)))
	for _, v := range bareVersion.FindAllString(what, -1) {
		if slices.Contains(named, strings.ToLower(v)) {
			continue
		}
		var name string
		for n, ov := range prose.Versions(offer) {
			if ov == strings.ToLower(v) {
				if name != "" {
					name = "" // two things of that version: which one is not known
					break
				}
				name = n
			}
		}
		if name == "" {
			continue
		}
		if i := strings.Index(strings.ToLower(offer), name+" "+strings.ToLower(v)); i >= 0 {
			what = strings.Replace(what, v, offer[i:i+len(name)]+" "+v, 1)
		}
	}
	return what
}

// bareVersion is a version number: 23.11.4.
var bareVersion = lazyre.New(`\b\d+\.\d+(?:\.\d+)+\b`)
