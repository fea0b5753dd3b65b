package weigh

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// Options returns the options text puts as a choice, as it names them:
// "Fabio or Traefik?", "Litestream? Or just a nightly .backup with
// restic, which I know?", "I've seen both Martin and pg_tileserv
// mentioned. Which one?", "Options: purge everything after each update,
// or version the tile URLs." It returns nil when text puts none, or only
// one.
func Options(text string) []string {
	ss := prose.Sentences(text)
	asks := false
	for _, s := range ss {
		asks = asks || strings.HasSuffix(s, "?")
	}
	for i, s := range ss {
		var opts []string
		if m := listed.FindStringSubmatch(s); m != nil {
			opts = split(m[1])
		} else if !asks {
			continue
		} else if strings.HasSuffix(s, "?") && orLead.MatchString(s) && i > 0 && strings.HasSuffix(ss[i-1], "?") && len(strings.Fields(ss[i-1])) <= 4 {
			// "Litestream? Or just a nightly .backup with restic?"
			opts = []string{trim(ss[i-1]), trim(upTo(orLead.ReplaceAllString(s, "")))}
		} else if strings.HasSuffix(s, "?") && orWord.MatchString(s) {
			opts = split(s)
		} else if m := both.FindStringSubmatch(s); m != nil && which.MatchString(text) {
			opts = []string{trim(m[1]), trim(m[2])}
		}
		if opts = clean(opts); len(opts) >= 2 {
			return opts
		}
	}
	return nil
}

// split cuts a question or a list into its options: "A, B or C?", "A vs
// B?"; nil for a question that asks what is wrong, or whose second half
// is a question of its own ("… or is the VPN still down?").
func split(s string) []string {
	s = strings.TrimRight(strings.TrimSpace(s), "?.!")
	if diagnosis.MatchString(s) {
		return nil // "Is it the cache or the network?" asks what is wrong
	}
	parts := orWord.Split(s, -1)
	if len(parts) < 2 {
		return nil
	}
	left, rights := parts[0], parts[1:]
	if j := strings.LastIndexAny(left, ":;—"); j >= 0 {
		left = strings.TrimSpace(left[j+1:])
	}
	if m := asked.FindAllStringIndex(left, -1); m != nil {
		left = left[m[len(m)-1][1]:] // "For sync, should we shell out to git"
	}
	if questionLead.MatchString(left) {
		return nil // the question is worded other than as a choice
	}
	var opts []string
	for _, part := range strings.Split(left, ", ") {
		opts = append(opts, trim(part))
	}
	for _, r := range rights {
		if questionLead.MatchString(r) || laterWord.MatchString(r) {
			return nil // "… or can I delete it", "… on Go 1.21 or later"
		}
		opts = append(opts, trim(upTo(r)))
	}
	return opts
}

// upTo is an option named before what is said of it: "a nightly .backup
// with restic" of "a nightly .backup with restic, which I know".
func upTo(s string) string {
	if j := strings.IndexAny(s, ",;:("); j > 0 {
		return s[:j]
	}
	return s
}

// clean drops the empty parts a lead-in leaves ("Which is better here,
// Fabio or Traefik?"); it returns nil when a part is too long to be named
// ("The front desk tablet and people's phones should see slots fill up
// live").
func clean(opts []string) []string {
	var out []string
	for _, o := range opts {
		n := len(strings.Fields(o))
		if n > 10 {
			return nil
		}
		if n > 0 && len(prose.ContentWords(o)) > 0 {
			out = append(out, o)
		}
	}
	return out
}

