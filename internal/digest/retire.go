package digest

import (
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/gone"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/digest/quantity"
	"github.com/cairn-mem/cairn/internal/digest/replace"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/shellcmd"
)

// A fact stated once stays in memory after it changed: the core item
// that says the API listens on 3001 outlives the session that moved it
// to 4100, and so does the older session's bullet. Consolidation retires
// what it can tell is the same subject; the pack looks again, over every
// statement it may show, and never presents one as current when a newer
// statement about the same topic announces a change or gives the same
// setting another value.

// A Statement is what the pack may show: a core item's title or a
// session's bullet. rank orders statements by age: the
// index of their session among the pack's sessions, newest first, so a
// smaller rank is newer.
type Statement struct {
	Text string
	Rank int
	keys map[string]bool
	// What the text says, read once when the statement is added: every
	// older sentence is checked against every newer statement.
	change   *change.Change
	state    int // change.State
	claim    *prose.Claim
	settings map[string]string
	bare     map[string]string // prose.BareSettings
	versions map[string]string
	// replaced are the code values a command replaced in place.
	replaced   []string
	quantities []quantity.Quantity
	// removed are the keys of what the statement says was taken out:
	// "Hilt is out", "ripped out `node-fetch`".
	removed []string
	named   map[string]string // prose.Named
	tools   map[string]string // change.Tools
	// nowNoun and nowValue: "the publisher is quill-lang now" (change.NowIs)
	nowNoun, nowValue string
	edit              *replace.Edit // a file's line given another value
	was               string        // the line a replacement replaced (Sources)
	line              string        // was, when it sets a value (replace.SettingLine)
	// own marks a copy of a replacement read against its own session's
	// statements, which are older than what the session did: only the
	// versions it replaced, only for statements of its rank.
	own bool
	// gone is a file a command deleted or moved away (gone.Files).
	gone string
	// renamed is a name in code a command gave another name:
	// TriggerHandler once `s/\bTriggerHandler\b/LumenTriggerHandler/g`
	// or `git mv TriggerHandler.cls LumenTriggerHandler.cls`.
	renamed, renamedTo string
	// swapped is a package a dependency pin gave way to another:
	// zstandard once `s/zstandard==0.23.0/lz4==4.3.3/`.
	swapped string
	// hostPort is the port a line gave up: 3000 once the mapping
	// "3000:3000" became "3001:3000", 8080 once "http://127.0.0.1:8080"
	// became "http://127.0.0.1:8081".
	hostPort *replace.Port
	// minWas is the lower bound a version constraint gave up: 11.3 once
	// ">=11.3.0" became ">=11.5.0".
	minWas *replace.Bound
	done   bool // read has run
	// paths and dirs: the absolute and versioned paths it names (pathsOf)
	paths     [][]string
	dirs      map[string]string
	pathsRead bool
	// flags and works: the level flags it gives and the things it says
	// work now (flagsAndWorks)
	flags     map[string]string
	works     []map[string]bool
	worksRead bool
	// durations: how long the things its clauses name last (durationsOf)
	durations []prose.Claim
	durRead   bool
}

// durationsOf reads how long the things the statement's clauses name
// last, once.
func (st *Statement) durationsOf() []prose.Claim {
	if !st.durRead {
		st.durRead = true
		st.durations = prose.Durations(st.Text)
	}
	return st.durations
}

// flagsAndWorks reads the level flags the statement gives (-O3) and the
// things it says work now, once: asked for each older sentence that
// gives a flag or states a problem.
func (st *Statement) flagsAndWorks() (map[string]string, []map[string]bool) {
	if !st.worksRead {
		st.worksRead = true
		st.flags, st.works = change.Flags(st.Text), change.Works(st.Text)
	}
	return st.flags, st.works
}

// pathsOf reads the paths the statement names, once: an older sentence
// with a path meets every newer statement that shares a word with it.
func (st *Statement) pathsOf() ([][]string, map[string]string) {
	if !st.pathsRead {
		st.pathsRead = true
		st.paths, st.dirs = prose.AbsPaths(st.Text), prose.VersionedDirs(st.Text)
	}
	return st.paths, st.dirs
}

// read reads what the statement says beyond its keys and settings, once:
// in a large memory most statements never meet a sentence they could
// retire.
func (st *Statement) read() {
	if st.done {
		return
	}
	st.done = true
	st.change, st.state, st.versions = change.Of(st.Text), change.State(st.Text), prose.Versions(st.Text)
	st.quantities, st.removed, st.named = quantity.Of(st.Text), change.Removed(st.Text), prose.Named(st.Text)
	st.tools = change.Tools(st.Text)
	st.nowNoun, st.nowValue = change.NowIs(st.Text)
}

// factClaim is what the statement claims as a fact, read on first use.
func (st *Statement) factClaim() *prose.Claim {
	if st.claim == nil {
		cl := prose.FactClaim(st.Text)
		st.claim = &cl
	}
	return st.claim
}

// Retirer decides which statements a newer one retires.
type Retirer struct {
	stmts []Statement
	df    map[string]int
	// distinct counts the statements df counted: each thing said once.
	distinct int
	// changed holds, per statement order, the files a session changed.
	changed map[int][]string
	// byKey lists the statements that hold each key; always those that
	// may retire a sentence without a key in common (a setting given
	// another value, a command's replacement).
	byKey  map[string][]int
	always []int
	// byText finds the statement of a text, whose reading a check of
	// the same text (a core item's title) takes instead of its own.
	byText map[string]int
	// mark, pass and cand are candidates' scratch space, reused from one
	// sentence to the next: a Retirer serves one pack, in one goroutine.
	mark []int
	pass int
	cand []int
	// rd holds readings of texts made by earlier packs (Readings).
	rd *Readings
	// trace records what answers read, while Traced runs.
	trace *Trace
}

// NewRetirer gathers the statements of core items (title and rank) and
// of the sessions' bullets.
func NewRetirer(core []Statement, sums []*Summary) *Retirer {
	return NewRetirerWith(nil, core, sums)
}

