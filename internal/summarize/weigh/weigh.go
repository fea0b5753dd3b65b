package weigh

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize/cue"
)

// Options are the options text puts as a choice: "Fabio or Traefik?",
// "Litestream? Or just a nightly .backup with restic, which I know?", "I've
// seen both Martin and pg_tileserv mentioned. Which one?", "Options: purge
// everything after each update, or version the tile URLs." Nil when it
// puts none, or only one.
func Options(text string) []string {
	ss := prose.Sentences(text)
	asks := false
	for _, s := range ss {
		asks = asks || strings.HasSuffix(s, "?")
	}
	for i, s := range ss {
		var opts []string
		switch {
		case listed.MatchString(s):
			opts = split(listed.FindStringSubmatch(s)[1])
		case !asks:
			continue
		case strings.HasSuffix(s, "?") && orLead.MatchString(s) && i > 0 && strings.HasSuffix(ss[i-1], "?") && len(strings.Fields(ss[i-1])) <= 4:
			// "Litestream? Or just a nightly .backup with restic?"
			opts = []string{trim(ss[i-1]), trim(upTo(orLead.ReplaceAllString(s, "")))}
		case strings.HasSuffix(s, "?") && strings.Contains(strings.ToLower(s), " or "):
			opts = split(s)
		case both.MatchString(s):
			if m := both.FindStringSubmatch(s); which.MatchString(text) {
				opts = []string{trim(m[1]), trim(m[2])}
			}
		}
		opts = clean(opts)
		if len(opts) >= 2 {
			return opts
		}
	}
	return nil
}

// split cuts a question or a list into its options: "A, B or C?".
func split(s string) []string {
	s = strings.TrimRight(strings.TrimSpace(s), "?.!")
	low := strings.ToLower(s)
	i := strings.LastIndex(low, " or ")
	if i < 0 {
		return nil
	}
	if diagnosis.MatchString(s) {
		return nil // "Is it the cache or the network?" asks what is wrong
	}
	left, right := s[:i], s[i+len(" or "):]
	if j := strings.LastIndexAny(left, ":;—"); j >= 0 {
		left = left[j+1:]
	}
	if m := asked.FindAllStringIndex(left, -1); m != nil {
		left = left[m[len(m)-1][1]:] // "For sync, should we shell out to git"
	}
	left = strings.TrimRight(strings.TrimSpace(left), ",")
	var opts []string
	for _, part := range strings.Split(left, ", ") {
		opts = append(opts, trim(part))
	}
	return append(opts, trim(upTo(right)))
}

// upTo is an option named before what is said of it: "a nightly .backup
// with restic" of "a nightly .backup with restic, which I know".
func upTo(s string) string {
	if j := strings.IndexAny(s, ",;:("); j > 0 {
		return s[:j]
	}
	return s
}

// clean drops what is no option: a question's lead-in, a part too long
// to be named ("The front desk tablet and people's phones should see
// slots fill up live"), nothing at all.
func clean(opts []string) []string {
	var out []string
	for _, o := range opts {
		n := len(strings.Fields(o))
		if n == 0 || n > 10 || len(prose.ContentWords(o)) == 0 {
			return nil
		}
		out = append(out, o)
	}
	return out
}

func trim(s string) string {
	s = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), "?.!,"))
	return strings.TrimSpace(optLead.ReplaceAllString(s, ""))
}

// A Verdict is an option an answer turns down.
type Verdict struct {
	// Option is what was turned down, as the question named it.
	Option string
	// Line is the answer's sentence against it ("Fabio reads Consul tags
	// and is simple, but it has no ACME support"), "" when the answer
	// only took another.
	Line string
	// For is the option taken instead, "" when the answer says only what
	// is wrong with this one.
	For string
}

// Turned are the options of opts answer turns down. An option is turned
// down when the answer takes another ("I'd go with Traefik") or says,
// of it, that it falls short ("A nightly .backup with restic would be
// simple, but it loses everything since the last run"); what the answer
// said of it is its line.
func Turned(opts []string, answer string) []Verdict {
	if len(opts) < 2 {
		return nil
	}
	words := make([]map[string]bool, len(opts))
	for i, o := range opts {
		words[i] = set(o)
	}
	ss := prose.Sentences(answer)
	taken := -1
	for _, s := range ss {
		if takes.MatchString(s) {
			if k := names(words, s, false); k >= 0 {
				taken = k
				break
			}
		}
	}
	var out []Verdict
	for i, o := range opts {
		if i == taken {
			continue
		}
		v := Verdict{Option: o}
		if taken >= 0 {
			v.For = opts[taken]
		}
		for _, s := range ss {
			if names(words, head(s), true) != i || takes.MatchString(s) {
				continue
			}
			if m := cue.Conceded.FindStringIndex(s); m != nil && shortfall.MatchString(s[m[1]:]) || taken >= 0 && downside.MatchString(s) {
				v.Line = prose.Capitalize(headLead.ReplaceAllString(s, ""))
				break
			}
		}
		if v.Line != "" || v.For != "" {
			out = append(out, v)
		}
	}
	if len(out) == len(opts) {
		return nil // an answer that faults every option took none of them
	}
	return out
}

