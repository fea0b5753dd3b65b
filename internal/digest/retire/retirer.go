package retire

import (
	"github.com/cairn-mem/cairn/internal/quote"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/gone"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/digest/replace"
	"github.com/cairn-mem/cairn/internal/digest/retire/differ"
	"github.com/cairn-mem/cairn/internal/digest/retire/turn"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/shellcmd"
	"github.com/cairn-mem/cairn/internal/summarize/edits"
)

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
	// segs maps, per summary, its bullets and their sentences to the
	// segment they were said in (segments).
	segs []map[string]int
	// untrue holds what the sessions quoted as no longer true; untrueOwn
	// what the listed sessions quoted themselves, which alone is compared
	// with core items (digest.UntrueOwn).
	untrue, untrueOwn quote.Set
	// passed maps what Rejected lines say was taken, in lower case, to
	// their choices (passedOverFor), made on first use.
	passed map[string][]*turn.Choice
}

// New gathers the statements of core items (title and rank) and
// of the sessions' bullets.
func New(core []Statement, sums []*digest.Summary) *Retirer {
	return NewWith(nil, core, sums)
}

// NewWith is New taking the readings of the texts rd holds
// instead of reading them again.
func NewWith(rd *Readings, core []Statement, sums []*digest.Summary) *Retirer {
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
		r.stmts[len(r.stmts)-1].core = true
	}
	r.untrue, r.untrueOwn = digest.Untrue(sums), digest.UntrueOwn(sums)
	var away []Statement
	r.segs = make([]map[string]int, len(sums))
	for k, d := range sums {
		r.segs[k] = segments(d)
		at := func(b string, asked bool) int { return r.orderOf(k, b, asked) }
		for p, bullets := range d.Parts {
			if p == digest.Commands {
				for _, b := range bullets {
					r.addSubstitution(b, at(b, false))
					// Its own session's statements are older than what it
					// did: "cargo audit flagged sqlx 0.7.4" once its sed
					// made it 0.8.2.
					r.addOwnSubstitution(b, at(b, false))
					for _, st := range shellcmd.Steps(digest.Command(b)) {
						if file, v, ok := replace.WritesValue(st); ok {
							r.add(file+" is "+v+".", at(b, false)) // printf '22.11.0\n' > .nvmrc
						}
					}
					deleted, moved := gone.Files(digest.Command(b))
					for _, f := range deleted {
						away = append(away, Statement{Text: "rm " + f, Rank: at(b, false), gone: f, done: true})
					}
					for _, f := range moved {
						away = append(away, Statement{Text: "mv " + f, Rank: at(b, false), gone: f, done: true})
					}
					for _, rn := range gone.Renamed(digest.Command(b)) {
						r.stmts = append(r.stmts, Statement{Text: "mv " + rn[0], Rank: at(b, false), renamed: rn[0], renamedTo: rn[1], done: true})
					}
				}
				continue
			}
			if p == digest.Files {
				for _, b := range bullets {
					r.changed[at(b, false)] = append(r.changed[at(b, false)], digest.ChangedFile(b))
					for _, m := range editedLine.FindAllStringSubmatch(b, -1) {
						r.addReplacement(m[1], m[2], at(b, false))
					}
				}
				continue
			}
			if p == digest.Read || p == digest.Errors {
				continue
			}
			for _, b := range bullets {
				r.add(b, at(b, p == digest.Request))
			}
		}
	}
	r.addMovedValues()
	// A file deleted and written again, by the same session or a
	// newer one, is there still.
	for _, st := range away {
		if !r.changedSince(st.gone, sessionEnd(st.Rank)) {
			r.stmts = append(r.stmts, st)
		}
	}
	r.countKeys()
	return r
}

// saidUntrue reports whether a session newer than the one of the
// statement of order rank quoted x as no longer true: a model that read the older
// statements said so (or the user, by hand), whatever x's wording.
func (r *Retirer) saidUntrue(x string, rank int) bool {
	// By session, not by order: a session's later segment may say again
	// what still holds of a statement it quotes, and its own statements
	// are never older than its quote.
	q := r.untrue
	if i, ok := r.byText[x]; ok && r.stmts[i].core {
		q = r.untrueOwn
	}
	k, ok := q.At(x)
	return ok && k < session(rank)
}

