package change

import (
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
)

// What a statement says holds now, against what an older one said: a
// sibling value ("clips are in chrome.storage.local now"), a thing of a
// noun ("the publisher is quill-lang now"), a named system a thing is on
// ("the queue is on NATS JetStream now").

// SaysNow reports whether s says "now": what it states is the state
// since a change ("the Java rewrite now builds with Gradle").
func SaysNow(s string) bool { return nowWord.MatchString(s) }

// SiblingText is what a newer text says of sibling values, read once
// (ReadSiblings) for all the older texts it is asked of (Of): a pack asks
// it of every pair, a seventh of a pack's time when each read it again.
type SiblingText struct {
	text    string
	clauses []siblingClause // those that say "now" or announce a change
	moved   bool            // hostMoved
	tokens  []string        // siblingTokens of the whole text, when moved
}

type siblingClause struct {
	text   string
	tokens []string
}

// ReadSiblings reads newer text n for Of.
func ReadSiblings(n string) *SiblingText {
	st := &SiblingText{text: n}
	for _, c := range clausePart.Split(n, -1) {
		if nowWord.MatchString(c) || Of(c) != nil {
			st.clauses = append(st.clauses, siblingClause{c, siblingTokens(c)})
		}
	}
	if st.moved = hostMoved.MatchString(n); st.moved {
		st.tokens = siblingTokens(n)
	}
	return st
}

// Of reports whether the newer text st read, in a clause that says "now"
// or announces a change, names a sibling of one of x's code tokens (the
// same up to its last dot or slash, another last part: chrome.storage.sync
// and chrome.storage.local) and not x's token itself, and that clause
// shares a word with x. The clause is short: a word it shares is its
// subject, however common in the memory ("clips", in a clipping
// extension's).
func (st *SiblingText) Of(x string) bool {
	xt := siblingTokens(x)
	if len(xt) == 0 {
		return false
	}
	for _, c := range st.clauses {
		for _, a := range xt {
			if slices.Contains(c.tokens, a) || numbered.MatchString(a) {
				continue // a numbered host only by a move (below)
			}
			for _, b := range c.tokens {
				if sibling(a, b) && sharesKeys(x, c.text, anyKey, 1) {
					return true
				}
			}
		}
	}
	// A numbered host is named apart from the move it is part of: "Icecast
	// moved to the new VPS, stream2.radiofluss.at, last night".
	for _, a := range xt {
		if !numbered.MatchString(a) {
			continue
		}
		if !st.moved {
			return false // "node2 now runs Postgres too" adds a host
		}
		if slices.Contains(st.tokens, a) {
			continue
		}
		for _, b := range st.tokens {
			if sibling(a, b) && sharesKeys(x, st.text, anyKey, 2) {
				return true // "Icecast … on our VPS stream1": icecast, vps
			}
		}
	}
	return false
}

// clausePart splits a sentence at its commas, semicolons and dashes:
// "clips are in chrome.storage.local now, settings stay in
// chrome.storage.sync" says two things.
var clausePart = lazyre.New(`[,;]\s+|\s+—\s+`)

// ClauseParts splits sentence s at its commas, semicolons and dashes
// (clausePart): each part says one thing.
func ClauseParts(s string) []string { return clausePart.Split(s, -1) }

