package retire

import (
	"maps"
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/gone"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/digest/quantity"
	"github.com/cairn-mem/cairn/internal/digest/replace"
	"github.com/cairn-mem/cairn/internal/digest/retire/differ"
	"github.com/cairn-mem/cairn/internal/digest/retire/turn"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/prose/clock"
	"github.com/cairn-mem/cairn/internal/prose/paths"
)

// otherVersionOf reports whether statement n gives a thing that x
// (versions xv, keys xk) names another version, and says nothing of x's
// version, while the two share a distinctive word besides: "the Gradle
// toolchain with Java 17" and "the toolchain is Java 21 now" are one
// matter; "deployment target iOS 16" and "the simulator runs iOS 17.4"
// are two.
// otherRole reports whether every value x gives a name that n gives
// another (settings or versions, xv and nv) is said with a role n does
// not name: "the iOS 17.5 runtime" against "the deployment target now
// says iOS 17.0".
func otherRole(x string, xv, nv map[string]string, n string) bool {
	apart := false
	for k, v := range xv {
		if w, ok := nv[k]; ok && w != v {
			if sameRole(x, k, v, n) {
				return false
			}
			apart = true
		}
	}
	return apart
}

// sameRole reports whether n may move the version v x gives name: x says
// no role with it ("Java 17"), or n names that role too ("the simulator
// runtime is iOS 18.1 now" for "the iOS 17.5 runtime").
func sameRole(x, name, v, n string) bool {
	role := prose.VersionRole(x, name, v)
	return role == "" || strings.Contains(strings.ToLower(n), role)
}