// NewRetirerWith is NewRetirer taking the readings of the texts rd holds
// instead of reading them again.
func NewRetirerWith(rd *Readings, core []Statement, sums []*Summary) *Retirer {
	n := len(core)
	for _, d := range sums {
		for _, bullets := range d.Parts {
			n += len(bullets)
		}
	}
	// Sized for what they will hold: at 5,000 core titles, growing them
	// was a third of building the retirer.
	r := &Retirer{df: make(map[string]int, 2*n), changed: make(map[int][]string), byText: make(map[string]int, n), rd: rd, stmts: make([]Statement, 0, n)}
	for _, c := range core {
		r.add(c.Text, order(c.Rank, false))
	}
	var away []Statement
	for k, d := range sums {
		for p, bullets := range d.Parts {
			if p == Commands {
				for _, b := range bullets {
					r.addSubstitution(b, order(k, false))
					// Its own session's statements are older than what it
					// did: "cargo audit flagged sqlx 0.7.4" once its sed
					// made it 0.8.2.
					r.addOwnSubstitution(b, order(k, false))
					for _, st := range shellcmd.Steps(commandOf(b)) {
						if file, v, ok := replace.WritesValue(st); ok {
							r.add(file+" is "+v+".", order(k, false)) // printf '22.11.0\n' > .nvmrc
						}
					}
					deleted, moved := gone.Files(commandOf(b))
					for _, f := range deleted {
						away = append(away, Statement{Text: "rm " + f, Rank: order(k, false), gone: f, done: true})
					}
					for _, f := range moved {
						away = append(away, Statement{Text: "mv " + f, Rank: order(k, false), gone: f, done: true})
					}
					for _, rn := range gone.Renamed(commandOf(b)) {
						r.stmts = append(r.stmts, Statement{Text: "mv " + rn[0], Rank: order(k, false), renamed: rn[0], renamedTo: rn[1], done: true})
					}
				}
				continue
			}
			if p == Files {
				for _, b := range bullets {
					r.changed[order(k, false)] = append(r.changed[order(k, false)], ChangedFile(b))
					for _, m := range editedLine.FindAllStringSubmatch(b, -1) {
						r.addReplacement(m[1], m[2], order(k, false))
					}
				}
				continue
			}
			if p == Read || p == Errors {
				continue
			}
			for _, b := range bullets {
				r.add(b, order(k, p == Request))
			}
		}
	}
	r.addMovedValues()
	// A file deleted and written again, by the same session or a
	// newer one, is there still.
	for _, st := range away {
		if !r.changedSince(st.gone, st.Rank+1) {
			r.stmts = append(r.stmts, st)
		}
	}
	r.countKeys()
	return r
}

// addMovedValues adds, for each thing a statement says was moved to a
// named system ("we also moved RPC to Helius"), the code value an older
// statement gave it ("the RPC we use is https://api.devnet.solana.com")
// as a value replaced then, which retires what else names it ("devnet
// uses https://api.devnet.solana.com"), as a sed's replaced value does.
func (r *Retirer) addMovedValues() {
	var moved []Statement
	for i := range r.stmts {
		n := &r.stmts[i]
		if n.keys == nil {
			continue
		}
		noun, to := change.MovedTo(n.Text)
		if noun == "" {
			continue
		}
		st := Statement{Text: n.Text, Rank: n.Rank, done: true}
		for j := range r.stmts {
			x := &r.stmts[j]
			if x.Rank <= n.Rank || x.keys == nil || !strings.Contains(strings.ToLower(x.Text), noun) {
				continue
			}
			if v := strings.TrimRight(change.ValueOf(x.Text, noun), "."); v != "" && v != to && distinctValue(v) && !slices.Contains(st.replaced, v) {
				st.replaced = append(st.replaced, v)
			}
		}
		if len(st.replaced) > 0 {
			moved = append(moved, st)
		}
	}
	r.stmts = append(r.stmts, moved...)
}

// order places a statement of a session of the given rank in time: what
// a session was asked (its requests, its title) comes before what it
// did, so "115200 is a bottleneck, move the link to 921600" is retired
// by the same session's change.
func order(rank int, asked bool) int {
	if asked {
		return 2*rank + 1
	}
	return 2 * rank
}

// add adds a statement: a bullet or a title, whose sentences together
// say what it is about, and which asks nothing.
func (r *Retirer) add(text string, rank int) {
	var stated []string
	for _, x := range Sentences(text) {
		if !change.IsQuestion(x) {
			stated = append(stated, x)
		}
	}
	text = strings.Join(stated, " ")
	// What finds a statement's candidates is read now; the rest when
	// a check first meets it (read).
	st := r.rd.statement(text, rank)
	if _, ok := r.byText[text]; !ok {
		r.byText[text] = len(r.stmts)
	}
	r.stmts = append(r.stmts, st)
}

// countKeys counts, per key, the statements that hold it, each thing
// said once: a core item's title repeats the bullet it came from, and an
// outcome that is also a decision is said twice, which would make the
// words of every consolidated fact look common and no topic distinct.
// A statement whose words another one of its session holds in a row is
// not counted, nor one said word for word before.
func (r *Retirer) countKeys() {
	r.byKey = make(map[string][]int, 2*len(r.stmts))
	for i := range r.stmts { // by index: a Statement is a large copy
		if always(&r.stmts[i]) {
			r.always = append(r.always, i)
		}
		for k := range r.stmts[i].keys {
			r.byKey[k] = append(r.byKey[k], i)
		}
	}
	count := counted(len(r.stmts), func(i int) (string, int, bool) {
		st := &r.stmts[i]
		return st.Text, st.Rank, st.keys != nil
	})
	for i, ok := range count {
		if !ok {
			continue
		}
		r.distinct++
		for k := range r.stmts[i].keys {
			r.df[k]++
		}
	}
}

// counted reports which of n statements (text, rank and whether it has
// keys, by index) df counts: a statement with keys, once per wording,
// and not when another of its session holds its words in a row. The
// retirer counts its statements so, and Counted a carried trace's.
func counted(n int, at func(i int) (text string, rank int, keyed bool)) []bool {
	words := make([]string, n)
	ranks := make([]int, n)
	keyed := make([]bool, n)
	bySession := map[int][]int{}
	for i := range n {
		var text string
		text, ranks[i], keyed[i] = at(i)
		words[i] = spacedWords(text)
		bySession[ranks[i]/2] = append(bySession[ranks[i]/2], i)
	}
	out := make([]bool, n)
	said := make(map[string]bool, n)
	for i := range n {
		if !keyed[i] || said[words[i]] {
			continue
		}
		said[words[i]] = true
		// A session has tens of statements; the core items of sessions
		// the pack does not show may be thousands, and are compared
		// word for word only.
		if same := bySession[ranks[i]/2]; len(same) <= maxRepeatScan && repeated(words, i, same) {
			continue
		}
		out[i] = true
	}
	return out
}