// siblingTokens are s's code tokens that have a parent: a dot or a slash
// inside, not a number; or that are one of a family of variants, a few
// letters and a number ("hs256").
func siblingTokens(s string) []string {
	var out []string
	for _, t := range CodeTokens(s) {
		t = strings.TrimRight(t, "/.")
		if i := strings.LastIndexAny(t, "./"); i > 2 && i < len(t)-1 && !IsVersion(t) && !IsNumber(strings.ReplaceAll(t, ".", "")) || variant.MatchString(t) {
			out = append(out, t)
		}
		// A numbered host, the first label of its name: "stream1",
		// "stream2.radiofluss.at".
		if h, _, _ := strings.Cut(strings.ToLower(t), "."); numbered.MatchString(h) && !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// hostMoved says a thing left one host for another.
var hostMoved = lazyre.New(`(?i)\b(?:moved|migrated|switched|instead of|in place of|no longer on)\b`)

// numbered is a name of one of a numbered few: four letters or more, then
// a number of one or two digits ("stream1", "node3"; not "db02", "web1",
// too short to tell from a version).
var numbered = lazyre.New(`^[a-z][a-z-]{2,}[a-z][0-9]{1,2}$`)

// variant is a name of one of a family: a letter for the kind, a
// letter for the family, then the number they share ("hs256", "es256",
// "rs256": JWT's signing algorithms).
var variant = lazyre.New(`^[a-z]{2}[0-9]{3}$`)

// sibling reports whether two tokens share their parent and differ, are
// two variants of one family and number (not "aes256" and "sha256"), or
// two of a numbered few ("stream1" and "stream2").
func sibling(a, b string) bool {
	if va, vb := variant.MatchString(a), variant.MatchString(b); va || vb {
		return va && vb && a != b && a[1:] == b[1:]
	}
	if na, nb := numbered.MatchString(a), numbered.MatchString(b); na || nb {
		return na && nb && a != b && strings.TrimRight(a, "0123456789") == strings.TrimRight(b, "0123456789")
	}
	i, j := strings.LastIndexAny(a, "./"), strings.LastIndexAny(b, "./")
	return a != b && i == j && a[:i+1] == b[:j+1]
}

// sharesKeys reports whether texts a and b share at least n content
// words, outside their code tokens, that shared accepts.
func sharesKeys(a, b string, shared func(k string) bool, n int) bool {
	// Words outside the code tokens: "chrome" of chrome.storage.sync
	// says which API, not what is kept there.
	a, b = codeToken.ReplaceAllString(strings.ToLower(a), " "), codeToken.ReplaceAllString(strings.ToLower(b), " ")
	bk := Keys(b)
	for k := range Keys(a) {
		if bk[k] && len(k) > 2 && shared(k) {
			if n--; n == 0 {
				return true
			}
		}
	}
	return false
}

// anyKey accepts every shared word.
func anyKey(string) bool { return true }

// HasSiblingTokens reports whether s names a code token with a parent,
// which SiblingText.Of may find another child of.
func HasSiblingTokens(s string) bool { return len(siblingTokens(s)) > 0 }

// NowIs reads "the publisher is quill-lang now" (or "… is now
// quill-lang", "lint becomes standard"): what a thing named by its noun
// is since a change. It returns the noun and the value; "" if s says
// none.
func NowIs(s string) (noun, value string) {
	var m []string
	switch {
	case strings.Contains(s, " now"):
		m = nowIs.FindStringSubmatch(s)
	case strings.Contains(s, "becomes "):
		m = becomes.FindStringSubmatch(s)
	default:
		return MovedTo(s)
	}
	if m == nil {
		return "", ""
	}
	noun, value = strings.ToLower(m[1]), strings.ToLower(m[2]+m[3])
	if genericNouns[noun] || lex.StopWords[noun] || lex.StopWords[value] {
		return "", ""
	}
	return noun, value
}

// ValueOf returns the value s gives the thing of noun ("the RPC we use
// is https://api.devnet.solana.com"), "" when it gives none.
func ValueOf(s, noun string) string {
	if vs := valuesOf(s, noun); len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// Qualifier returns the word s puts before noun where it gives the thing
// of noun a value ("release" of "the release branch is stable"), lower
// case; "" when none does or the word is an article, a possessive or
// another word that says no kind ("and lint becomes standard").
// "the default branch is main now" says nothing of the release branch.
func Qualifier(s, noun string) string {
	lower := strings.ToLower(s)
	for i := 0; ; {
		j := strings.Index(lower[i:], " "+noun+" ")
		if j < 0 {
			return ""
		}
		j += i
		i = j + len(noun) + 2
		if rest := lower[i:]; !strings.HasPrefix(rest, "is ") && !strings.HasPrefix(rest, "was ") && !strings.HasPrefix(rest, "becomes ") && !strings.HasPrefix(rest, "= ") {
			continue
		}
		fields := strings.Fields(lower[:j])
		if len(fields) == 0 {
			return ""
		}
		w := strings.Trim(fields[len(fields)-1], "`'\"(")
		if articles[w] || lex.StopWords[w] || !lex.IsWordByte(w[0]) {
			return ""
		}
		return w
	}
}

// articles are the words before a noun that say no kind of it.
var articles = prose.WordSet(`the a an our your their its this that my new`)

// MovedTo reads "we also moved RPC to Helius": a thing named by its noun
// moved to a named system, which is what it is since; "" when s says
// no such move.
func MovedTo(s string) (noun, value string) {
	if !strings.Contains(s, "moved") && !strings.Contains(s, "switched") && !strings.Contains(s, "migrated") {
		return "", ""
	}
	m := movedOnto.FindStringSubmatch(s)
	if m == nil {
		return "", ""
	}
	noun, value = strings.ToLower(m[1]), strings.ToLower(m[2])
	if genericNouns[noun] || lex.StopWords[noun] || lex.StopWords[value] {
		return "", ""
	}
	return noun, value
}

// IsValue reports whether s says the thing of noun is a value other
// than value: "the Marketplace publisher is harborlabs" against
// (publisher, quill-lang).
func IsValue(s, noun, value string) bool {
	return slices.ContainsFunc(valuesOf(s, noun), func(v string) bool { return !strings.EqualFold(v, value) })
}

// valuesOf are the values s gives the thing of noun, in lower case.
func valuesOf(s, noun string) []string {
	var out []string
	for _, m := range isValue.FindAllStringSubmatch(s, -1) {
		if v := strings.ToLower(m[2]); strings.EqualFold(m[1], noun) && !lex.StopWords[v] {
			out = append(out, v)
		}
	}
	return out
}

var (
	nowIs = lazyre.New(`(?i)\bthe (?:[\w-]+ )?([a-z][\w-]*) is (?:now ([\w.:/@-]*\w)|([\w.:/@-]*\w) now\b)`)
	// becomes: "and lint becomes standard", "the extension id becomes
	// quill-lang.quill-tools": a change told by its verb, no "now" needed.
	// The second group is always empty (NowIs reads m[2]+m[3]).
	becomes = lazyre.New(`(?i)\b(?:the (?:[\w-]+ )?)?([a-z][\w-]*) becomes ()(?:` + "`" + `)?([\w.:/@-]*\w)`)
	isValue = lazyre.New(`(?i)\b([a-z][\w-]*)(?: (?:we|I) (?:use|run|call|hit|talk to))? (?:is|was|=) ([\w.:/@-]*\w)\b`)
	// movedOnto is a thing moved to a system named as a name: "moved
	// RPC to Helius", "switched the queue over to NATS".
	movedOnto = lazyre.New(`\b(?:moved|switched|migrated)\s+(?:the\s+|our\s+)?([A-Za-z][\w-]*)\s+(?:over\s+)?(?:to|onto)\s+([A-Z][\w.-]*[\w])`)
)

// genericNouns name no one thing: "the default is 250 now" may be
// another default's.
var genericNouns = prose.WordSet(`default value limit plan idea problem issue fix result output reason goal answer rule thing point
	status state same one difference catch trick name number version`)

// OtherHome reports whether newer text n, in a clause that says "now",
// puts a thing on a named system ("the queue is on NATS JetStream now,
// stream JOBS") and x, sharing a word with n outside the names, puts
// something on another that n does not name, and does not name n's:
// "jobs go through Postgres LISTEN/NOTIFY on the jobs channel".
func OtherHome(x, n string, shared func(k string) bool) bool {
	xs := homes(homeName, x)
	if len(xs) == 0 {
		return false
	}
	for _, c := range clausePart.Split(n, -1) {
		if !nowWord.MatchString(c) {
			continue
		}
		for _, h := range homes(isOnName, c) {
			if strings.Contains(strings.ToLower(x), h) {
				return false // x names where it is now
			}
			for _, o := range xs {
				if o != h && !strings.Contains(strings.ToLower(n), o) && sharesKeys(x, homeName.ReplaceAllString(n, " "), shared, 1) {
					return true
				}
			}
		}
	}
	return false
}

// HasHome reports whether s puts something on a named system (OtherHome).
func HasHome(s string) bool { return len(homes(homeName, s)) > 0 }

// homes are the first words, in lower case, of the named systems s puts
// things on, through, via or over, as re finds them (its first group):
// homeName in an older sentence, isOnName in a clause that says where a
// thing is now.
func homes(re *lazyre.Regexp, s string) []string {
	var out []string
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		if w := strings.ToLower(m[1]); !lex.StopWords[w] && !notHome[w] {
			out = append(out, w)
		}
	}
	return out
}

// notHome are capitalised words after "on" that name no system: "on
// PRs", "on Fridays".
var notHome = prose.WordSet(`pr prs ci mr mrs monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays
	friday fridays saturday saturdays sunday sundays january february march april may june july august september
	october november december`)

// homeName is a named system a thing is on, goes through or runs on:
// "on NATS JetStream", "through Postgres LISTEN/NOTIFY" ("in TypeScript"
// says what it is written in, not where it runs).
var homeName = lazyre.New(`\b(?:on|through|via|over)\s+((?-i:[A-Z][A-Za-z0-9]+))(?:\s+(?-i:[A-Z][\w/-]*))*`)

// isOnName is a thing said to be on a named system: "is on NATS", "runs
// through Kafka", "goes via Cloudflare".
var isOnName = lazyre.New(`\b(?:is|are|runs?|goes|go|lives?|sits?)\s+(?:now\s+)?(?:on|through|via|over)\s+((?-i:[A-Z][A-Za-z0-9]+))`)

// FormatNow is the file format s says a thing comes in now, lower-case:
// "the principals' weekly report is a PDF now", "invoices are PDFs now",
// "exports go out as XLSX now", "it's JSON instead of CSV". "" when s
// says none ("until now JSON was the only output").
func FormatNow(s string) string {
	if !strings.Contains(s, "now") && !strings.Contains(s, "instead") {
		return ""
	}
	if m := formatNow.FindStringSubmatch(s); m != nil {
		return strings.ToLower(m[1] + m[2] + m[3])
	}
	return ""
}

// OtherFormat reports whether s names a file format other than format,
// and not format itself; a file's extension ("export.yaml") names none.
func OtherFormat(s, format string) bool {
	other := false
	for _, loc := range formatWord.FindAllStringIndex(s, -1) {
		if loc[0] > 0 && s[loc[0]-1] == '.' {
			continue
		}
		if strings.EqualFold(strings.TrimSuffix(strings.TrimSuffix(s[loc[0]:loc[1]], "s"), "S"), format) {
			return false
		}
		other = true
	}
	return other
}

const formats = `csv|tsv|pdf|json|jsonl|ndjson|xml|xlsx|xls|ods|html|parquet|yaml|toml|markdown|docx|txt`

var (
	// formatNow: "is a PDF now", "are PDFs now", "goes out as XLSX now",
	// "is now a PDF", "JSON instead of CSV".
	formatNow  = lazyre.New(`(?i)\b(?:is|are|comes?|goes|go|ships?|gets? (?:sent|written|saved)|(?:sent|written|saved|exported)) (?:out )?(?:as )?(?:a |an )?(` + formats + `)s?\b(?: \w+)? now\b|\b(?:is|are|'s|'re) now (?:as |in )?(?:a |an )?(` + formats + `)s?\b|\b(` + formats + `)s? instead of (?:a |an |the )?(?:` + formats + `)s?\b`)
	formatWord = lazyre.New(`(?i)\b(?:` + formats + `)s?\b`)
)

// TookOver reads a handover from one person to another: "Jonas took
// over the Figma library from Mariko", "I'm taking over labeld from
// Petra", "Dana handed the on-call rota over to Priya". It returns the
// thing's last word, in lower case ("" when s names none: "Priya took
// over from Dana"), and who has it now and who had it, as written; ""
// names when s says no handover.
func TookOver(s string) (noun, now, was string) {
	if !strings.Contains(s, " over") {
		return "", "", ""
	}
	if m := tookOver.FindStringSubmatchIndex(s); m != nil {
		now, was = s[m[2]:m[3]], s[m[6]:m[7]]
		if m[4] >= 0 {
			noun = s[m[4]:m[5]]
		} else if r := asRole.FindStringSubmatch(s[m[1]:]); r != nil {
			noun = r[1] // "Priya took over from Dana as the owner of the billing service"
		}
	} else if m := handedOver.FindStringSubmatch(s); m != nil {
		noun, now, was = m[2], m[3], m[1]
	} else {
		return "", "", ""
	}
	if f := strings.Fields(noun); len(f) > 0 {
		noun = strings.ToLower(strings.Trim(f[len(f)-1], "`'\""))
	}
	if strings.EqualFold(now, was) || lex.StopWords[strings.ToLower(was)] {
		return "", "", ""
	}
	return noun, now, was
}

var (
	// tookOver: "NEW took over [THING] from OLD".
	tookOver = lazyre.New(`\b([A-Z][\w-]+|I)(?:'m| am| is| has| had| will| 's)? (?:took|take|takes|taking|taken) over (?:(?:the |our |their |his |her )?([\w./` + "`" + `' -]{2,40}?) )?from ([A-Z][\w-]+)\b`)
	// asRole: " as the owner of the billing service" after a handover.
	asRole = lazyre.New(`^ as (?:the |our )?([\w -]{2,60}?)\s*(?:[.,;!]|$)`)
	// handedOver: "OLD handed [THING] over to NEW", "OLD handed over THING to NEW".
	handedOver = lazyre.New(`\b([A-Z][\w-]+)(?: has| had)? (?:handed|hands|passed|passes) (?:over )?(?:(?:the |our |their |his |her )?([\w./` + "`" + `' -]{2,40}?) )?(?:over )?to ([A-Z][\w-]+)\b`)
)

// Owner reads who s says holds a thing: "Tomás owns the Stripe account
// from now on", "Priya is the person for the Stripe account", "the
// rota is run by Dana". It returns the thing's last word in lower case
// and the person as written; "" when s names no such holder.
func Owner(s string) (noun, who string) {
	if m := ownerIs.FindStringSubmatch(s); m != nil {
		noun, who = m[2], m[1]
	} else if m := ownedBy.FindStringSubmatch(s); m != nil {
		noun, who = m[1], m[2]
	} else {
		return "", ""
	}
	f := strings.Fields(noun)
	if len(f) == 0 || lex.StopWords[strings.ToLower(who)] {
		return "", ""
	}
	return strings.ToLower(strings.Trim(f[len(f)-1], "`'\".,")), who
}

var (
	// ownerIs: "WHO owns THING", "WHO is the person for THING".
	ownerIs = lazyre.New(`\b([A-Z][\p{L}-]+) (?:now |still )?(?:owns|runs|maintains|handles|looks after|is (?:now |still )?(?:responsible for|in charge of|the (?:person|contact|owner|go-to|one to ping|one to ask) (?:for|of)|the owner of))\s+(?:the |our |their )?([\p{L}\d./` + "`" + `' -]{2,40}?)(?:[,.;:!]|\s+(?:and|from|now|since|so|until|because)\b|$)`)
	// ownedBy: "THING is owned by WHO".
	ownedBy = lazyre.New(`\b(?:the |our )?([\p{L}\d./-]+(?: [\p{L}\d./-]+){0,3}) (?:is|are) (?:now )?(?:owned|run|maintained|handled) by ([A-Z][\p{L}-]+)\b`)
)

// Gone returns the names s says are gone for good, in lower case: a host
// retired or renamed away ("the name hooks-01 is gone", "the DBAs
// retired db-02", "nothing in the repo mentions db-02 any more"). Only a
// name with a digit, dot or dash counts: "the deliveries are gone" names
// nothing that held.
func Gone(s string) []string {
	if !goneWord.MatchString(s) {
		return nil
	}
	var out []string
	for _, re := range []*lazyre.Regexp{goneAfter, goneBefore} {
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			g := m[1]
			if g == "" && len(m) > 2 {
				g = m[2]
			}
			if v := strings.ToLower(strings.Trim(g, ".,;:`'\"")); strings.ContainsAny(v, "0123456789.-") && len(v) >= 3 && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

var (
	goneWord   = lazyre.New(`(?i)\b(?:gone|retired|decommissioned|any ?more)\b`)
	goneAfter  = lazyre.New("(?i)\\b(?:retired|decommissioned|tore down|shut down) (?:the (?:old )?(?:host |box |server |vm |machine |database )?)?(`?[\\w.-]+`?)")
	goneBefore = lazyre.New("(?i)(`?[\\w.-]+`?) (?:is|are|was|has been) (?:now )?(?:gone|retired|decommissioned)\\b|\\bnothing\\b[^.;]{0,40}\\b(?:mentions|uses|points (?:at|to)|refers to) (`?[\\w.-]+`?) any ?more\\b")
)

// ToldPast reports whether x names v in what happened to it, not as
// where something is: "Platform upgraded hooks-01 to Node 20.11 over
// the weekend", "hooks-01 was rebuilt last night".
func ToldPast(x, v string) bool {
	l := strings.ToLower(x)
	for i := strings.Index(l, v); i >= 0; {
		before := strings.Fields(l[:i])
		after := strings.Fields(l[i+len(v):])
		if len(before) > 0 && pastVerb.MatchString(before[len(before)-1]) || len(before) > 1 && before[len(before)-1] == "the" && pastVerb.MatchString(before[len(before)-2]) ||
			len(after) > 0 && (after[0] == "was" || after[0] == "were" || after[0] == "had") {
			return true
		}
		j := strings.Index(l[i+len(v):], v)
		if j < 0 {
			break
		}
		i += len(v) + j
	}
	return false
}

var pastVerb = lazyre.New(`^(?:[a-z]+ed|rebuilt|built|took|brought|ran|went|came|put|set|wiped|moved)$`)