func (r *Retirer) otherVersionOf(x string, xv map[string]string, xk map[string]bool, n *Statement) bool {
	for name, v := range xv {
		w, ok := n.versions[name]
		if !ok || w == v || n.keys[v] {
			continue
		}
		// "The iOS 17.5 runtime" is not what "the deployment target now
		// says iOS 17.0" moved: a version said with its role is moved by
		// a statement of that role, or one on its topic (below).
		if sameRole(x, name, v, n.Text) && (prose.Bumped(n.Text, name, w) || n.announces()) || prose.Upgraded(n.Text, name, v, w) {
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

// stillPurpose is "still" in what a change is for, a state kept
// through it rather than one said to hold for now: "local_net=10.20.0.0/16
// plus 192.168.50.0/24 so the office LAN and the WireGuard users still
// get the private address".
var stillPurpose = lazyre.New(`(?i)\bso\s+(?:that\s+)?(?:[\w'’-]+\s+){0,8}?still\s+(?:get|gets|work|works|reach|reaches|see|sees|use|uses|have|has|can)\b`)

// stillKeys are the keys of the clause of x that says a state holds for
// now ("milter_default_action is still accept"): a newer statement on the
// rest of x ("OpenDKIM signs them as they arrive") leaves that state
// alone. All of xk when x is one clause.
func stillKeys(x string, xk map[string]bool) map[string]bool {
	parts := clauseEnd.Split(x, -1)
	if len(parts) < 2 {
		return xk
	}
	for _, c := range parts {
		if stillRE.MatchString(c) {
			return change.TopicKeys(c)
		}
	}
	return xk
}

// clauseEnd ends a sentence or a clause a semicolon closes.
var clauseEnd = lazyre.New(`[.;]\s+`)

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
// elixir 1.16.3-otp-26" (summarize: manifestVersions), "`rtl/fifo.sv`:
// DEPTH = 16", or what it lacks ("fill in the real role ARN").
var readFrom = lazyre.New("^`([^`]+)`: ")

// fileState reports whether what follows a file's name states values a
// later edit may change (versions, settings, an assignment) or work left
// in it: "`audio.c`: a spinlock around the pop" tells what a change did,
// which a later edit of the file for something else leaves true.
func fileState(rest string) bool {
	return manifestPairs.MatchString(rest) || strings.Contains(rest, "=") || len(prose.Settings(rest)) > 0 || placeholder.MatchString(rest)
}

var (
	manifestPairs = lazyre.New(`^[^\s,]+ [^\s,]*\d[^\s,]*(?:, [^\s,]+ [^\s,]*\d[^\s,]*)*$`)
	placeholder   = lazyre.New(`(?i)\b(?:fill in|placeholder|made up|to-?do|not yet|stub(?:bed)?)\b`)
)

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
	if r == nil {
		return false
	}
	return r.retired(x, r.orderOf(rank, x, false))
}

// RetiredAsked is Retired for what a session of the given rank was
// asked: its own session's statements are newer.
func (r *Retirer) RetiredAsked(x string, rank int) bool {
	if r == nil {
		return false
	}
	return r.retired(x, r.orderOf(rank, x, true))
}

func (r *Retirer) retired(x string, rank int) bool {
	if r.saidUntrue(x, rank) {
		return true
	}
	// A file its own session changed after reading it counts too: a
	// session's list of changed files is where it ended.
	f := readFrom.FindStringSubmatch(x)
	if f != nil && !fileState(x[len(f[0]):]) {
		f = nil
	}
	if r.trace != nil {
		r.trace.Rank, r.trace.Changed = max(r.trace.Rank, rank), r.trace.Changed || f != nil
	}
	if f != nil && r.changedSince(f[1], sessionEnd(rank)) {
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
		xProblem, xLost   bool
		xGate             bool // x holds something back until someone has looked (differ.HoldsBack)
		xq                []quantity.Quantity
		xPaths            [][]string
		xFolders          []string
		xDur              []prose.Claim
		xDurRead          bool
		xTimes            []prose.Claim // read once a newer statement gives a time of day
		xTimesRead        bool
		xPortCl           []prose.Claim // the ports x's clauses give (clausePortsOf)
		xPortsRead        bool
		xBare             map[string]string
		xFrac             []differ.Fraction // read once a newer statement counts something
		xFracRead         bool
		xStillK           map[string]bool // the keys of the clause that says what is still so
		xChose            map[string]bool // what x chose (prose.Chose)
		xOver             *turn.Choice    // what x chose over what (read once a newer statement announces a change)
		xOverRead         bool
		xNo               []string       // the names x says no to (read once a newer statement goes back on something)
		xPassed           []*turn.Choice // the choices over another that took what x names alone (read once a newer statement announces a change)
		xPassedRead       bool
		xNoRead           bool
		xPeriods          []float64 // how often x says a thing happens; nil: not read yet
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
	// What x stays with ("we stay with Fusion 360"), and x with what else
	// stays with it, which may name the alternative: "I'd like to stick
	// with it" is retired by a statement that names the alternative
	// another statement staying with the same thing named, not x.
	xStayed, xStayCtx := turn.StayedWith(x), x
	candKeys := xk
	if xStayed != "" {
		if xStayed, xStayCtx = r.stayContext(x, xStayed); xStayCtx != x {
			candKeys = maps.Clone(xk)
			maps.Copy(candKeys, change.TopicKeys(xStayCtx))
		}
	}
	for _, i := range r.candidates(candKeys) {
		n := &r.stmts[i]
		if n.own {
			if session(rank) == session(n.Rank) && replacedIn(x, xk, n) {
				return true
			}
			continue
		}
		if n.Rank >= rank || n.core && session(n.Rank) == session(rank) {
			continue
		}
		// A later segment of x's own session goes on with what x is
		// about: an edit or a command retires x, or a statement that
		// announces a change and gives a value otherwise; not a change on
		// its topic ("a rule please, nobody edits corosync.conf in place"
		// after "link 1 … so corosync still has a path"), nor a value of
		// a neighbouring thing said as no change ("style.json is served
		// with max-age=60" after the tiles' max-age=300). What a session
		// did answers what it was asked, as before: by named changes
		// only (namedOnly).
		asked := rank%2 == 1 && n.Rank%2 == 0
		inSession := session(n.Rank) == session(rank) && !asked
		n.read()
		if inSession && n.keys != nil && !n.announces() {
			continue
		}
		if !read {
			read = true
			if xst != nil {
				xst.read()
				xc, xs, xSet, xVer, xq, xqOK, xNamed, xTools = xst.change, xst.state, xst.settings, xst.versions, xst.quantities, true, xst.named, xst.tools
				xBare = xst.bare
			} else {
				xc, xs, xSet, xVer, xNamed, xTools = change.Of(x), change.State(x), prose.Settings(x), prose.Versions(x), prose.Named(x), change.Tools(x)
				xBare = prose.BareSettings(x)
			}
			still, xDirs, xPaths, xStanding = stillRE.MatchString(x) && stillRE.MatchString(stillPurpose.ReplaceAllString(x, "")), paths.VersionedDirs(x), paths.AbsPaths(x), prose.Standing(x)
			if still {
				xStillK = stillKeys(x, xk)
			}
			if c := prose.Chose(x); c != "" {
				xChose = change.TopicKeys(c)
			} else if o := prose.BareOption(x); o != "" {
				// The option an answer took, named alone: what it
				// chose, with nothing of what it was for.
				xChose = change.TopicKeys(o)
			}
			xFolders = change.Folders(x)
			xURL = strings.Contains(x, "://")
			xQuoted = strings.Contains(x, "`")
			if xQuoted || prose.HasPort(x) {
				// A port said in a URL is one too ("the usual npx
				// wrangler dev on http://localhost:8787").
				xPorts = prose.Ports(x)
			}
			xSibling, xHome = change.HasSiblingTokens(x), change.HasHome(x)
			xFlags, xProblem = change.Flags(x), change.Problem(x)
			xLost = lostWord.MatchString(x)
			xGate = differ.HoldsBack(x)
		}
		if xGate && !inSession && n.keys != nil && differ.Lifts(n.Text) && r.shared(xk, n.keys, r.asideLimit(), nil) > 0 {
			return true // "nothing goes out unless Ute and I have seen the dry-run list" once "the dry-run list has been right three times — send automatically, no need to wait for us"
		}
		if xStayed != "" && turn.TookOther(xStayCtx, xStayed, n.Text) {
			return true // "We stay with Fusion 360; FreeCAD's adaptive being unreliable …" once "Fine, FreeCAD it is."
		}
		if prose.SettingsConflict(xSet, n.settings) && !otherRole(x, xSet, n.settings, n.Text) || prose.BareConflict(n.bare, xSet) {
			return true // the newer statement gives the setting another value
		}
		if xBare != nil && n.bare != nil && r.otherBare(xBare, n) {
			return true // "set the pool to 20" once "drop the pool to 15"
		}
		if xNamed != nil && prose.Renamed(xNamed, n.named) {
			return true // the profile lakehouse-stg is lakehouse-stg2 now
		}
		if still && n.keys != nil && !inSession && r.stillChanged(xStillK, n) {
			return true
		}
		if n.keys != nil && r.otherVersionOf(x, xVer, xk, n) {
			return true // the newer statement names another version of the same thing
		}
		if len(xDirs) > 0 || len(xPaths) > 0 {
			nPaths, nDirs := n.pathsOf()
			if len(xDirs) > 0 && paths.OtherVersionDir(xDirs, nDirs) {
				return true // /opt/vulkan/1.3.280 where /opt/vulkan/1.4.304 now is
			}
			if len(xPaths) > 0 && paths.MovedPath(xPaths, nPaths) {
				return true // /scratch/tw/runs/$JOB where /lustre/proj/tw/runs/<jobid> now is
			}
			if len(xPaths) > 0 && paths.OtherVersionPath(xPaths, nPaths) {
				return true // /usr/lib/postgresql/16/bin/pg_config where …/17/… now is
			}
		}
		if xURL && n.announces() && paths.MovedURL(x, n.Text) {
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
				if (differ.DistinctValue(v) || differ.MixedCode(v)) && (xk[v] || differ.HasValue(x, v)) && !(session(n.Rank) == session(rank) && leaves(x, v)) {
					return true // what its own session was asked to leave is no statement of it
				}
			}
			for _, v := range n.away {
				if (xk[v] || differ.HasValue(x, v)) && !change.ToldPast(x, v) {
					return true // "Failed deliveries wait in the relay_outbox table on db-02" once "the DBAs retired db-02"
				}
			}
			if len(n.names) > 0 && namesOld(x, xk, n) {
				return true // "`vsce publish` to the Marketplace as harborlabs" once "the publisher is quill-lang now"
			}
			if n.line != "" && replace.Quotes(x, n.line) && !replace.Quotes(x, n.Text) {
				return true // "the build is ESM-only (formats: ['es'])" once `s/formats: \['es'\]/formats: ['es', 'cjs']/`
			}
			if n.edit != nil && n.edit.Says(x, xk, func(k string) bool { return r.df[k] <= r.asideLimit() }) {
				return true // "runs 3 at a time" once "reminders: 3" became "reminders: 15"
			}
			continue
		}
		if len(xPorts) == 1 && strings.Contains(n.Text, "`") && n.announces() && differ.Port(x, xPorts[0], n.Text) {
			return true // "`npm run dev` serves it at 127.0.0.1:9292" once "`npm run dev` now serves it on port 9393"
		}
		if strings.Contains(n.Text, "listens on") && strings.Contains(x, "listen") && n.announces() && differ.Listen(x, n.Text) {
			return true // "wg0 … listening on UDP 51820" once "wg0 listens on UDP 443 now"
		}
		if len(n.fractions) > 0 && !xFracRead {
			xFrac, xFracRead = differ.FractionsOf(x), true
		}
		if len(n.rejects) > 0 && differ.NamesRejected(x, n.rejects) {
			return true // "keeps 14 days" once "accounting has to be kept 90 days …, 14 isn't enough"
		}
		if len(n.fractions) > 0 && differ.Fractions(xFrac, n.fractions) {
			return true // "412 of the 430 local codes have a LOINC code" once "424 of the 430 codes translate"
		}
		if xQuoted && differ.QuotesReplaced(x, n.insteadOf) {
			return true // "tests are `cargo test --workspace`" once nextest runs them "instead of `cargo test --workspace`"
		}
		if len(n.files) > 0 && differ.OtherExtension(x, n.files) {
			return true // "BILL_YYYYMM.txt, fixed width, …" once "the import is a UTF-8 CSV, BILL_YYYYMM.csv, … instead of ERP-Import"
		}
		if len(n.insteadOf) > 0 && differ.PlaceReplaced(x, n.insteadOf) {
			return true // "They pick the file up from \\fs01\billing\ERP-Import." once "instead of the ERP-Import share"
		}
		if xQuoted && strings.Contains(n.Text, "`") && differ.Arg(x, n.Text) && !differ.Place(x, n.Text) {
			return true // "`script/tally minion worker -j 4`" once it runs "`script/tally minion worker -j 8`"
		}
		if xQuoted && n.announces() && differ.Schedule(x, n.Text) && r.near(xk, n.keys) {
			return true // "a Cloud Scheduler trigger at `0 2 * * *` UTC" once "the trigger is `30 4 * * *` UTC now"
		}
		if xSibling && n.announces() && n.siblingsOf().Of(x) {
			return true // "keeps clips in chrome.storage.sync" once "clips are in chrome.storage.local now"
		}
		if xHome && strings.Contains(n.Text, " now") && change.OtherHome(x, n.Text, func(k string) bool { return r.df[k] <= r.asideLimit() }) {
			return true // "jobs go through Postgres LISTEN/NOTIFY" once "the queue is on NATS JetStream now, stream JOBS"
		}
		if f := n.formatNow(); f != "" && change.OtherFormat(x, f) && r.near(xk, n.keys) {
			return true // "one CSV per building" once "the principals' weekly report is a PDF now"
		}
		if n.nowNoun != "" && change.IsValue(x, n.nowNoun, n.nowValue) && !strings.Contains(strings.ToLower(x), n.nowValue) && !otherKind(change.Qualifier(n.Text, n.nowNoun), change.Qualifier(x, n.nowNoun)) {
			return true // "the Marketplace publisher is harborlabs" once "the publisher is quill-lang now"
		}
		if xTools != nil && n.tools != nil && change.OtherTool(xTools, n.tools, n.Text) && (n.announces() || r.near(xk, n.keys)) {
			return true // "use Maven for the build" once "let's build the Java side with Gradle"
		}
		if xProblem || xFlags != nil {
			if nFlags, nWorks := n.flagsAndWorks(); xProblem && change.WorksFor(xk, nWorks) {
				return true // "the spider never follows pagination" once "Pagination works: …"
			} else if xFlags != nil && change.OtherFlag(xFlags, nFlags) && r.shared(xk, n.keys, r.limit(), notFlag) > 0 {
				return true // "wasm-opt = ["-Oz"]" once "wasm-opt runs with -O3"
			}
		}
		if (xProblem || xLost) && n.saysNow() && culprit.MatchString(n.Text) && prose.NamesIdent(x, n.Text) {
			return true // "`write_normals` reads one normal per vertex, … lost in the export" once "the culprit was that `write_normals` took `v.normal`; … that's what it reads now"
		}
		if xs != 0 && n.state == -xs && !inSession {
			if c := n.change; c != nil && r.aside(xk, n.keys, c) {
				return true
			}
			if n.change == nil && n.saysNow() && r.near(xk, n.keys) {
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
			if nc := n.factClaim(); differ.Value(*xClaim, *nc) || differ.Duration(*xClaim, *nc) {
				return true
			}
			if strings.HasSuffix(xClaim.Subject, " content") && strings.Contains(n.Text, ". ") {
				for _, sn := range digest.Sentences(n.Text) {
					if differ.Value(*xClaim, prose.FactClaim(sn)) {
						return true // ".nvmrc is 22.11.0" among a list of changes
					}
				}
			}
		}
		// A port one clause gives is one setting, whatever the rest of
		// either sentence says: "…; your cluster on 5416 needs …" once
		// "…, cluster on port 5417". x's clauses are read once, and only
		// when it holds a number a port may be.
		if !xPortsRead {
			xPortsRead = true
			if portDigits.MatchString(x) {
				xPortCl = clausePortsOf(x)
			}
			if strings.HasSuffix(xClaim.Subject, " port") {
				xPortCl = append(xPortCl, *xClaim)
			}
		}
		if len(xPortCl) > 0 {
			nc := n.factClaim()
			for _, a := range xPortCl {
				if differ.Value(a, *nc) {
					return true
				}
				for _, b := range n.clausePorts() {
					if differ.Value(a, b) {
						return true
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
			if differ.Durations(xDur, nd, n.announces()) {
				return true // "access tokens live 15 minutes, …" once "the access token now lasts one hour"
			}
		}
		if nt := n.timesOf(); len(nt) > 0 {
			if !xTimesRead {
				xTimesRead = true
				if xst != nil {
					xTimes = xst.timesOf()
				} else {
					xTimes = clock.Times(x)
				}
			}
			if differ.Times(xTimes, nt, n.announces()) {
				return true // "it should print by itself at 21:00" once "the cron job prints it at 19:00 now"
			}
		}
		if n.keys != nil && n.announces() && r.otherPeriod(x, &xPeriods, n, xk) {
			return true // "checks once at startup and then every 4 hours" once "the app now checks once an hour"
		}
		if len(n.quantities) > 0 && n.keys != nil {
			if !xqOK {
				xq, xqOK = quantity.Of(x), true
			}
			if u, weak := quantity.Other(xq, n.quantities, xk, n.keys); u != "" && r.counted(x, xk, topic, n, u, weak) {
				return true // what both count, the newer one counts otherwise
			}
		}
		if inSession {
			continue
		}
		if n.announces() {
			if !xOverRead {
				xOver, xOverRead = turn.Over(x), true
			}
			if xOver != nil && xOver.BackTo(n.Text, n.keys, func(a, b map[string]bool) int { return r.shared(a, b, r.asideLimit(), nil) }) {
				return true // "I picked AdGuard over dnsmasq blocklists" once "DNS filtering is now done inside dnsmasq"
			}
			if !xPassedRead {
				xPassed, xPassedRead = r.passedOverFor(x), true
			}
			for _, c := range xPassed {
				if c.BackTo(n.Text, n.keys, func(a, b map[string]bool) int { return r.shared(a, b, r.asideLimit(), nil) }) {
					return true // "Failed deliveries in spool files on disk" once "we're putting the retry queue in Postgres after all", Postgres passed over for the spool
				}
			}
			if change.GoesBack(n.Text) {
				if !xNoRead {
					xNo, xNoRead = turn.SaidNo(x), true
				}
				if len(xNo) > 0 && turn.TookAfterAll(n.Text, xNo) {
					return true // "a superloop, no RTOS" once "we're going to move to FreeRTOS after all"
				}
			}
		}
		if c := n.change; c != nil && xc == nil && xChose != nil && choseOld(xChose, c) {
			return true // "Self-hosted on Postgres it is." once "with Cloud instead of self-hosting"
		}
		// A session's request is answered by what the session did: only
		// a change that names what it replaces retires it. So is a
		// standing instruction ("from now on every new env var goes into
		// .env.example"): a change on its topic that does not name it
		// leaves it standing.
		namedOnly := asked && session(n.Rank) == session(rank) || xStanding
		if r.replacedGone(n, xk) {
			return true // "Rounding.kt … nearest quarter hour with the 7-minute rule" once "ExactMinutes.kt replaces the quarter-hour rounding"
		}
		if c := n.change; c != nil && n.only != nil && len(c.Old) == 0 && len(c.New) == 0 && !hasAny(xk, n.only) {
			continue // "the bars live under /mnt/research/bars/minute" once "the parquet files … stay where they are, only the catalog moved"
		}
		if !sameTopicOf(topic(), n.keys) {
			if c := n.change; c != nil && (xc == nil || putInPlace(xc, c)) && r.aside(xk, n.keys, c) {
				if named, shape := c.Names(xk, n.Text); (shape || named && r.near(xk, n.keys)) && !otherRole(x, xVer, n.versions, n.Text) {
					return true
				}
				if xc == nil && c.Plan && (r.near(xk, n.keys) || planOn(n.Text, x, xk, n.keys)) && c.Says(xk, xc, namedOnly) {
					return true // "for updates let's use SWUpdate" after "change of plan on updates: let's move to RAUC"
				}
			}
			continue
		}
		if c := n.change; c != nil {
			if r.aside(xk, n.keys, c) && c.Says(xk, xc, namedOnly) && !c.TakenOff(xk, x) && !otherThingsVersion(c, n.versions, xVer, xk, x) {
				return true
			}
			continue
		}
		if differ.Value(*xClaim, *n.factClaim()) {
			return true
		}
	}
	return false
}

// putInPlace reports whether change xc, an older statement's, put in
// place what change c replaces, or named nothing it changed: "I moved the
// filters into a Zustand store" once "filters now live in the URL search
// params instead of the Zustand store".
func putInPlace(xc, c *change.Change) bool {
	if len(xc.Old) == 0 && len(xc.New) == 0 {
		return true
	}
	for _, o := range c.Old {
		for _, v := range xc.New {
			if change.HasAll(v, o) {
				return true
			}
		}
	}
	return false
}

// portDigits is a number a port may be.
var portDigits = lazyre.New(`\b\d{2,5}\b`)

// culprit opens what a statement found was the cause, which it then
// mended: "the culprit was that …", "the bug was", "turned out".
var culprit = lazyre.New(`(?i)\b(?:the (?:culprit|bug|cause|problem|issue) was|turned out)\b`)

// lostWord says something comes out wrong: "custom split normals are
// lost in the export".
var lostWord = lazyre.New(`(?i)\b(?:lost|wrong|missing|garbled|corrupt(?:ed)?)\b`)

// choseOld reports whether chosen, the keys of what a statement chose
// ("Self-hosted on Postgres it is."), hold what change c replaced: a
// statement that only names the choice is about it, whatever else the
// change's sentence says.
func choseOld(chosen map[string]bool, c *change.Change) bool {
	for _, v := range c.New {
		if change.HasAll(chosen, v) {
			return false
		}
	}
	for _, o := range c.Old {
		if change.HasAll(chosen, o) {
			return true
		}
	}
	return false
}

// counted reports whether n, which gives a quantity of unit u another
// value than x does, counts the same thing otherwise: its identifier
// named, or keys shared besides the unit; for a weak measure (a time, a
// share, a temperature) the same topic, or a size of what both name, a
// count of times or a temperature said changed now ("checkInterval is 168h now, once a
// week" against "… more than once a day"; "heater band lowered to on
// below 6 °C"). A temperature is of the thing a statement opens on
// (sameLead).
func (r *Retirer) counted(x string, xk map[string]bool, topic func() []string, n *Statement, u string, weak bool) bool {
	temp := quantity.Temperature(u)
	switch {
	case temp && !differ.SameLead(x, n.Text):
		return false
	case differ.OtherPaths(x, n.Text):
		return false // "mount /live.mp3 at 128 kbps" and "a /live.opus mount at 96 kbps" are two mounts
	case differ.OtherCompounds(x, n.Text, u):
		return false // "the 400-symbol universe" and "a 20-symbol sample" are two sets
	case prose.NamesIdent(x, n.Text), quantity.Counter(u):
		return true // the controller_manager's rate; the block a fork is pinned at
	case !weak:
		return r.sharesBesides(xk, n.keys, u, n.saysNow())
	case sameTopicOf(topic(), n.keys):
		return true
	}
	if size, ok := quantity.NamedSize(u); ok && n.saysNow() && r.sharesBesides(xk, n.keys, size, true) {
		return true // "the 256 px long edge" once "the default long edge is 320 px now"
	}
	if size, ok := quantity.NamedSize(u); ok && differ.AcquiredSize(n.Text, size, u[len(size)+1:]) {
		return true // "the VM has a 50 GB disk" once "IT gave us a 500 GB disk"
	}
	now := n.saysNow() || temp && n.change != nil
	return (u == quantity.Times || temp) && now && r.sharesBesides(xk, n.keys, u, true)
}

// bareVersion is a version no name goes with: "pins 3.11 in its
// Dockerfile" may be the version a newer statement gives its thing.
var bareVersion = lazyre.New(`(?:^|\s)v?\d+\.\d+(?:\.\d+)?\b`)

// otherThingsVersion reports whether change c only gives a thing a new
// version (versions, the newer statement's), and x, of versions xVer and
// keys xk, names neither a version nor that thing: "Tallow-mini is on
// Python 3.12.7 now; … pyproject.toml requires 3.12" says nothing of
// "the KDP workbooks are read with openpyxl (added to pyproject.toml)",
// which only shares the file the version is written in.
func otherThingsVersion(c *change.Change, versions, xVer map[string]string, xk map[string]bool, x string) bool {
	if len(c.Old) > 0 || len(c.New) == 0 || len(versions) == 0 || len(xVer) > 0 || bareVersion.MatchString(x) {
		return false
	}
	for _, v := range c.New {
		given := false
		for thing, ver := range versions {
			given = given || len(v) == 1 && v[ver]
			if xk[thing] || xk[lex.Key(thing)] {
				return false
			}
		}
		if !given {
			return false
		}
	}
	return true
}

// hasAny reports whether keys a hold any of b.
func hasAny(a, b map[string]bool) bool {
	for k := range b {
		if a[k] {
			return true
		}
	}
	return false
}

// otherPeriod reports whether x and newer statement n each say how often
// one thing happens, n, where it announces a change, at another period,
// and they share a word besides (differ.OtherPeriod: "checks once at startup
// and then every 4 hours" once "the app now checks once an hour"). xp
// holds x's periods, read at the first call.
func (r *Retirer) otherPeriod(x string, xp *[]float64, n *Statement, xk map[string]bool) bool {
	all, announced := n.periodsOf()
	if len(all) != 1 {
		return false
	}
	if *xp == nil {
		if *xp = prose.Periods(x); *xp == nil {
			*xp = []float64{}
		}
	}
	return differ.OtherPeriod(*xp, all) && r.sharesBesides(xk, n.keys, "", true) && differ.OtherPeriod(*xp, announced)
}

// announcing returns the sentences of s that announce a change or say
// what holds now: in "Scrubs: the zfsutils cron scrubs once a month on
// the second Sunday. I disabled that line and added …" the first tells
// what was, and its "once a month" is no period anything has now.
func announcing(s string) string {
	if !strings.Contains(s, ". ") {
		return s
	}
	var out []string
	after := false // the sentence after one that announces goes on with it: "I changed the update check. It runs once an hour."
	for _, sn := range digest.Sentences(s) {
		if says := change.Of(sn) != nil || change.SaysNow(sn); says || after {
			out = append(out, sn)
			after = says
		}
	}
	return strings.Join(out, " ")
}