// addMovedValues adds, for each thing a statement says was moved to a
// named system ("we also moved RPC to Helius") or is now another value
// ("the publisher is quill-lang now", "lint becomes standard"), the value
// an older statement gave it ("the RPC we use is
// https://api.devnet.solana.com", "the Marketplace publisher is
// harborlabs") as a value replaced then, which retires what else names
// it ("devnet uses https://api.devnet.solana.com", "`vsce publish` to
// the Marketplace as harborlabs"), as a sed's replaced value does. A
// code value is replaced wherever it is named; a plain name (names)
// only where the older text names the thing too or writes the name as
// one.
func (r *Retirer) addMovedValues() {
	var moved []Statement
	var tools []map[string]string // change.Tools of each statement, read once
	for i := range r.stmts {
		n := &r.stmts[i]
		if n.keys == nil || n.core {
			continue // a core item's title says again a session's bullet, read below
		}
		lower := strings.ToLower(n.Text)
		if noun, to := change.NowIs(n.Text); noun != "" {
			st := Statement{Text: n.Text, Rank: n.Rank, done: true, nowNoun: noun, nowValue: to}
			for j := range r.stmts {
				x := &r.stmts[j]
				if x.Rank <= n.Rank || x.keys == nil || x.core || !strings.Contains(strings.ToLower(x.Text), noun) {
					continue
				}
				v := strings.TrimRight(change.ValueOf(x.Text, noun), ".")
				switch {
				case v == "" || v == to || slices.Contains(st.replaced, v) || slices.Contains(st.names, v):
				case otherKind(change.Qualifier(n.Text, noun), change.Qualifier(x.Text, noun)):
				case differ.DistinctValue(v):
					st.replaced = append(st.replaced, v)
				case nameValue(v) && !lex.HasWord(lower, v):
					st.names = append(st.names, v)
				}
			}
			if len(st.replaced) > 0 || len(st.names) > 0 {
				moved = append(moved, st)
			}
		}
		// A person who took a thing over ("Jonas took over the Figma
		// library from Mariko") retires where the one before is named
		// for it: "Mariko owns the Figma token library".
		if noun, now, was := change.TookOver(n.Text); was != "" {
			st := Statement{Text: n.Text, Rank: n.Rank, done: true, nowNoun: noun, names: []string{strings.ToLower(was)}}
			if now != "I" {
				st.nowValue = strings.ToLower(now)
			}
			moved = append(moved, st)
		}
		// A host retired or renamed away ("the name hooks-01 is gone",
		// "nothing in the repo mentions db-02 any more") retires what
		// names it as where something is: "Failed deliveries wait in
		// the relay_outbox table on db-02".
		if gone := change.Gone(n.Text); len(gone) > 0 {
			moved = append(moved, Statement{Text: n.Text, Rank: n.Rank, done: true, away: gone})
		}
		// A thing that has another holder now ("Tomás owns the Stripe
		// account from now on") retires who older statements said held
		// it: "Priya is the person for the Stripe account".
		if noun, who := ownerNow(n.Text); who != "" {
			st := Statement{Text: n.Text, Rank: n.Rank, done: true, nowNoun: noun, nowValue: strings.ToLower(who)}
			for j := range r.stmts {
				x := &r.stmts[j]
				if x.Rank <= n.Rank || x.keys == nil || x.core {
					continue
				}
				if xn, xw := change.Owner(x.Text); xn == noun && xw != "" && !strings.EqualFold(xw, who) && !slices.Contains(st.names, strings.ToLower(xw)) {
					st.names = append(st.names, strings.ToLower(xw))
				}
			}
			if len(st.names) > 0 {
				moved = append(moved, st)
			}
		}
		// A job given another tool ("I want the cache off the SaaS — use
		// our own Attic server") retires the tool an older statement
		// gave it ("set up a Cachix cache") wherever it is named: ".envrc
		// and the Cachix settings are in".
		if tools == nil {
			tools = make([]map[string]string, len(r.stmts))
			for j := range r.stmts {
				if x := &r.stmts[j]; x.keys != nil && !x.core {
					tools[j] = change.Tools(x.Text)
				}
			}
		}
		for _, job := range slices.Sorted(maps.Keys(tools[i])) {
			to := tools[i][job]
			st := Statement{Text: n.Text, Rank: n.Rank, done: true, nowNoun: job, nowValue: to}
			for j, xt := range tools {
				if v := xt[job]; v != "" && r.stmts[j].Rank > n.Rank && v != to && nameValue(v) && !lex.HasWord(lower, v) && !slices.Contains(st.names, v) {
					st.names = append(st.names, v)
				}
			}
			if len(st.names) > 0 {
				moved = append(moved, st)
			}
		}
	}
	r.stmts = append(r.stmts, moved...)
}

// ownerNow is who s says holds a thing from now on (change.Owner), read
// only of a statement that says how things are now: most say no such
// thing.
func ownerNow(s string) (noun, who string) {
	if !nowSaid.MatchString(s) {
		return "", ""
	}
	return change.Owner(s)
}

