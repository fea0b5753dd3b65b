package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/transcript"
)

// tailChars is how much of the previous session the second baseline keeps.
const tailChars = 6000

// history marks a line that presents a value as past, not current
// (scenario format: stale_match): it names the value it changed from.
// An arrow ("1.74 → 1.80"), a command's in-place substitution
// ("s/readTimeout(20/readTimeout(45/", its new text cut short or not), a
// thing scrapped or ditched, a value given in the words of
// a change ("let's make it 45", "cut it to 8", "from 500 to 1000"), a
// rule taken back ("forget the Yarn rule", "forget what I said about
// …"), a thing gone or not used any more, and "the old value" (or host,
// path and the like) name the
// change too. "X is now Y" does not: said of an older change, Y is
// stale in its turn.
var history = regexp.MustCompile(`(?i)\b(was|previously|formerly|no longer|instead of|rather than|replac(ed|es|ing)|superseded|moved from|used to|dropp(ed|ing)|mov(e|es|ed|ing) (to|from|off|away)|switch(ed|es|ing)? (from|to|away)|bump(s|ed|ing)?|revert(s|ed|ing)?|reversed|again|back (to|on|at|in)|(make|makes|made|making) (it|them|that|this|the \w+) \S*\d|(cut|cuts|raised?|raises|lower(s|ed)?|increased?|decreased?|reduced?) (it |them |that |the \w+ )?(to|from) \S*\d|from \S*\d\S* to \S*\d)\b|\S\s*(→|->)\s*\S|\bs/[^/]+/|\bs#[^#]+#|\bs\|[^|]+\||\b(scrap(s|ped|ping)?|ditch(es|ed|ing)?)\b|(?i:\bany ?more\b|\b(?:is|are|was|were) gone\b|\bthe old (?:value|one|setting|name|path|port|version|default|host|file|folder|location|url|address|server|cluster|namespace|config|key|endpoint|bucket|image|tag|branch|tool|library|package|service)\b|\bforget (?:what|everything|all) (?:I|we)\b|\bforget (?:about )?the \S+ (?:rule|thing|idea|requirement|plan|part|bit|policy)\b)`)

// done marks a line that presents an open item as dealt with (or a
// value as past): "works great", "is green in all three runs", ".envrc
// and the Cachix settings are in." For an
// open item, only a line that still presents it as open is stale.
// A list of the files a session changed presents none as open, nor does
// a session's heading: it names what that session worked on ("### Dale's
// list came in … (session 6b8c078b)", "### Fuzzing — …"), which is how the
// item was taken up, not that it is still to do.
var done = regexp.MustCompile(history.String() + `|(?i)\b(done|fixed|resolved|finished|completed|merged|shipped|implemented|now|added|green|pass(es|ed)|works (great|fine|well)|(is|are) working)\b|(?i)\b(is|are) in[.,;:]|^- Files changed:|^#{2,4} .* \(session [0-9a-f]+\)$`)

// Boundary is the check of one pack: what the session starting there
// should have received and what it did.
type Boundary struct {
	Session    string   `json:"session"`
	Expected   int      `json:"expected"`
	Found      []string `json:"found"`
	Missed     []string `json:"missed"`
	Stale      int      `json:"stale"`                 // stale facts checked
	StaleFound []string `json:"stale_found,omitempty"` // presented as current
	// StaleLines are the pack lines that presented them, in StaleFound's order.
	StaleLines []string `json:"stale_lines,omitempty"`
	// Labelled counts the labelled lines ("Root cause: …") that state
	// a fact found; Mislabelled those of them whose label does not fit
	// the fact's kind (labelFits), such as a remedy shown as a root
	// cause.
	Labelled    int      `json:"labelled"`
	Mislabelled []string `json:"mislabelled,omitempty"` // "fact id: line"
	Tokens      int      `json:"tokens"`
}

// Score is one kind of pack (cairn's, or a baseline) over the boundaries
// of a project, or of several.
type Score struct {
	Expected   int `json:"expected"`
	Found      int `json:"found"`
	Stale      int `json:"stale"`
	StaleFound int `json:"stale_found"`
	Packs      int `json:"packs"`
	Tokens     int `json:"tokens"` // summed over the packs
	// Labelled and Mislabelled are the Boundaries' labelled lines that
	// state a fact found, and those whose label does not fit it.
	Labelled    int        `json:"labelled"`
	Mislabelled int        `json:"mislabelled"`
	Boundaries  []Boundary `json:"boundaries,omitempty"`
}

// Recall is the share of expected facts found.
func (s Score) Recall() float64 { return ratio(s.Found, s.Expected) }

// StaleRate is the share of stale facts presented as current.
func (s Score) StaleRate() float64 { return ratio(s.StaleFound, s.Stale) }

// LabelFit is the share of the labelled lines stating a fact found
// whose label fits the fact's kind.
func (s Score) LabelFit() float64 { return ratio(s.Labelled-s.Mislabelled, s.Labelled) }

