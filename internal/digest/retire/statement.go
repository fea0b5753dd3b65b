package retire

import (
	"strings"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/quantity"
	"github.com/cairn-mem/cairn/internal/digest/replace"
	"github.com/cairn-mem/cairn/internal/digest/retire/differ"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/prose/clock"
	"github.com/cairn-mem/cairn/internal/prose/paths"
)

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
	now      int8 // change.SaysNow of Text: 0 not read yet, 1 no, 2 yes
	settings map[string]string
	bare     map[string]string // prose.BareSettings
	versions map[string]string
	// replaced are the code values a command replaced in place.
	replaced []string
	// names are plain names a statement says a thing no longer is
	// (addMovedValues): "harborlabs" once "the publisher is quill-lang now".
	names []string
	// insteadOf are the code spans the statement says another one
	// replaced: `cargo test --workspace` in "Tests run with `cargo
	// nextest run` now instead of `cargo test --workspace`".
	insteadOf [][2]string
	// files are the distinctive file names a statement that announces a
	// change names ("the import is BILL_YYYYMM.csv now"), by base name.
	files      map[string]string
	fractions  []differ.Fraction
	rejects    []differ.Rejected // values it says will not do: "14 isn't enough"
	quantities []quantity.Quantity
	// only are the keys of the thing the statement says alone changed
	// (change.Only): "only the catalog moved".
	only map[string]bool
	// removed are the keys of what the statement says was taken out:
	// "Hilt is out", "ripped out `node-fetch`".
	removed []string
	named   map[string]string // prose.Named
	tools   map[string]string // change.Tools
	// nowNoun and nowValue: "the publisher is quill-lang now" (change.NowIs)
	nowNoun, nowValue string
	// away are names a statement says are gone for good: "the name
	// hooks-01 is gone" (change.Gone; a moved value's statement only).
	away []string
	edit *replace.Edit // a file's line given another value
	was  string        // the line a replacement replaced (Sources)
	line string        // was, when it sets a value (replace.SettingLine)
	// own marks a copy of a replacement read against its own session's
	// statements, which are older than what the session did: only the
	// versions it replaced, only for statements of its rank.
	own bool
	// core marks a core item's title: like today's statements of its
	// session, it retires none of its session's statements, whatever
	// their segment; it is retired by them only when a bullet of the
	// session says it, as of that bullet's segment (orderOf).
	core bool
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
	// format: the file format it says a thing comes in now (formatNow)
	format  string
	fmtRead bool
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
	// times: when the things its clauses name happen (timesOf)
	times     []prose.Claim
	timesRead bool
	// portClaims: the ports its clauses give, each with what it is of
	// (clausePorts)
	portClaims []prose.Claim
	portsRead  bool
	// siblings: what change.ReadSiblings reads of it (siblingsOf)
	siblings *change.SiblingText
	// periods: how often what it says happens, in all of it and in its
	// sentences that announce a change (periodsOf)
	periods, announced []float64
	periodsRead        bool
}

// periodsOf reads, once, how often the statement says a thing happens
// (prose.Periods), in all of it and in what of it announces a change
// (announcing).
func (st *Statement) periodsOf() (all, announced []float64) {
	if !st.periodsRead {
		st.periodsRead = true
		st.periods = prose.Periods(st.Text)
		if len(st.periods) == 1 {
			st.announced = prose.Periods(announcing(st.Text))
		}
	}
	return st.periods, st.announced
}

// siblingsOf reads, once, what change.SiblingText.Of asks of the statement as
// the newer one.
func (st *Statement) siblingsOf() *change.SiblingText {
	if st.siblings == nil {
		st.siblings = change.ReadSiblings(st.Text)
	}
	return st.siblings
}

// clausePorts reads, once, the port each clause of a statement that
// says several things gives: "Local builds from now on: `make
// PG_CONFIG=… installcheck`, cluster on port 5417" gives the cluster's
// port in its last clause, which the claim of the whole sentence (an
// environment variable's) does not hold.
func (st *Statement) clausePorts() []prose.Claim {
	if !st.portsRead {
		st.portsRead = true
		st.portClaims = clausePortsOf(st.Text)
	}
	return st.portClaims
}

// clausePortsOf reads the port each clause of s gives, with what it is
// of, when s has more than one clause.
func clausePortsOf(s string) []prose.Claim {
	if !strings.ContainsAny(s, ",;") && !strings.Contains(s, ". ") && !strings.Contains(s, " — ") {
		return nil
	}
	var out []prose.Claim
	for _, sn := range digest.Sentences(s) {
		for _, c := range change.ClauseParts(sn) {
			if cl := prose.FactClaim(c); strings.HasSuffix(cl.Subject, " port") {
				out = append(out, cl)
			}
		}
	}
	return out
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

// timesOf reads when the things the statement's clauses name happen,
// once.
func (st *Statement) timesOf() []prose.Claim {
	if !st.timesRead {
		st.timesRead = true
		st.times = clock.Times(st.Text)
	}
	return st.times
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
// formatNow is the file format the statement says a thing comes in now
// ("the principals' weekly report is a PDF now"), read once.
func (st *Statement) formatNow() string {
	if !st.fmtRead {
		st.fmtRead = true
		st.format = change.FormatNow(st.Text)
	}
	return st.format
}

func (st *Statement) pathsOf() ([][]string, map[string]string) {
	if !st.pathsRead {
		st.pathsRead = true
		st.paths, st.dirs = paths.AbsPaths(st.Text), paths.VersionedDirs(st.Text)
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
	st.fractions = differ.FractionsOf(st.Text)
	st.rejects = differ.RejectedOf(st.Text)
	if st.change != nil {
		st.files = differ.FileNames(st.Text)
		st.only = change.Only(st.Text)
	}
	for _, m := range codeInstead.FindAllStringSubmatch(st.Text, -1) {
		old := m[2]
		if old == "" {
			old = m[3]
		}
		st.insteadOf = append(st.insteadOf, [2]string{m[1], old})
	}
}

// codeInstead is a code span said to take another's place.
// The other may be a place named without quotes, by a name no word is
// ("`/srv/sftp/erp/outbox` instead of the ERP-Import share").
var codeInstead = lazyre.New("`([^`]{2,80})`[^`.;:]{0,20}?\\b(?:instead of|rather than|in place of|replacing)\\s+(?:`([^`]{2,80})`|(?:the |our )?([A-Za-z][\\w.]*[-_][\\w.-]*\\w|[a-z][\\w.-]*[A-Z][\\w.-]*\\w|[A-Z][\\w.-]*[A-Z][\\w.-]*)(?: share| folder| directory| dir| path| bucket| mount)?\\b)")

// factClaim is what the statement claims as a fact, read on first use.
// saysNow reports change.SaysNow of the statement, read once: the
// rules ask it of a newer statement for each older one they check.
func (st *Statement) saysNow() bool {
	if st.now == 0 {
		st.now = 1
		if change.SaysNow(st.Text) {
			st.now = 2
		}
	}
	return st.now == 2
}

// announces reports whether the statement announces a change: one it
// states, or one it says holds now.
func (st *Statement) announces() bool { return st.change != nil || st.saysNow() }

func (st *Statement) factClaim() *prose.Claim {
	if st.claim == nil {
		cl := prose.FactClaim(st.Text)
		st.claim = &cl
	}
	return st.claim
}