// Picked is which of opts a short reply takes by naming it ("Commit
// them." of "commit the generated files, or generate them in CI?"), -1
// when it names none or more than one, or says more than a pick.
func Picked(opts []string, reply string) int {
	ss := prose.Sentences(reply)
	if len(opts) < 2 || len(ss) == 0 || len(strings.Fields(ss[0])) > 6 || strings.HasSuffix(ss[0], "?") || notPick.MatchString(ss[0]) {
		return -1
	}
	// The option it shares most words with, if only one.
	have := set(ss[0])
	best, most, tie := -1, 0, false
	for i, o := range opts {
		n := 0
		for k := range set(o) {
			if have[k] {
				n++
			}
		}
		switch {
		case n > most:
			best, most, tie = i, n, false
		case n == most && n > 0:
			tie = true
		}
	}
	if tie {
		return -1
	}
	return best
}

// names is which one option of words s names (all its words, or two of
// them), -1 for none or more than one; one word is enough when first.
func names(words []map[string]bool, s string, first bool) int {
	have := set(s)
	found := -1
	for i, w := range words {
		n := 0
		for k := range w {
			if have[k] {
				n++
			}
		}
		if n > 0 && (n >= min(2, len(w)) || first) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// head is where a sentence names what it speaks of: its first words.
func head(s string) string {
	f := strings.Fields(headLead.ReplaceAllString(s, ""))
	return strings.Join(f[:min(len(f), 5)], " ")
}

func set(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range prose.ContentWords(strings.ReplaceAll(s, "`", "")) {
		if !vague[w] {
			// "Purging" names "purge": stems cut to four letters meet.
			k := []rune(prose.Stem(w))
			out[string(k[:min(len(k), 4)])] = true
		}
	}
	return out
}

var (
	// vague words name no option: "just a nightly backup".
	vague = prose.WordSet(`just simply plain only option options one way approach something else`)
	// listed is an answer putting its own options: "Options: A, or B.",
	// "Two ways: A or B."
	listed = lazyre.New(`(?i)^(?:the |two |three |a few |our |my )?(?:options|choices|alternatives|ways)(?: here| i see)?\s*(?:are\s*)?:\s*(.+\bor\b.+)$`)
	// diagnosis asks which of two things is wrong, not which to take.
	diagnosis = lazyre.New(`(?i)^(?:(?:so|and|but)\s*,?\s+)?(?:(?:is|was|are|were|could|did|does|has|have) (?:it|that|this|the|there)\b|(?:why|how|when|where)\b)`)
	// orLead opens the second half of a choice asked in two questions.
	orLead = lazyre.New(`(?i)^or\s+(?:else\s+)?`)
	// both names two options a "which" question then asks about.
	both  = lazyre.New(`(?i)\b(?:both|between) ([^,.;?]{1,40}?) and ([^,.;?]{1,40}?)(?: (?:mentioned|suggested|recommended|around|out there))?[,.?]`)
	which = lazyre.New(`(?i)\bwhich (?:one|of (?:the two|them|these|those|the))\b|\bwhich is better\b|\bwhat would you (?:pick|use|choose)\b`)
	// asked is the question a choice opens with: "Should we use sqlc".
	asked = lazyre.New(`(?i)(?:^|,\s*|\b(?:so|and|but|also|then)\s+)(?:(?:should|shall|do|would|could|can|will|is|are|does)\s+(?:we|i|you|it|this|that)\s+(?:(?:use|go with|pick|take|choose|do|run|keep|switch to|move to|add|be|want)\s+)?|(?:which|what)\b[^,]*?\b(?:use|pick|choose|take|go with|prefer)\s+)`)
	// optLead is a word that comes before an option without naming it.
	optLead = lazyre.New(`(?i)^(?:(?:just|simply|maybe|perhaps|rather|either|else)\s+)?(?:(?:use|go with|pick|take|switch to|move to)\s+)?`)
	// notPick is a reply that names an option without taking it: "No
	// commit, ever.", "Neither.", "Not the CI one."
	notPick = lazyre.New(`(?i)^\s*(?:no|not|neither|never|don't|do not|nope|none|why|what|how|hm+|hmm+|wait)\b|\b(?:not|never|neither|nor)\b`)
	// takes is an answer taking one option.
	takes = lazyre.New(`(?i)\b(?:i'd|i would|we'd|we should|let's|i'll|we'll) (?:just |rather |still )?(?:go with|go for|pick|use|take|choose|stick with|rather|suggest|recommend|propose)\b|\bmy (?:pick|vote|take|recommendation) (?:is|would be|:)|^(?:so|then),? (?:go with|use)\b`)
	// headLead is what a sentence may open with before what it speaks of.
	headLead = lazyre.New(`(?i)^(?:(?:between the two|for (?:us|this|now)|on paper|honestly|so|and|but|also|now|here)\s*[:,]?\s+)+`)
	// shortfall is a fault said of an option: "it has no ACME support",
	// "it serves only what is in PostGIS", "it loses everything".
	shortfall = lazyre.New(`(?i)\b(?:no|not|never|nothing|can't|cannot|won't|doesn't|don't|isn't|aren't|only|lose|loses|lost|means|needs?|would have to|little|without|too|extra|another|second)\b`)
	// downside is what an answer that took another says of an option:
	// "Purging everything every night means the first visitors … hit a
	// cold cache".
	downside = lazyre.New(`(?i)\b(?:but|means|would mean|can't|cannot|won't|doesn't|no|only|lose|loses|too|costs?)\b`)
)