// candidates are the statements that may retire a sentence of keys xk,
// in order: every test but a setting's value and a command's
// replacement needs a key in common, and a pack checks thousands of
// sentences against hundreds of statements.
func (r *Retirer) candidates(xk map[string]bool) []int {
	if len(r.mark) != len(r.stmts) {
		r.mark = make([]int, len(r.stmts))
	}
	r.pass++
	out := r.cand[:0]
	add := func(i int) {
		if r.mark[i] != r.pass {
			r.mark[i] = r.pass
			out = append(out, i)
		}
	}
	for _, i := range r.always {
		add(i)
	}
	kin := false
	for k := range xk {
		for _, i := range r.byKey[k] {
			add(i)
		}
		if d := change.DepKin(k); d != nil && !kin {
			kin = true // "feel free to add libraries" for "ask me before adding any dependency"
			for _, k := range d {
				for _, i := range r.byKey[k] {
					add(i)
				}
			}
		}
	}
	if len(out) > len(r.stmts)/32 {
		// Many: reading the marks in order costs less than sorting.
		out = out[:0]
		for i, m := range r.mark {
			if m == r.pass {
				out = append(out, i)
			}
		}
	} else {
		slices.Sort(out)
	}
	r.cand = out
	return out
}

// spacedWords is s's words (runs of letters and digits) in lower case,
// each with a space before and after: in one pass over an ASCII text, as
// countKeys reads thousands of them.
func spacedWords(s string) string {
	b := make([]byte, 0, len(s)+2)
	b = append(b, ' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return " " + strings.Join(strings.FieldsFunc(strings.ToLower(s), func(c rune) bool {
				return !unicode.IsLetter(c) && !unicode.IsDigit(c)
			}), " ") + " "
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			b = append(b, c)
		case b[len(b)-1] != ' ':
			b = append(b, ' ')
		}
	}
	if b[len(b)-1] != ' ' || len(b) == 1 {
		b = append(b, ' ')
	}
	return string(b)
}

// maxRepeatScan bounds the statements of one session compared with each
// other in pairs.
const maxRepeatScan = 400

// repeated reports whether another of the statements in same holds the
// words of statement i in a row, the longer one counting.
func repeated(words []string, i int, same []int) bool {
	if len(words[i]) < 3 {
		return false
	}
	for _, j := range same {
		if w := words[j]; len(w) > len(words[i]) && strings.Contains(w, words[i]) {
			return true
		}
	}
	return false
}

// addSubstitution adds what a command that replaces text in a file
// changes: the settings it gives ("sed -i 's/retry_after' =>
// 90/retry_after' => 300/'" sets retry_after to 300), and the code
// values it replaces ("s/baud=115200/baud=921600/" replaces 115200).
// The rest of a command is no statement about the project.
func (r *Retirer) addSubstitution(cmd string, rank int) {
	for _, rep := range replace.Pairs(cmd) {
		r.addReplacement(rep[0], rep[1], rank)
	}
}

// addOwnSubstitution adds, for the statements of the command's own
// session (of rank), the versions it replaced.
func (r *Retirer) addOwnSubstitution(cmd string, rank int) {
	for _, rep := range replace.Pairs(cmd) {
		st := Statement{Text: rep[1], Rank: rank, done: true, was: rep[0], own: true}
		nowT := change.CodeTokens(rep[1])
		for _, t := range change.CodeTokens(rep[0]) {
			if change.IsVersion(t) && !slices.Contains(nowT, t) {
				st.replaced = append(st.replaced, t)
			}
		}
		if len(st.replaced) > 0 && !strings.HasSuffix(rep[1], "…") {
			r.stmts = append(r.stmts, st)
		}
	}
}

// replacedIn reports whether x (keys xk) names a version replacement n
// took out and none it put in. Only a version: a session's own edit of
// code ("PostAsync" became "SendAsync") is its work, not a value its
// statements gave.
func replacedIn(x string, xk map[string]bool, n *Statement) bool {
	for _, v := range n.replaced {
		if xk[v] || hasValue(x, v) {
			return !namesNew(x, n)
		}
	}
	return false
}

// namesNew reports whether x names a value replacement n put in: x tells
// of the change ("bumped sqlx from 0.7.4 to 0.8.2"), not of the state
// before it.
func namesNew(x string, n *Statement) bool {
	was := change.CodeTokens(n.was)
	for _, t := range change.CodeTokens(n.Text) {
		if len(t) > 2 && !slices.Contains(was, t) && hasValue(x, t) {
			return true
		}
	}
	return false
}

// addReplacement adds what replacing line was with now in a file changes:
// the settings now gives, the code values it replaces, and, when the two
// differ in one value ("reminders: 10" became "reminders: 3"), that value
// of what the rest of the line names.
func (r *Retirer) addReplacement(was, now string, rank int) {
	st := Statement{Text: now, Rank: rank, settings: prose.Settings(now), done: true, was: was}
	if !strings.HasSuffix(now, "…") { // a cut text may hold the rest of was further on
		nowT := change.CodeTokens(now)
		for _, t := range change.CodeTokens(was) {
			if !slices.Contains(nowT, t) && len(t) > 2 {
				st.replaced = append(st.replaced, t)
			}
			// The value in a longer token: v1.4.0 of
			// acme-pipeline-lib@v1.4.0, once it is @v2.0.0. A number
			// alone is no such value: 8545 of http://127.0.0.1:8545 is
			// a port, which "hardhat also wants 8545" gives another
			// thing.
			for _, v := range replace.ValueParts(t) {
				if v != t && distinctValue(v) && !change.IsNumber(v) && !strings.Contains(strings.ToLower(now), v) && !slices.Contains(st.replaced, v) {
					st.replaced = append(st.replaced, v)
				}
			}
		}
	}
	st.edit = replace.EditOf(was, now)
	if lex.CodeName(was) && lex.CodeName(now) && was != now {
		st.renamed, st.renamedTo = was, now
	}
	if a, b := replace.Pinned(was), replace.Pinned(now); a != "" && b != "" && a != b && len(a) >= 3 {
		st.swapped = a
	}
	st.hostPort = replace.HostPort(was, now)
	st.minWas = replace.LowerBound(was, now)
	st.line = replace.SettingLine(was, now)
	if len(st.settings) > 0 || len(st.replaced) > 0 || st.edit != nil || st.renamed != "" || st.swapped != "" || st.hostPort != nil || st.minWas != nil || st.line != "" {
		r.stmts = append(r.stmts, st)
	}
}

// editedLine is a line an edit replaced, as a summary's list of changed
// files gives it: "config/config.exs (edited: `reminders: 3` → `reminders:
// 15`)".
var editedLine = lazyre.New("`([^`]+)` → `([^`]+)`")

// distinctShare is the largest share of the statements a key may appear
// in and still say what a statement is about; in a small memory, a few
// (a fact, its core item, the outcome that did it) always may.
const distinctShare = 0.1

func (r *Retirer) limit() int { return limitOf(r.distinct) }

func limitOf(distinct int) int { return max(4, int(distinctShare*float64(distinct))) }