// trim is an option without the words around it that name nothing:
// "just a nightly backup" is "a nightly backup".
func trim(s string) string {
	s = strings.Trim(strings.TrimSpace(s), "?.!, ")
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

// Turned returns the options of opts answer turns down. An option is
// turned down when the answer takes another ("I'd go with Traefik",
// "Traefik." alone as its first sentence) or says, of it, that it falls
// short ("A nightly .backup with restic would be simple, but it loses
// everything since the last run"); what the answer said of it is its
// line. An answer that faults every option took none.
func Turned(opts []string, answer string) []Verdict {
	if len(opts) < 2 {
		return nil
	}
	words := make([]map[string]bool, len(opts))
	for i, o := range opts {
		words[i] = keys(o)
	}
	ss := prose.Sentences(answer)
	taken := -1
	if len(ss) > 0 && len(strings.Fields(ss[0])) <= 3 {
		taken = names(words, ss[0], true) // "SQLite. I'll use Postgres only for …"
	}
	for _, s := range ss {
		if taken >= 0 {
			break
		}
		if takes.MatchString(s) && !notTaken.MatchString(s) {
			taken = names(words, s, true) // "I'd go with SQLite …" of "store it in SQLite"
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
			if m := Conceded.FindStringIndex(s); m != nil && shortfall.MatchString(clause(s[m[1]:])) || taken >= 0 && downside.MatchString(s) {
				v.Line = prose.Capitalize(headLead.ReplaceAllString(s, ""))
				break
			}
		}
		if v.Line != "" || v.For != "" {
			out = append(out, v)
		}
	}
	if len(out) == len(opts) {
		return nil
	}
	return out
}

// clause is the first clause of s: what "but" turns to, before what
// follows from it ("it does ACME itself" of "it does ACME itself, so no
// separate certbot timer").
func clause(s string) string {
	if i := strings.IndexAny(s, ",;:—"); i >= 0 {
		return s[:i]
	}
	return s
}

// Picked returns which of opts a short reply takes by naming it ("Commit
// them." of "commit the generated files, or generate them in CI?", "The
// second."), -1 when it names none or more than one, or says more than a
// pick: a refusal, a question back, an order of work ("Staging first.").
func Picked(opts []string, reply string) int {
	ss := prose.Sentences(reply)
	if len(opts) < 2 || len(ss) == 0 || strings.HasSuffix(ss[0], "?") {
		return -1
	}
	// "Sounds right, go with the spool files." picks as "The spool
	// files." does.
	s := takeVerb.ReplaceAllString(agreeLead.ReplaceAllString(ss[0], ""), "")
	if len(strings.Fields(s)) > 6 || s == "" {
		return -1
	}
	first := strings.ToLower(strings.Trim(s, ".! "))
	if k, ok := ordinals[strings.TrimPrefix(first, "the ")]; ok {
		if k < 0 {
			k += len(opts)
		}
		if k < len(opts) {
			return k
		}
		return -1
	}
	if notPick.MatchString(ss[0]) {
		return -1
	}
	k := named(opts, first)
	if k >= 0 && s != ss[0] {
		// Said after "go with", the option and nothing else: "go with
		// go-git plus our own merge" takes more than go-git.
		have := keys(first)
		if len(have)-shared(have, keys(opts[k])) > 1 {
			return -1
		}
	}
	return k
}

// named returns which of opts reply names: the option its first word
// opens ("Generate them." of "generate them in CI"), else the one it
// shares most words with, if one; -1 if none.
func named(opts []string, reply string) int {
	have := keys(reply)
	lead := keys(strings.Fields(reply)[0])
	best, most, tie := -1, 0, false
	for i, o := range opts {
		if f := strings.Fields(o); len(f) > 0 && shared(lead, keys(f[0])) > 0 {
			return i
		}
		switch n := shared(have, keys(o)); {
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

var (
	// agreeLead agrees before the pick says what: "Sounds right, ",
	// "Agreed, ".
	agreeLead = lazyre.New(`(?i)^(?:sounds (?:right|good|fine)|agreed|ok(?:ay)?|fine|great|good|yes|yep|sure|right|perfect)[,.!]?\s+`)
	// takeVerb says to take what follows: "go with ", "let's do ".
	takeVerb = lazyre.New(`(?i)^(?:(?:then |so )?(?:let's |we'll |please )?(?:go with|go for|take|do|use|pick)\s+)`)
)

// ordinals are the picks that name an option by its place (-1 the last).
var ordinals = map[string]int{"first": 0, "first one": 0, "former": 0, "second": 1, "second one": 1, "third": 2, "third one": 2, "latter": -1, "last": -1, "last one": -1}

// names returns which one option of words s names (all its words, or
// two of them), -1 for none or more than one; one word is enough when
// first.
func names(words []map[string]bool, s string, first bool) int {
	have := keys(s)
	found := -1
	for i, w := range words {
		if n := shared(have, w); n > 0 && (n >= min(2, len(w)) || first) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// shared counts the keys of b that a holds.
func shared(a, b map[string]bool) int {
	n := 0
	for k := range b {
		if a[k] {
			n++
		}
	}
	return n
}

// head is where a sentence names what it speaks of: its first words.
func head(s string) string {
	f := strings.Fields(headLead.ReplaceAllString(s, ""))
	return strings.Join(f[:min(len(f), 5)], " ")
}

// keys are the content words of s, stemmed and cut to four letters so
// that "Purging" meets "purge".
func keys(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range prose.ContentWords(strings.ReplaceAll(s, "`", "")) {
		if !vague[w] {
			k := []rune(prose.Stem(w))
			out[string(k[:min(len(k), 4)])] = true
		}
	}
	return out
}

// Lists reports whether sentence s is an answer putting its own options:
// "Options: Redis, or a small table in the SQLite database."
func Lists(s string) bool { return listed.MatchString(s) }

// Conceded grants something before it says what is wrong with it:
// "gorilla/csrf works, but it means a token in every form".
var Conceded = lazyre.New(`(?i)(?:,|;| —| –)\s*but\b`)

var (
	// vague words name no option: "just a nightly backup".
	vague = prose.WordSet(`just simply plain only option options one way approach something else`)
	// listed is an answer putting its own options: "Options: A, or B.",
	// "Two ways: A or B."
	listed = lazyre.New(`(?i)^(?:the |two |three |a few |our |my )?(?:options|choices|alternatives|ways)(?: here| i see)?\s*(?:are\s*)?:\s*(.+\bor\b.+)$`)
	// orWord joins two options: "A or B", "A vs B".
	orWord = lazyre.New(`(?i),?\s+(?:or|vs\.?|versus)\s+`)
	// diagnosis asks which of two things is wrong, not which to take.
	diagnosis = lazyre.New(`(?i)^(?:(?:so|and|but)\s*,?\s+)?(?:(?:is|was|are|were|could|did|does|has|have) (?:it|that|this|the|there)\b|(?:why|how|when|where)\b)`)
	// questionLead is a part still worded as a question: "is the VPN
	// still down", "can I delete it", "me to open a PR".
	questionLead = lazyre.New(`(?i)^\s*(?:(?:is|are|was|were|can|could|should|shall|do|does|did|will|would|has|have)\s+(?:i|we|you|it|they|he|she|there|the|this|that)\b|me to\b|you to\b|us to\b)`)
	// laterWord is a second half that names no option: "or later".
	laterWord = lazyre.New(`(?i)^\s*(?:later|earlier|newer|older|above|below|higher|lower|more|less|not|so|whatever|something)\W*$`)
	// orLead opens the second half of a choice asked in two questions.
	orLead = lazyre.New(`(?i)^or\s+(?:else\s+)?`)
	// both names two options a "which" question then asks about.
	both  = lazyre.New(`(?i)\b(?:both|between) ([^,.;?]{1,40}?) and ([^,.;?]{1,40}?)(?: (?:mentioned|suggested|recommended|around|out there))?[,.?]`)
	which = lazyre.New(`(?i)\bwhich (?:one|of (?:the two|them|these|those|the))\b|\bwhich is better\b|\bwhat would you (?:pick|use|choose)\b`)
	// asked is the question a choice opens with: "Should we use sqlc",
	// "Do you want me to".
	asked = lazyre.New(`(?i)(?:^|,\s*|\b(?:so|and|but|also|then)\s+)(?:(?:do you )?(?:want|would you like) me to\s+|(?:should|shall|do|would|could|can|will|is|are|does)\s+(?:we|i|you|it|this|that)\s+(?:(?:use|go with|pick|take|choose|do|run|keep|switch to|move to|add|be|want)\s+)?|(?:which|what)\b[^,]*?\b(?:use|pick|choose|take|go with|prefer|better)(?:\s+here)?\s*)`)
	// optLead is a word that comes before an option without naming it.
	optLead = lazyre.New(`(?i)^(?:(?:just|simply|maybe|perhaps|rather|either|else)\s+)?(?:(?:use|go with|pick|take|switch to|move to)\s+)?`)
	// notPick is a reply that names an option without taking it, or
	// orders the work: "No commit, ever.", "Neither.", "Staging first."
	notPick = lazyre.New(`(?i)^\s*(?:no|not|neither|never|don't|do not|nope|none|why|what|how|hm+|wait|both)\b|\b(?:not|never|neither|nor|first|then|after|later|before|for now)\b`)
	// takes is an answer taking one option.
	takes = lazyre.New(`(?i)\b(?:i'd|i would|we'd|we should|let's|i'll|we'll) (?:just |rather |still )?(?:go with|go for|pick|use|take|choose|stick with|rather|suggest|recommend|propose)\b|\bmy (?:pick|vote|take|recommendation) (?:is|would be|:)|^(?:so|then),? (?:go with|use)\b`)
	// notTaken is a take turned into its opposite, or limited to a case:
	// "I'd recommend against Redis", "I'd rather not add Redis", "I'll
	// use Postgres only for the shared store".
	notTaken = lazyre.New(`(?i)\b(?:rather not|recommend against|suggest against|advise against|(?:use|pick|take|choose) \S+(?: \S+)? only (?:for|if|when|in)\b|not (?:go|use|pick|take|choose))`)
	// headLead is what a sentence may open with before what it speaks of.
	headLead = lazyre.New(`(?i)^(?:(?:between the two|for (?:us|this|now)|on paper|honestly|so|and|but|also|now|here)\s*[:,]?\s+)+`)
	// shortfall is a fault said of an option: "it has no ACME support",
	// "it serves only what is in PostGIS", "it loses everything".
	shortfall = lazyre.New(`(?i)\b(?:no|not|never|nothing|can't|cannot|won't|doesn't|don't|isn't|aren't|only|lose|loses|lost|means|needs?|(?:would |will )?(?:has|have) to|must|little|without|too|extra|another|second)\b`)
	// downside is what an answer that took another says of an option:
	// "Purging everything every night means the first visitors … hit a
	// cold cache".
	downside = lazyre.New(`(?i)\b(?:but|means|would mean|can't|cannot|won't|doesn't|no|only|lose|loses|too|costs?)\b`)
)