// MeanTokens is the mean estimated size of a pack.
func (s Score) MeanTokens() int {
	if s.Packs == 0 {
		return 0
	}
	return (s.Tokens + s.Packs/2) / s.Packs
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func (s *Score) add(o Score) {
	s.Expected += o.Expected
	s.Found += o.Found
	s.Stale += o.Stale
	s.StaleFound += o.StaleFound
	s.Packs += o.Packs
	s.Tokens += o.Tokens
	s.Labelled += o.Labelled
	s.Mislabelled += o.Mislabelled
}

// score checks the pack of every non-clear session after the first
// against the facts of the sessions before it (testdata/recall/README.md).
// pack returns what session k received; ids maps a session's short id,
// as a pack's heading names it, to its index in sc (nil: none known).
func score(sc *Scenario, pack func(k int) string, ids map[string]int) Score {
	var out Score
	for k, s := range sc.Sessions {
		if k == 0 || s.Clear {
			continue
		}
		text := pack(k)
		lines := shown(text, ids)
		b := Boundary{Session: s.Name, Tokens: indexer.EstimateTokens(text)}
		last := -1 // the last non-clear session before k
		for j := k - 1; j >= 0; j-- {
			if !sc.Sessions[j].Clear {
				last = j
				break
			}
		}
		for j := range k {
			for _, f := range sc.Sessions[j].Facts {
				switch {
				case f.Until != "" && sc.index(f.Until) < k:
					b.Stale++
					past := history
					if f.Kind == "open" {
						past = done
					}
					until := sc.index(f.Until)
					if l, ok := matchLine(lines, f.stale, past, until, successors(f, sc.Sessions[until].Facts)...); ok {
						b.StaleFound = append(b.StaleFound, f.ID)
						b.StaleLines = append(b.StaleLines, l)
					}
				case f.Scope == "durable" || j == last:
					b.Expected++
					if _, ok := matchLine(lines, f.match, nil, -1); ok {
						b.Found = append(b.Found, f.ID)
						checkLabels(&b, lines, f)
					} else {
						b.Missed = append(b.Missed, f.ID)
					}
				}
			}
		}
		out.Boundaries = append(out.Boundaries, b)
		out.add(Score{Expected: b.Expected, Found: len(b.Found), Stale: b.Stale, StaleFound: len(b.StaleFound), Packs: 1, Tokens: b.Tokens, Labelled: b.Labelled, Mislabelled: len(b.Mislabelled)})
	}
	return out
}

// sessionIDs maps the short id of each session of recs (as a pack's
// heading names it) to the session's index in sc: the id its hook calls
// carry, or its transcript's.
func sessionIDs(sc *Scenario, recs map[string]*Recorded) map[string]int {
	ids := map[string]int{}
	for k, s := range sc.Sessions {
		r := recs[s.Name]
		if r == nil {
			continue
		}
		var id struct {
			Hook  string `json:"session_id"`
			Lines string `json:"sessionId"`
		}
		for _, c := range r.Calls {
			if json.Unmarshal(c.Payload, &id) == nil && id.Hook != "" {
				break
			}
		}
		if id.Hook == "" {
			first, _, _ := bytes.Cut(r.Transcript, []byte("\n"))
			_ = json.Unmarshal(first, &id)
			id.Hook = id.Lines
		}
		if id.Hook != "" {
			ids[memory.ShortSession(id.Hook)] = k
		}
	}
	return ids
}

// A line is a pack line as the judge reads it.
type line struct {
	full string // as the pack shows it
	// text is what the line states: a list entry without the pointer
	// after it ("(decision, Dec 7, id 8FG8DW13)", "(session 3a3d545f)"),
	// whose random id once "stated" a fact matched by `4G`.
	text string
	// from is the index of the scenario session whose heading the line
	// stands under, or -1.
	from int
}

// pointer is what a pack puts after a core item, an open item or a
// search hit to say where it comes from.
var pointer = regexp.MustCompile(`\s\((?:[^()]*, )?(?:id [0-9A-Za-z]+|session [0-9A-Za-z-]+|[^()\s]+:\d+-\d+)\)$`)

// heading is a session's heading in a pack, and the short id it names.
var heading = regexp.MustCompile(`^#{3,4} .*\(session ([0-9A-Za-z-]+)[,;)]`)

// shown returns the lines of pack that present memory: the closing
// list of what was left out names a few titles cut at 50 characters as
// pointers, which tell a fact no more than they show one stale. ids
// tells which session a heading names (score).
func shown(pack string, ids map[string]int) []line {
	var out []line
	from := -1
	for _, l := range strings.Split(pack, "\n") {
		switch {
		case strings.HasPrefix(l, "_Left out"):
			continue
		case strings.HasPrefix(l, "## "):
			from = -1
		case strings.HasPrefix(l, "### "):
			from = -1
			if m := heading.FindStringSubmatch(l); m != nil {
				if k, ok := ids[m[1]]; ok {
					from = k
				}
			}
		}
		text := l
		if strings.HasPrefix(l, "- ") {
			text = pointer.ReplaceAllString(l, "")
		}
		out = append(out, line{full: l, text: text, from: from})
	}
	return out
}

// matchLine returns the first line that matches every regexp; a line
// that past matches (it speaks of the value as past) does not count,
// nor one that states one of the facts that replaced it (news): "the
// Storybook owns 3000 now, so the dev server runs on 3100" tells the
// change, and shows 3000 as what was. Nor does a line under the heading
// of the session that made the change (until) or of a later one: "my
// other worker runs wrangler dev on 8787 too, so give this one its own
// port" is that session's account of the change, not 8787 as current
// (until < 0: no such session).
func matchLine(lines []line, res []*regexp.Regexp, past *regexp.Regexp, until int, news ...Fact) (string, bool) {
	for _, l := range lines {
		if past != nil && past.MatchString(l.full) {
			continue
		}
		if until >= 0 && l.from >= until {
			continue
		}
		if states(l.text, news) {
			continue
		}
		if all(l.text, res) {
			return l.full, true
		}
	}
	return "", false
}

// successors are the facts of the session that ended f that speak of
// what f speaks of: their texts share a word of four letters or more.
// An unrelated fact of that session ("the golden set is in
// eval/golden.yaml") says nothing of f's line.
func successors(f Fact, facts []Fact) []Fact {
	words := map[string]bool{}
	for _, w := range wordRE.FindAllString(strings.ToLower(f.Text), -1) {
		if !common[w] {
			words[w] = true
		}
	}
	var out []Fact
	for _, g := range facts {
		for _, w := range wordRE.FindAllString(strings.ToLower(g.Text), -1) {
			if words[w] {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// common are words that say nothing of what a fact is about.
var common = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`with that this from into have will uses used goes when there then them they what which only also
		still next each runs does done should must about after before because since their than these those were been being`) {
		m[w] = true
	}
	return m
}()

// wordRE is a word that can say what a fact is about.
var wordRE = regexp.MustCompile(`[a-z0-9][a-z0-9_.-]{3,}`)

// states reports whether line l states one of facts (all of its match
// expressions match it).
func states(l string, facts []Fact) bool {
	for _, f := range facts {
		if len(f.match) > 0 && all(l, f.match) {
			return true
		}
	}
	return false
}

func all(l string, res []*regexp.Regexp) bool {
	for _, re := range res {
		if !re.MatchString(l) {
			return false
		}
	}
	return true
}

func (sc *Scenario) index(name string) int {
	for i, s := range sc.Sessions {
		if s.Name == name {
			return i
		}
	}
	return len(sc.Sessions)
}

func (sc *Scenario) fact(id string) *Fact {
	for i := range sc.Sessions {
		for j := range sc.Sessions[i].Facts {
			if sc.Sessions[i].Facts[j].ID == id {
				return &sc.Sessions[i].Facts[j]
			}
		}
	}
	return nil
}

// tailBaseline is the second baseline's pack for session k: the last
// 6,000 characters of the conversation of the last non-clear session
// before it, as plain text.
func tailBaseline(sc *Scenario, recs map[string]*Recorded, k int) string {
	for j := k - 1; j >= 0; j-- {
		if s := sc.Sessions[j]; !s.Clear {
			return tail(render(recs[s.Name].Transcript), tailChars)
		}
	}
	return ""
}

// render is a plain-text rendering of a Claude Code transcript: the
// user's prompts, the assistant's text, the tool calls and their output.
func render(tr []byte) string {
	p := transcript.ParseClaude(tr, transcript.Options{Final: true})
	var b strings.Builder
	for _, e := range p.Events {
		var line string
		switch e.Kind {
		case transcript.KindUserPrompt:
			line = "User: " + firstOf(e.Text, e.Command)
		case transcript.KindAssistantText:
			line = "Assistant: " + e.Text
		case transcript.KindToolCall:
			line = "Tool call: " + e.Call.Summary
		case transcript.KindToolResult:
			line = e.Result.Output
		default:
			continue
		}
		b.WriteString(strings.TrimRight(line, "\n"))
		b.WriteByte('\n')
	}
	return b.String()
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// tail is the last n characters of s.
func tail(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := len(s)
	for c := 0; c < n; c++ {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}

// labelKinds are the kinds of fact each session-bullet label fits: a
// root cause shows a root cause, a decision what was chosen and what
// holds because of it, a preference what the user wants done.
var labelKinds = map[string][]string{
	"Root cause": {"root-cause"},
	"Rejected":   {"rejected"},
	"Decision":   {"decision", "reason", "environment", "outcome", "preference", "request", "rejected"},
	"Preference": {"preference", "decision", "environment", "request", "rejected"},
}

// checkLabels counts in b the labelled lines that state fact f, and
// notes those whose label does not fit its kind.
func checkLabels(b *Boundary, lines []line, f Fact) {
	for _, sl := range lines {
		l := sl.text
		label, _, ok := strings.Cut(strings.TrimPrefix(l, "- "), ": ")
		kinds, labelled := labelKinds[label]
		if !ok || !strings.HasPrefix(l, "- ") || !labelled || !all(l, f.match) {
			continue
		}
		b.Labelled++
		if !slices.Contains(kinds, f.Kind) {
			b.Mislabelled = append(b.Mislabelled, f.ID+": "+sl.full)
		}
	}
}