// asideLimit is the most statements a key of the looser tests (near,
// aside and the like) may appear in: asideShare of them, or four.
func (r *Retirer) asideLimit() int { return asideLimitOf(r.distinct) }

func asideLimitOf(distinct int) int { return max(4, int(asideShare*float64(distinct))) }

// sameTopic reports whether statements a and b are about the same thing:
// they share at least two distinctive keys, words or code tokens that
// few of this memory's statements hold.
func (r *Retirer) sameTopic(a, b map[string]bool) bool {
	return r.shared(a, b, r.limit(), nil) >= 2
}

// topicKeysOf returns the keys of a that sameTopic counts, never nil:
// sameTopic(a, b) is sameTopicOf(r.topicKeysOf(a), b).
func (r *Retirer) topicKeysOf(a map[string]bool) []string {
	out := []string{}
	limit := r.limit()
	for k := range a {
		if r.df[k] <= limit && len(k) > 2 {
			out = append(out, k)
		}
	}
	return out
}

// sameTopicOf reports whether b holds two or more of keys.
func sameTopicOf(keys []string, b map[string]bool) bool {
	n := 0
	for _, k := range keys {
		if b[k] {
			if n++; n >= 2 {
				return true
			}
		}
	}
	return false
}

// near reports whether statements a and b share two keys that a fifth
// of the statements hold at most: a looser topic test, for a change that
// names the very value a statement gives.
func (r *Retirer) near(a, b map[string]bool) bool {
	return r.shared(a, b, r.asideLimit(), nil) >= 2
}

// shared counts the keys of more than two characters that a and b both
// hold, that at most limit statements hold, and that also, when it is
// given, pass keep.
func (r *Retirer) shared(a, b map[string]bool, limit int, keep func(k string) bool) int {
	n := 0
	for k := range a {
		if b[k] && r.df[k] <= limit && len(k) > 2 && (keep == nil || keep(k)) {
			n++
		}
	}
	return n
}

// otherVersionOf reports whether statement n gives a thing that x
// (versions xv, keys xk) names another version, and says nothing of x's
// version, while the two share a distinctive word besides: "the Gradle
// toolchain with Java 17" and "the toolchain is Java 21 now" are one
// matter; "deployment target iOS 16" and "the simulator runs iOS 17.4"
// are two.
func (r *Retirer) otherVersionOf(xv map[string]string, xk map[string]bool, n *Statement) bool {
	for name, v := range xv {
		w, ok := n.versions[name]
		if !ok || w == v || n.keys[v] {
			continue
		}
		if prose.Bumped(n.Text, name, w) || n.change != nil || change.SaysNow(n.Text) || prose.Upgraded(n.Text, name, v, w) {
			return true // the newer statement moves that very thing to another version, or says it is on another now
		}
		limit := r.asideLimit()
		for k := range xk {
			if n.keys[k] && k != name && k != v && k != w && len(k) > 2 && r.df[k] <= limit && len(change.CodeTokens(k)) == 0 {
				return true
			}
		}
	}
	return false
}

// stillRE marks a state said to hold for now, which the speaker expects
// to change: "db03 is still on CentOS 7", "the client still talks to
// the v1 host", "build with pdflatex for now".
var stillRE = lazyre.New(`(?i)\b(?:still|for now)\b`)

// stillChanged reports whether newer statement n speaks of what x (keys
// xk), a state said to hold for now, is about, and gives it a value x
// does not have: "the weekend crew put Rocky 9 on db03" after "db03 is
// still on CentOS 7". The topic is a distinctive code token both name, or
// two distinctive words.
func (r *Retirer) stillChanged(xk map[string]bool, n *Statement) bool {
	limit := r.asideLimit()
	code, words := false, 0
	for k := range xk {
		if !n.keys[k] || len(k) <= 2 || r.df[k] > limit {
			continue
		}
		if len(change.CodeTokens(k)) > 0 && !change.IsNumber(k) {
			code = true
		} else {
			words++
		}
	}
	if !code && words < 2 {
		return false
	}
	for k := range n.keys {
		if !xk[k] && len(change.CodeTokens(k)) > 0 && !change.IsWord(k) {
			return true
		}
	}
	return false
}

// readFrom is what a file said when it was read: "`.tool-versions`:
// elixir 1.16.3-otp-26" (summarize: manifestVersions).
var readFrom = lazyre.New("^`([^`]+)`: ")

// changedSince reports whether a session newer than rank changed file
// f: what was read from it then may no longer be what it says.
func (r *Retirer) changedSince(f string, rank int) bool {
	for k, files := range r.changed {
		if k >= rank {
			continue
		}
		for _, c := range files {
			if gone.SameFile(f, c) {
				return true
			}
		}
	}
	return false
}

// distinctValue reports whether code value v names one thing, not one
// of many: a number of four digits or more, a version, a path or a host.
func distinctValue(v string) bool {
	return len(v) >= 4 && change.IsNumber(v) || change.IsVersion(v) || strings.ContainsAny(v, "/:") || strings.Count(v, ".") > 0 && len(v) > 4
}

// hasValue reports whether text holds code value v, lower-case, as a
// value of its own: search-dev.internal in http://search-dev.internal:9200,
// not in search-dev.internal.example.
func hasValue(text, v string) bool {
	lower := strings.ToLower(text)
	return lex.HasBounded(lower, v, func(j, end int) bool {
		return (j == 0 || !lex.IsWordByte(lower[j-1]) && lower[j-1] != '-') && (end == len(lower) || !lex.IsWordByte(lower[end]) && lower[end] != '-' && !(lower[end] == '.' && end+1 < len(lower) && lex.IsWordByte(lower[end+1])))
	})
}

// asideShare is the largest share of the statements a word two
// statements share besides a change's values may appear in: the topic is
// settled by distinctive keys already, so a commoner word ("filters", in
// a dashboard's memory) says the change is about this use of the values.
const asideShare = 0.2

// aside reports whether statements a and b share a distinctive key
// besides the values change c names: "the Zustand store holds the
// filters" and "filters now live in the URL instead of the Zustand store"
// share "filters"; "Argo CD rolls it out" and "add-ons go in Terraform
// rather than Argo CD" share only what was turned down.
func (r *Retirer) aside(a, b map[string]bool, c *change.Change) bool {
	limit := r.asideLimit()
	for k := range a {
		if !b[k] || r.df[k] > limit || len(k) <= 2 {
			continue
		}
		named := false
		for _, v := range slices.Concat(c.Old, c.New) {
			named = named || v[k]
		}
		if !named {
			return true
		}
	}
	return false
}