// nowSaid marks a statement of how things are from now on.
var nowSaid = lazyre.New(`(?i)\b(?:now|from now on|any ?more|took over|takes over|taken over|instead)\b`)

// otherKind reports whether two qualifiers of one noun name two kinds of
// it: "the default branch" and "the release branch". A thing qualified
// on one side only is the same thing ("the publisher is quill-lang now"
// of "the Marketplace publisher").
func otherKind(a, b string) bool { return a != "" && b != "" && a != b }

// nameValue reports whether v, a thing's value in lower case, may be a
// name: a word of four letters or more that says something ("rubocop",
// "harborlabs"), not "used" or "fine".
func nameValue(v string) bool {
	return len(v) >= 4 && !lex.StopWords[v] && !change.IsNumber(v) && strings.Trim(v, "abcdefghijklmnopqrstuvwxyz0123456789-_") == ""
}

// inCodeToken reports whether x holds name v, lower case, as a part of a
// code token: a host's label ("https://acme-dev.cachix.org"), a path's
// folder, a package's name.
func inCodeToken(x, v string) bool {
	for _, t := range change.CodeTokens(x) {
		if t = strings.ToLower(t); t != v && lex.HasWord(t, v) {
			return true
		}
	}
	return false
}

// namesOld reports whether x names a plain name n replaced (n.names) as
// the thing n is about: beside the thing's noun, written as a name
// ("RuboCop", "`harborlabs`") or inside code ("acme-dev.cachix.org"), and
// does not name what it is now.
func namesOld(x string, xk map[string]bool, n *Statement) bool {
	lower := strings.ToLower(x)
	if n.nowValue != "" && lex.HasWord(lower, n.nowValue) {
		return false
	}
	for _, v := range n.names {
		if lex.HasWord(lower, v) && (xk[lex.Key(n.nowNoun)] || lex.WrittenAsName(x, v) || inCodeToken(x, v)) && !leaves(x, v) {
			return true
		}
	}
	return false
}

// order places a statement of a session of the given rank in time, a
// smaller order newer: what a session was asked (its requests, its
// title) comes before what it did, so "115200 is a bottleneck, move the
// link to 921600" is retired by the same session's change; and what one
// of its segments said, before what a later one did ("the pool is only
// 10 connections" once the session's next segment made it 20). A
// statement of no known segment is of its session's last, or, asked,
// of its first.
func order(rank int, asked bool) int {
	if asked {
		return orderAt(rank, 0, true)
	}
	return orderAt(rank, segSlots-1, false)
}

// segSlots is how many segments of a session order tells apart; later
// ones count as its last.
const segSlots = 32

// orderAt is the order of a statement of segment seg of the session of
// the given rank.
func orderAt(rank, seg int, asked bool) int {
	o := rank*2*segSlots + (segSlots-1-min(max(seg, 0), segSlots-1))*2
	if asked {
		o++
	}
	return o
}

// session is the rank of the session of order o.
func session(o int) int { return o / (2 * segSlots) }

// sessionEnd is the order of the newest statement of the session before
// the one of order o: every order below it is of that session or newer.
func sessionEnd(o int) int { return (session(o) + 1) * 2 * segSlots }

// orderOf is the order of x, a bullet or a sentence of one, said in the
// session of the given rank: of the segment its summary says it was
// said in, if it says.
func (r *Retirer) orderOf(rank int, x string, asked bool) int {
	if rank >= 0 && rank < len(r.segs) {
		if seg, ok := r.segs[rank][segKey(x)]; ok {
			return orderAt(rank, seg, asked)
		}
	}
	return order(rank, asked)
}