// planSubject finds what a change of plan is about: "change of plan on
// the queue".
var planSubject = lazyre.New(`(?i)\bchange of plans? (?:on|for|about|regarding|with) (?:the |our )?([\w-]+(?: [\w-]+)?)`)

// properName is a name written with a capital inside a sentence.
var properName = lazyre.New(`\s([A-Z][\w/.+-]*[\w+])`)

// planOn reports whether change of plan n, about a subject it names,
// replaces what x (keys xk) says of that subject: x holds every word of
// the subject and names a thing, by a capitalised name or in code, that
// n does not (keys nk). "Jobs go through Postgres LISTEN/NOTIFY" goes
// with "change of plan on the queue: let's move to NATS"; "the queue's
// backoff is capped at ten minutes" names nothing a plan replaces.
func planOn(n, x string, xk, nk map[string]bool) bool {
	m := planSubject.FindStringSubmatch(n)
	if m == nil {
		return false
	}
	subject := 0
	for k := range change.TopicKeys(m[1]) {
		if len(k) > 2 {
			if !xk[k] {
				return false
			}
			subject++
		}
	}
	if subject == 0 {
		return false
	}
	for _, p := range properName.FindAllStringSubmatch(x, -1) {
		if k := lex.Key(p[1]); !nk[k] && !nk[strings.ToLower(p[1])] && !lex.StopWords[strings.ToLower(p[1])] {
			return true
		}
	}
	for _, t := range change.CodeTokens(x) {
		if !nk[t] && !change.IsNumber(t) {
			return true
		}
	}
	return false
}

// Retired reports whether a newer statement than one of the given rank
// retires the sentence x: it is about the same topic and announces a
// change that x does not already state (x names what it says was
// replaced, or none of what replaced it), or gives the same setting
// another value.
func (r *Retirer) Retired(x string, rank int) bool {
	return r.retired(x, order(rank, false))
}

// RetiredAsked is Retired for what a session of the given rank was
// asked: its own session's statements are newer.
func (r *Retirer) RetiredAsked(x string, rank int) bool {
	return r.retired(x, order(rank, true))
}

func (r *Retirer) retired(x string, rank int) bool {
	if r == nil {
		return false
	}

	// A file its own session changed after reading it counts too: a
	// session's list of changed files is where it ended.
	f := readFrom.FindStringSubmatch(x)
	if r.trace != nil {
		r.trace.Rank, r.trace.Changed = max(r.trace.Rank, rank), r.trace.Changed || f != nil
	}
	if f != nil && r.changedSince(f[1], rank+1) {
		return true
	}
	// x is a statement itself (a core item's title), or one a cache
	// holds: its reading serves, its keys at once.
	var xst *Statement
	if j, ok := r.byText[x]; ok {
		xst = &r.stmts[j]
	} else {
		xst = r.rd.sentence(x)
	}
	var xk map[string]bool
	if xst != nil {
		xk = xst.keys
	} else {
		xk = change.TopicKeys(x)
	}
	if r.trace != nil { // what the answer read (Traced)
		r.trace.Keys = slices.AppendSeq(r.trace.Keys, maps.Keys(xk))
	}
	// sameTopic's keys of x (those few statements hold), found once
	// rather than for each of thousands of candidates.
	var xTopic []string
	topic := func() []string {
		if xTopic == nil {
			xTopic = r.topicKeysOf(xk)
		}
		return xTopic
	}
	// What x says is read once it has a newer statement to be checked
	// against: most titles of a large memory have none.
	var (
		read, still, xqOK bool
		xStanding         bool // an instruction said to hold
		xs                int
		xc                *change.Change
		xClaim            *prose.Claim
		xSet, xVer, xDirs map[string]string
		xNamed, xTools    map[string]string
		xPorts            []string
		xAllPorts         []string // read once a replacement that gave up a port meets x
		xAllPortsRead     bool
		xSibling, xHome   bool
		xURL, xQuoted     bool
		xFlags            map[string]string
		xProblem          bool
		xq                []quantity.Quantity
		xPaths            [][]string
		xFolders          []string
		xDur              []prose.Claim
		xDurRead          bool
	)
	if from, to, ok := prose.Aim(x); ok {
		// An aim reached shares no word with what reached it: "we're on
		// v1.29.10 and want to get to 1.30" once "all nine nodes report
		// v1.30.6".
		for i := range r.stmts {
			if n := &r.stmts[i]; !n.own && n.Rank < rank && prose.Reached(n.Text, from, to) {
				return true
			}
		}
	}
	for _, i := range r.candidates(xk) {
		n := &r.stmts[i]
		if n.own {
			if rank == n.Rank && replacedIn(x, xk, n) {
				return true
			}
			continue
		}
		if n.Rank >= rank {
			continue
		}
		n.read()
		if !read {
			read = true
			if xst != nil {
				xst.read()
				xc, xs, xSet, xVer, xq, xqOK, xNamed, xTools = xst.change, xst.state, xst.settings, xst.versions, xst.quantities, true, xst.named, xst.tools
			} else {
				xc, xs, xSet, xVer, xNamed, xTools = change.Of(x), change.State(x), prose.Settings(x), prose.Versions(x), prose.Named(x), change.Tools(x)
			}
			still, xDirs, xPaths, xStanding = stillRE.MatchString(x), prose.VersionedDirs(x), prose.AbsPaths(x), change.Standing(x)
			xFolders = change.Folders(x)
			xURL = strings.Contains(x, "://")
			xQuoted = strings.Contains(x, "`")
			if strings.Contains(x, "`") {
				xPorts = prose.Ports(x)
			}
			xSibling, xHome = change.HasSiblingTokens(x), change.HasHome(x)
			xFlags, xProblem = change.Flags(x), change.Problem(x)
		}
		if prose.SettingsConflict(xSet, n.settings) || prose.BareConflict(n.bare, xSet) {
			return true // the newer statement gives the setting another value
		}
		if xNamed != nil && prose.Renamed(xNamed, n.named) {
			return true // the profile lakehouse-stg is lakehouse-stg2 now
		}
		if still && n.keys != nil && r.stillChanged(xk, n) {
			return true
		}
		if n.keys != nil && r.otherVersionOf(xVer, xk, n) {
			return true // the newer statement names another version of the same thing
		}
		if len(xDirs) > 0 || len(xPaths) > 0 {
			nPaths, nDirs := n.pathsOf()
			if len(xDirs) > 0 && prose.OtherVersionDir(xDirs, nDirs) {
				return true // /opt/vulkan/1.3.280 where /opt/vulkan/1.4.304 now is
			}
			if len(xPaths) > 0 && prose.MovedPath(xPaths, nPaths) {
				return true // /scratch/tw/runs/$JOB where /lustre/proj/tw/runs/<jobid> now is
			}
			if len(xPaths) > 0 && prose.OtherVersionPath(xPaths, nPaths) {
				return true // /usr/lib/postgresql/16/bin/pg_config where …/17/… now is
			}
		}
		if xURL && (n.change != nil || change.SaysNow(n.Text)) && prose.MovedURL(x, n.Text) {
			return true // oci://ghcr.io/orbital-io/charts once "charts go to oci://harbor.orbital.internal/charts from now on"
		}
		if len(xFolders) > 0 && change.Moves(n.Text) && change.MovedFolder(xFolders, n.Text) {
			return true // `app/prompts/` once templates moved to `prompts/`
		}
		if len(xFolders) > 0 && change.MovedInto(xFolders, xk, n.Text) {
			return true // "JSON files under connectors/" once the connector JSON moved into deploy/connect/
		}
		for _, k := range n.removed {
			if change.Removes(k, xk, x) && !slices.Contains(change.Removed(x), k) {
				return true // the newer statement took out what x names
			}
		}
		if n.gone != "" {
			if gone.NamesFile(x, n.gone, strings.HasPrefix(n.Text, "rm ")) {
				return true // "runs from cron (ops/crontab.billing)" once `rm ops/crontab.billing`
			}
			continue
		}
		if n.keys == nil {
			if n.renamed != "" && gone.NamesCode(x, n.renamed) && !gone.NamesCode(x, n.renamedTo) {
				return true // "the little TriggerHandler base class" once it is LumenTriggerHandler
			}
			if n.swapped != "" && replace.NamesPackage(x, n.swapped) {
				return true // "msgpack and zstandard wheels" once zstandard==0.23.0 became lz4==4.3.3
			}
			if n.minWas != nil && n.minWas.Says(x) {
				return true // "Grafana 11.3 and up" once ">=11.3.0" became ">=11.5.0"
			}
			if n.hostPort != nil && !xAllPortsRead {
				xAllPorts, xAllPortsRead = prose.Ports(x), true
			}
			if n.hostPort != nil && n.hostPort.Says(x, xAllPorts) {
				return true // "compose publishes Grafana on port 3000" once "3000:3000" became "3001:3000"
			}
			// A command that replaced a value in place retires what
			// names that value: "115200 is a bottleneck" once the link
			// went from 115200 to 921600.
			for _, v := range n.replaced {
				if distinctValue(v) && (xk[v] || hasValue(x, v)) {
					return true
				}
			}
			if n.line != "" && replace.Quotes(x, n.line) && !replace.Quotes(x, n.Text) {
				return true // "the build is ESM-only (formats: ['es'])" once `s/formats: \['es'\]/formats: ['es', 'cjs']/`
			}
			if n.edit != nil && n.edit.Says(x, xk, func(k string) bool { return r.df[k] <= r.asideLimit() }) {
				return true // "runs 3 at a time" once "reminders: 3" became "reminders: 15"
			}
			continue
		}
		if len(xPorts) == 1 && strings.Contains(n.Text, "`") && (n.change != nil || change.SaysNow(n.Text)) && otherPort(x, xPorts[0], n.Text) {
			return true // "`npm run dev` serves it at 127.0.0.1:9292" once "`npm run dev` now serves it on port 9393"
		}
		if xQuoted && strings.Contains(n.Text, "`") && otherArg(x, n.Text) && !otherPlace(x, n.Text) {
			return true // "`script/tally minion worker -j 4`" once it runs "`script/tally minion worker -j 8`"
		}
		if xSibling && (n.change != nil || change.SaysNow(n.Text)) && change.Siblings(x, n.Text) {
			return true // "keeps clips in chrome.storage.sync" once "clips are in chrome.storage.local now"
		}
		if xHome && strings.Contains(n.Text, " now") && change.OtherHome(x, n.Text, func(k string) bool { return r.df[k] <= r.asideLimit() }) {
			return true // "jobs go through Postgres LISTEN/NOTIFY" once "the queue is on NATS JetStream now, stream JOBS"
		}
		if n.nowNoun != "" && change.IsValue(x, n.nowNoun, n.nowValue) && !strings.Contains(strings.ToLower(x), n.nowValue) {
			return true // "the Marketplace publisher is harborlabs" once "the publisher is quill-lang now"
		}
		if xTools != nil && n.tools != nil && change.OtherTool(xTools, n.tools, n.Text) && (n.change != nil || change.SaysNow(n.Text) || r.near(xk, n.keys)) {
			return true // "use Maven for the build" once "let's build the Java side with Gradle"
		}
		if xProblem || xFlags != nil {
			if nFlags, nWorks := n.flagsAndWorks(); xProblem && change.WorksFor(xk, nWorks) {
				return true // "the spider never follows pagination" once "Pagination works: …"
			} else if xFlags != nil && change.OtherFlag(xFlags, nFlags) && r.shared(xk, n.keys, r.limit(), notFlag) > 0 {
				return true // "wasm-opt = ["-Oz"]" once "wasm-opt runs with -O3"
			}
		}
		if xs != 0 && n.state == -xs {
			if c := n.change; c != nil && r.aside(xk, n.keys, c) {
				return true
			}
			if n.change == nil && change.SaysNow(n.Text) && r.near(xk, n.keys) {
				return true // "no SIMD yet" once "you can turn SIMD on now"
			}
		}
		if xClaim == nil {
			if xst != nil {
				xClaim = xst.factClaim()
			} else {
				cl := prose.FactClaim(x)
				xClaim = &cl
			}
		}
		if strings.HasSuffix(xClaim.Subject, " duration") || strings.HasSuffix(xClaim.Subject, " port") || strings.HasSuffix(xClaim.Subject, " content") {
			// How long a named thing lasts, the port it listens on, or
			// what a small file holds is one setting, whatever else the
			// two sentences say.
			if nc := n.factClaim(); otherValue(*xClaim, *nc) || otherDuration(*xClaim, *nc) {
				return true
			}
			if strings.HasSuffix(xClaim.Subject, " content") && strings.Contains(n.Text, ". ") {
				for _, sn := range Sentences(n.Text) {
					if otherValue(*xClaim, prose.FactClaim(sn)) {
						return true // ".nvmrc is 22.11.0" among a list of changes
					}
				}
			}
		}
		if nd := n.durationsOf(); len(nd) > 0 {
			if !xDurRead {
				xDurRead = true
				if xst != nil {
					xDur = xst.durationsOf()
				} else {
					xDur = prose.Durations(x)
				}
			}
			if otherDurations(xDur, nd) {
				return true // "access tokens live 15 minutes, …" once "the access token now lasts one hour"
			}
		}
		if len(n.quantities) > 0 && n.keys != nil {
			if !xqOK {
				xq, xqOK = quantity.Of(x), true
			}
			if u, weak := quantity.Other(xq, n.quantities, xk, n.keys); u != "" && (!weak && r.sharesBesides(xk, n.keys, u, change.SaysNow(n.Text)) || weak && sameTopicOf(topic(), n.keys) || prose.NamesIdent(x, n.Text)) {
				return true // what both count, the newer one counts otherwise
			}
		}
		// A session's request is answered by what the session did: only
		// a change that names what it replaces retires it. So is a
		// standing instruction ("from now on every new env var goes into
		// .env.example"): a change on its topic that does not name it
		// leaves it standing.
		namedOnly := rank%2 == 1 && n.Rank == rank-1 || xStanding
		if !sameTopicOf(topic(), n.keys) {
			if c := n.change; c != nil && xc == nil && r.aside(xk, n.keys, c) {
				if named, shape := c.Names(xk, n.Text); shape || named && r.near(xk, n.keys) {
					return true
				}
				if c.Plan && (r.near(xk, n.keys) || planOn(n.Text, x, xk, n.keys)) && c.Says(xk, xc, namedOnly) {
					return true // "for updates let's use SWUpdate" after "change of plan on updates: let's move to RAUC"
				}
			}
			continue
		}
		if c := n.change; c != nil {
			if r.aside(xk, n.keys, c) && c.Says(xk, xc, namedOnly) && !c.TakenOff(xk, x) {
				return true
			}
			continue
		}
		if otherValue(*xClaim, *n.factClaim()) {
			return true
		}
	}
	return false
}