// add adds a statement: a bullet or a title, whose sentences together
// say what it is about, and which asks nothing.
func (r *Retirer) add(text string, rank int) {
	var stated []string
	for _, x := range digest.Sentences(text) {
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
		bySession[session(ranks[i])] = append(bySession[session(ranks[i])], i)
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
		if same := bySession[session(ranks[i])]; len(same) <= maxRepeatScan && repeated(words, i, same) {
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
// session (of rank), the versions and the numbers of four digits or more
// (ports, rates, sizes) it replaced.
func (r *Retirer) addOwnSubstitution(cmd string, rank int) {
	for _, rep := range replace.Pairs(cmd) {
		st := Statement{Text: rep[1], Rank: rank, done: true, was: rep[0], own: true}
		nowT := change.CodeTokens(rep[1])
		for _, t := range change.CodeTokens(rep[0]) {
			if (change.IsVersion(t) || change.IsNumber(t) && len(t) >= 4) && !slices.Contains(nowT, t) {
				st.replaced = append(st.replaced, t) // a version, or a port or a rate: 9009 once `s/9009/29318/`
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
		if xk[v] || differ.HasValue(x, v) {
			return !namesNew(x, n) && !leaves(x, v)
		}
	}
	return false
}

// leaves reports whether x says itself that value v is left behind:
// "Move the API off 8080" is not retired by the command that replaced
// 8080, whose request it is.
func leaves(x, v string) bool {
	if c := change.Of(x); c != nil {
		for _, o := range c.Old {
			if o[v] {
				return true
			}
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
		if len(t) > 2 && !slices.Contains(was, t) && differ.HasValue(x, t) {
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
			// A version inside a name: 5.0.1 of
			// tools/gtfs-validator-5.0.1-cli.jar, once it is 6.0.0.
			for _, v := range innerVersion.FindAllString(t, -1) {
				if v != t && !strings.Contains(now, v) && !slices.Contains(st.replaced, v) {
					st.replaced = append(st.replaced, v)
				}
			}
			// A number as code writes it: 2000 of "1.0f, 2000.0f" once
			// it is "1.0f, 4000.0f".
			if v := plainNumber(t); v != "" && !slices.Contains(nowT, v) && !slices.ContainsFunc(nowT, func(n string) bool { return plainNumber(n) == v }) && !slices.Contains(st.replaced, v) {
				st.replaced = append(st.replaced, v)
			}
			for _, v := range replace.ValueParts(t) {
				if v != t && differ.DistinctValue(v) && !change.IsNumber(v) && !strings.Contains(strings.ToLower(now), v) && !slices.Contains(st.replaced, v) {
					st.replaced = append(st.replaced, v)
				}
			}
		}
	}
	st.edit = replace.EditOf(was, now)
	if lex.CodeName(was) && lex.CodeName(now) && was != now {
		st.renamed, st.renamedTo = was, now
	}
	if a, b := pinnedOrDeclared(was), pinnedOrDeclared(now); a != "" && b != "" && a != b && len(a) >= 3 {
		st.swapped = a
	}
	st.hostPort = replace.HostPort(was, now)
	st.minWas = replace.LowerBound(was, now)
	st.line = replace.SettingLine(was, now)
	if len(st.settings) > 0 || len(st.replaced) > 0 || st.edit != nil || st.renamed != "" || st.swapped != "" || st.hostPort != nil || st.minWas != nil || st.line != "" {
		r.stmts = append(r.stmts, st)
	}
}

// pinnedOrDeclared is the package a line pins ("zstandard==0.23.0") or a
// manifest's line declares ("markdown-it": "npm:markdown-it@14.1.0"),
// lower-case; "" for another line.
func pinnedOrDeclared(line string) string {
	if p := replace.Pinned(line); p != "" {
		return p
	}
	return strings.ToLower(edits.Dependency(line))
}

// plainNumber is the number a numeric literal of code gives, without
// the suffix of its type or a fraction of zeros ("2000.0f", "2000l",
// "2000.0"); "" for another token or a number written plainly.
func plainNumber(t string) string {
	m := codeNumber.FindStringSubmatch(t)
	if m == nil || m[1] == t {
		return ""
	}
	return m[1]
}

var codeNumber = lazyre.New(`^(\d+)(?:\.0+)?[fdlu]?$`)

// innerVersion is a version of three parts or more within a longer token.
var innerVersion = lazyre.New(`\b\d+\.\d+\.\d+(?:\.\d+)?\b`)

// editedLine is a line an edit replaced, as a summary's list of changed
// files gives it: "config/config.exs (edited: `reminders: 3` → `reminders:
// 15`)".
var editedLine = lazyre.New("`([^`]+)` → `([^`]+)`")

// segments maps each bullet of d, and each sentence of one, to the
// segment it was said in; nil when d has one segment.
func segments(d *digest.Summary) map[string]int {
	last := 0
	for _, seg := range d.Seg {
		last = max(last, seg)
	}
	if last == 0 {
		return nil
	}
	m := make(map[string]int, 2*len(d.Seg))
	for b, seg := range d.Seg {
		for _, x := range append(digest.Sentences(b), b) {
			if old, ok := m[segKey(x)]; !ok || seg < old {
				m[segKey(x)] = seg // first said
			}
		}
	}
	return m
}

// segKey is what segments knows a text by: a core item's title is its
// bullet's sentence without the full stop.
func segKey(x string) string { return strings.TrimRight(strings.TrimSpace(x), ".!?") }