// otherPort reports whether newer text n gives the thing x serves on
// port p another port: the two name the same command in backquotes,
// and n names ports, not p. The caller has n announce a change: a
// command may serve on two ports at once.
func otherPort(x, p, n string) bool {
	np := prose.Ports(n)
	if len(np) == 0 || slices.Contains(np, p) {
		return false
	}
	for _, m := range quoted.FindAllString(x, -1) {
		if len(m) > 5 && strings.Contains(n, m) {
			return true
		}
	}
	return false
}

// otherArg reports whether newer text n quotes a command that x quotes
// with one number in it changed, and not x's own: the same command line
// run with another count, size or level now.
func otherArg(x, n string) bool {
	xs, ns := quoted.FindAllString(x, -1), quoted.FindAllString(n, -1)
	for _, m := range xs {
		if slices.Contains(ns, m) {
			return false
		}
	}
	for _, m := range xs {
		a := strings.Fields(strings.Trim(m, "`"))
		if len(a) < 3 {
			continue
		}
		for _, q := range ns {
			b := strings.Fields(strings.Trim(q, "`"))
			if differ := prose.OneDiffers(a, b); differ > 0 && argNumber.MatchString(a[differ]) && argNumber.MatchString(b[differ]) {
				return true
			}
		}
	}
	return false
}

// otherPlace reports whether newer text n says where it runs, in words
// outside its code, and x does not say the same: "To reproduce locally,
// run `gunicorn … -w 2`" is no change of production's `-w 8`.
func otherPlace(x, n string) bool {
	xw := lex.ContentWords(quoted.ReplaceAllString(x, " "))
	for w := range lex.ContentWords(quoted.ReplaceAllString(n, " ")) {
		if placeWords[w] && !xw[w] {
			return true
		}
	}
	return false
}

var placeWords = prose.WordSet(`locally local ci production prod staging dev debug debugging reproduce laptop test tests`)

// argNumber is a command's numeric argument, alone or in its flag:
// 4, -j4, --workers=4.
var argNumber = lazyre.New(`^(?:-{1,2}[\w-]*=?)?\d+(?:\.\d+)?$`)

// quoted is a span in backquotes.
var quoted = lazyre.New("`[^`]+`")

// otherValue reports whether two claims give the same setting (a port,
// version, URL, path, host or command of the same thing) different
// values.
func otherValue(a, b prose.Claim) bool {
	if a.Subject == "" || a.Subject != b.Subject || len(a.Values) == 0 || len(b.Values) == 0 {
		return false
	}
	if !strings.ContainsAny(a.Subject, " ") {
		return false // an attribute of nothing named
	}
	for _, v := range a.Values {
		if slices.Contains(b.Values, v) {
			return false
		}
	}
	return true
}

// otherDuration reports whether two durations are of one thing named
// with more words in one of them ("the default rest" and "the rest too
// short, make the default") and differ: every word of the shorter
// name, at least two, is in the longer.
func otherDuration(a, b prose.Claim) bool {
	an, ok1 := strings.CutSuffix(a.Subject, " duration")
	bn, ok2 := strings.CutSuffix(b.Subject, " duration")
	if !ok1 || !ok2 || len(a.Values) == 0 || len(b.Values) == 0 {
		return false
	}
	aw, bw := strings.Fields(an), strings.Fields(bn)
	if len(aw) > len(bw) {
		aw, bw = bw, aw
	}
	if len(aw) < 2 {
		return false
	}
	for _, w := range aw {
		if !slices.Contains(bw, w) {
			return false
		}
	}
	for _, v := range a.Values {
		if slices.Contains(b.Values, v) {
			return false
		}
	}
	return true
}

// otherDurations reports whether a clause of one statement and a clause
// of another give one thing different durations (otherDuration), and no
// clause of the other gives it the same: "live 15 minutes, 30 days with
// remember-me" says 15 minutes still.
func otherDurations(a, b []prose.Claim) bool {
	for _, x := range a {
		other, same := false, false
		for _, y := range b {
			if otherDuration(x, y) {
				other = true
			} else if sameDuration(x, y) {
				same = true
			}
		}
		if other && !same {
			return true
		}
	}
	return false
}

// sameDuration reports whether claim b gives the duration of claim a's
// thing one of a's values.
func sameDuration(a, b prose.Claim) bool {
	for _, v := range b.Values {
		if slices.Contains(a.Values, v) {
			return true
		}
	}
	return false
}

// DropRetired returns s without the sentences a newer statement retires;
// "" if nothing is left.
func (r *Retirer) DropRetired(s string, rank int) string {
	return r.dropRetired(s, order(rank, false))
}

// DropRetiredAsked is DropRetired for what a session of the given rank
// was asked.
func (r *Retirer) DropRetiredAsked(s string, rank int) string {
	return r.dropRetired(s, order(rank, true))
}

func (r *Retirer) dropRetired(s string, rank int) string {
	if r == nil {
		return s
	}
	var kept []string
	dropped := false // a sentence or a clause of one
	sentences := Sentences(s)
	// A short reply ("ok leave it on") takes its topic from the
	// statement around it, less the sentences retired on their own: a
	// reply is not retired with a sentence it does not speak of ("do it,
	// atomic it is" with "for the markdown let's go with markdown-it").
	reply, retiredAt := make([]bool, len(sentences)), make([]bool, len(sentences))
	var around []string
	for i, x := range sentences {
		if reply[i] = isReply(x); !reply[i] {
			if retiredAt[i] = r.retired(x, rank); !retiredAt[i] {
				around = append(around, x)
			}
		}
	}
	for i, x := range sentences {
		check := x
		if reply[i] {
			check = s
			if len(around) > 0 {
				check = x + " " + strings.Join(around, " ")
			}
			retiredAt[i] = r.retired(check, rank)
		}
		if !retiredAt[i] {
			kept = append(kept, x)
			continue
		}
		dropped = true
		if check != x {
			continue
		}
		// A sentence of several clauses keeps those a newer statement
		// does not retire: "the backend runs on 5000, and the
		// deployment target is iOS 16" is still right about iOS 16.
		// So does a list of settings ("account oce042, partition
		// compute, 12 hour limit, output into /scratch/…") keep the
		// items that still hold.
		parts, sep := prose.FullClauses(x), "; "
		if len(parts) < 2 {
			parts, sep = prose.ListItems(x), ", "
		}
		if len(parts) < 2 {
			// "Upload URLs are signed with HS256 and expire after 10
			// minutes": how long they last changed, how they are signed
			// did not.
			if what, howLong, ok := prose.LifetimeTail(x); ok && !r.retired(what, rank) && r.retired(howLong, rank) {
				kept = append(kept, what+".")
			}
			continue
		}
		if len(parts) > 1 {
			gone := make([]bool, len(parts))
			any := false
			for i, c := range parts {
				gone[i] = r.retired(c, rank)
				any = any || gone[i]
			}
			if !any && sep == "; " && len(parts) > 2 {
				// What no clause says alone two neighbours may: "I built
				// it on Node 20.11.1, the version pinned in .nvmrc" once
				// .nvmrc says 22.12.0. Two clauses are the whole, which
				// keeps them both.
				for i := 0; i+1 < len(parts); i++ {
					if r.retired(parts[i]+", "+parts[i+1], rank) {
						gone[i], gone[i+1], any = true, true, true
					}
				}
				// Only when something of its own is left: otherwise the
				// pair is the sentence, which keeps its clauses.
				left := false
				for i, c := range parts {
					left = left || !gone[i] && !pointsBack.MatchString(strings.TrimSpace(c))
				}
				if !left {
					clear(gone)
				}
			}
			var still []string
			for i, c := range parts {
				// "the team knows it" said nothing but why of the
				// clause retired with it.
				if !gone[i] && !pointsBack.MatchString(strings.TrimSpace(c)) && !onlyOfRule(c, parts, gone) {
					still = append(still, c)
				} else if gone[i] {
					// "The build is ESM-only (formats: ['es']), with
					// preserveModules so every component lands in its
					// own file": how it is built still holds.
					if head, with, ok := strings.Cut(c, ", with "); ok && r.retired(head, rank) && !r.retired(with, rank) {
						still = append(still, "with "+with)
					}
				}
			}
			if len(still) > 0 && (sep == "; " || len(still) < len(parts)) {
				t := strings.TrimRight(strings.Join(still, sep), ".")
				if !strings.HasSuffix(t, "?") && !strings.HasSuffix(t, "!") {
					t += "."
				}
				kept = append(kept, prose.Capitalize(t))
			}
		}
	}
	out := strings.Join(kept, " ")
	if dropped && bare(out) {
		return "" // "Good." is all a retired request left
	}
	return out
}

// onlyOfRule reports whether clause c says with "only" the other side
// of a rule a retired clause of its sentence forbade: "deploys only go
// through the GitHub Actions workflow" once "please don't deploy from
// your laptop" was taken back.
func onlyOfRule(c string, parts []string, gone []bool) bool {
	if !onlyWord.MatchString(c) {
		return false
	}
	ck := change.TopicKeys(c)
	for j, p := range parts {
		if !gone[j] || !change.Forbids(p) {
			continue
		}
		for k := range change.TopicKeys(p) {
			if len(k) >= 4 && ck[k] {
				return true
			}
		}
	}
	return false
}

var onlyWord = lazyre.New(`(?i)\bonly\b`)

// notFlag keeps the keys that are no level flag: what two statements
// giving -Oz and -O3 share must be the tool.
func notFlag(k string) bool { return !strings.HasPrefix(k, "-") && len(change.Flags(" -"+k)) == 0 }

// pointsBack is a clause that speaks of what another names: it starts or
// ends with a pronoun, or does "that" ("teams do that themselves").
var pointsBack = lazyre.New(`(?i)^(?:it|it's|they|they're|this|that|these|those|which|so)\b|\b(?:it|them|this|that|one)[.!]?$|\b(?:do|does|did|doing) that\b`)

// bare reports whether s names nothing: fewer than two words of more
// than two characters that say what it is about.
func bare(s string) bool {
	n := 0
	for k := range change.TopicKeys(s) {
		if len(k) > 2 {
			n++
		}
	}
	return n < 2
}

// reply matches a short answer that names its topic by a pronoun: "ok
// keep it on", "turn them off".
var reply = lazyre.New(`(?i)\b(?:it|them|that|this)\b`)

// isReply reports whether sentence x is a short reply whose topic lies in
// the statement around it: a pronoun, and fewer than two words of its
// own to say what it is about.
func isReply(x string) bool {
	return bare(x) && reply.MatchString(x)
}

// Title is a session's title as the heading of a session of the given
// rank shows it: a title that states what a newer statement changed
// ("115200 is a bottleneck" once the link runs at 921600) would present
// it as current, so it keeps what is still true, or says only that it
// is a session.
func (r *Retirer) Title(title string, rank int) string {
	if t := r.DropRetiredAsked(title, rank); t != "" {
		return t
	}
	return "Session"
}

// sharesBesides reports whether keys a and b share a word besides unit
// (a unitKey) that few statements hold: "keeps 7 daily" and "keeps 14
// dailies" are one setting, "7 days of logs" and "14 days of
// snapshots" two. A count said to be so now is a change, and a word a
// fifth of the statements hold says enough.
func (r *Retirer) sharesBesides(a, b map[string]bool, unit string, now bool) bool {
	limit := r.limit()
	if now {
		limit = r.asideLimit() // "judgements/v2.csv has 312 queries now": the count is a change
	}
	return r.shared(a, b, limit, func(k string) bool {
		return !change.IsNumber(k) && strings.TrimRight(k, "eiy") != unit && len(change.CodeTokens(k)) == 0
	}) > 0
}
