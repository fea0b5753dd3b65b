package retire

import (
	"regexp"
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/retire/differ"
	"github.com/cairn-mem/cairn/internal/digest/retire/turn"
	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// DropRetired returns s without the sentences a newer statement retires;
// "" if nothing is left.
func (r *Retirer) DropRetired(s string, rank int) string {
	if r == nil {
		return s
	}
	return r.dropRetired(s, r.orderOf(rank, s, false))
}

// DropRetiredAsked is DropRetired for what a session of the given rank
// was asked.
func (r *Retirer) DropRetiredAsked(s string, rank int) string {
	if r == nil {
		return s
	}
	return r.dropRetired(s, r.orderOf(rank, s, true))
}

func (r *Retirer) dropRetired(s string, rank int) string {
	if r.saidUntrue(s, rank) {
		return ""
	}
	var kept []string
	dropped := false // a sentence or a clause of one
	sentences := digest.Sentences(s)
	// A short reply ("ok leave it on") takes its topic from the
	// statement around it, less the sentences retired on their own: a
	// reply is not retired with a sentence it does not speak of ("do it,
	// atomic it is" with "for the markdown let's go with markdown-it").
	reply, retiredAt := make([]bool, len(sentences)), make([]bool, len(sentences))
	var around []string
	for i, x := range sentences {
		if reply[i] = digest.IsReply(x); !reply[i] {
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
			if i > 0 && retiredAt[i-1] && !reply[i] && (digest.EndsOnIt(x) || goesOn.MatchString(x) && !prose.IsClause(x)) {
				// "Write rate.go: File has not been read yet. Read it
				// first before writing to it.": what "it" was went with
				// the sentence before; so did what "To it@hofer-partner.at."
				// said with its verb.
				dropped = true
				continue
			}
			kept = append(kept, x)
			continue
		}
		dropped = true
		if r.saidUntrue(x, rank) {
			continue // quoted as no longer true: whole, whatever its clauses
		}
		if check != x || r.stayReversed(x, rank) || r.takenAfterAll(x, rank) {
			continue // a decision to stay goes whole once what it passed over is taken, as does one that said no to what was taken after all
		}
		if r.ruleRetired(x, rank) || differ.HoldsBack(x) {
			continue // a rule taken back goes with its reasons, a hold lifted whole ("unless Ute and I have seen the list")
		}
		if r.replacedOutright(x, rank) {
			continue // "Rounding: Rounding.kt …; nearest quarter hour …" names the way replaced across its clauses
		}
		if strings.Contains(x, summarize.PassedOver) || r.choiceRetired(x, rank) || len(r.passedOverFor(x)) > 0 {
			// A choice reversed goes with its reasons, and so does what
			// it passed over: "I'd go with a SQLite table …: the database
			// is already there" left "Is already there; …" once the
			// limiter moved to Redis.
			continue
		}
		// A sentence of several clauses keeps those a newer statement
		// does not retire: "the backend runs on 5000, and the
		// deployment target is iOS 16" is still right about iOS 16.
		// So does a list of settings ("account oce042, partition
		// compute, 12 hour limit, output into /scratch/…") keep the
		// items that still hold.
		// A lead-in ("For reference, …", "In production, …") is no clause
		// of its own: it stays with what is left.
		lead := digest.LeadIn(x)
		parts, sep := digest.WithoutLead(prose.FullClauses(x), lead), "; "
		if len(parts) < 2 {
			parts, sep = digest.ConsequenceCut(digest.WithoutLead(prose.ListItems(x), lead)), ", "
		}
		if len(parts) < 2 {
			// "Debezium 2.5 Postgres connector against the local compose
			// Postgres (it's published on host port 5433 …)": the port
			// the aside gives moved, the connector did not.
			if head, aside, ok := digest.TrailingAside(x); ok && !r.retired(head, rank) && r.retired(aside, rank) {
				kept = append(kept, head+".")
				continue
			}
			// "Upload URLs are signed with HS256 and expire after 10
			// minutes": how long they last changed, how they are signed
			// did not.
			if what, howLong, ok := prose.LifetimeTail(x); ok && !r.retired(what, rank) && r.retired(howLong, rank) {
				kept = append(kept, what+".")
				continue
			}
			// "Production runs as the linkshort-api systemd unit with its
			// database at /var/lib/linkshort/links.db": where the database
			// lives changed, how production runs did not.
			if head, tail, ok := digest.WithTail(strings.TrimPrefix(x, lead+", ")); ok && !r.retired(head, rank) && r.retired(tail, rank) {
				kept = append(kept, digest.JoinClauses(lead, []string{head}, ""))
			}
			continue
		}
		still := r.keptClauses(parts, sep == "; ", rank)
		if sep == "; " && slices.Equal(still, parts) {
			// No clause goes on its own: the sentence stays as it was
			// said, not rejoined ("unless Ute and I have seen the list"
			// is no "unless Ute; I have seen the list"). A list none of
			// whose items goes alone goes whole, as before.
			kept = append(kept, x)
			continue
		}
		if sep == "; " && len(still) < len(parts) {
			// A phrase the split cut off its clause is no clause of its
			// own: "With the arrival-rate executor k6" of "… k6 and the
			// APM agree: …" goes with the clause that agreed.
			still = slices.DeleteFunc(slices.Clone(still), func(c string) bool { return phraseLead.MatchString(c) && !prose.IsClause(c) })
		}
		if len(still) == 1 && !strings.Contains(strings.TrimSpace(still[0]), " ") {
			continue // ".envrc" is all "… and the Cachix settings are in" leaves: one word says nothing
		}
		if len(still) > 0 && (sep == "; " || len(still) < len(parts)) {
			if head, _, ok := strings.Cut(parts[0], ": "); ok && sep == ", " && still[0] != parts[0] && len(strings.Fields(head)) >= 3 && !strings.Contains(still[0], ": ") && !digest.SubjectLess(still[0]) && !r.retired(head, rank) {
				// "The parameters live in … Parameters.cpp: time (1–2000
				// ms), feedback (0–120 %), mix …" once the range went to
				// 4000: the first item goes, what the list is of stays
				// (a label, "Proposal: …", is none; an item that goes on
				// with the subject is said with it, below).
				still = slices.Clone(still)
				still[0] = head + ": " + still[0]
			}
			if subj := digest.Subject(parts[0]); subj != "" && still[0] != parts[0] && digest.SubjectLess(still[0]) {
				// "…: the relay listens on port 7070, …, and reads its
				// routes from /etc/relaybox/routes.json there": what
				// is left reads as the relay's.
				still = slices.Clone(still)
				still[0] = digest.WithSubject(subj, still[0])
			}
			kept = append(kept, digest.JoinClauses(lead, still, sep))
		}
	}
	out := strings.Join(kept, " ")
	if dropped && (digest.Bare(out) || digest.NameOnly(out) || digest.OnlyAside(out)) {
		return "" // "Good." is all a retired request left, "`poller.py`." all of a list item
	}
	return out
}

// choiceRetired reports whether the clause of x that makes a choice
// (prose.Chose, or the option alone: prose.BareOption) is retired
// itself: its reasons go with it.
func (r *Retirer) choiceRetired(x string, rank int) bool {
	c := prose.Chose(x)
	if c == "" {
		if o := prose.BareOption(x); o != "" {
			return r.retired(o, rank)
		}
		return false
	}
	for _, p := range prose.FullClauses(x) {
		if strings.Contains(p, c) {
			return r.retired(p, rank)
		}
	}
	return false
}

// replacedOutright reports whether a statement of another session newer
// than rank says it replaced outright what x names (change.Change.Gone):
// the old way goes whole, whichever of x's clauses names it.
func (r *Retirer) replacedOutright(x string, rank int) bool {
	xk := change.TopicKeys(x)
	for _, i := range r.candidates(xk) {
		n := &r.stmts[i]
		if n.own || n.Rank >= rank || session(n.Rank) == session(rank) {
			continue
		}
		n.read()
		if r.replacedGone(n, xk) {
			return true
		}
	}
	return false
}

// replacedGone reports whether statement n replaced outright a value a
// statement of keys xk names (change.Change.Gone), one of its keys rare
// in the memory.
func (r *Retirer) replacedGone(n *Statement, xk map[string]bool) bool {
	c := n.change
	return c != nil && len(c.Replaced) > 0 && c.Gone(xk, func(k string) bool { return r.df[k] <= r.limit() })
}

// renumbered reports whether list item c is a name and a number
// ("genomics 40") that a statement newer than rank gives another number
// ("genomics 35").
func (r *Retirer) renumbered(c string, rank int) bool {
	m := namedNumber.FindStringSubmatch(strings.TrimSpace(c))
	if m == nil {
		return false
	}
	re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(m[1]) + `\s+(\d[\d.]*)\b`)
	for i := range r.stmts {
		n := &r.stmts[i]
		if n.own || n.Rank >= rank {
			continue
		}
		if v := re.FindStringSubmatch(n.Text); v != nil && v[1] != m[2] {
			return true
		}
	}
	return false
}

// namedNumber is a list item that gives a name a number, after the
// list's label if it is the first: "Proposal: struct 40", "genomics 40".
var namedNumber = lazyre.New(`^(?:[\w ]{1,30}:\s+)?([A-Za-z][\w-]{2,})\s+(\d[\d.]*)\.?$`)

// ruleRetired reports whether a clause of x that states a rule ("I
// don't want the machine on the house wifi") is retired itself: the
// rule's other clauses ("keep the controller on its own access point
// please") are the same rule or its reasons, and go with it once the
// user changed their mind about the wifi.
func (r *Retirer) ruleRetired(x string, rank int) bool {
	parts := prose.FullClauses(x)
	if len(parts) < 2 {
		parts = prose.ListItems(x) // "Please work only on a copy, data/dev-staging.db, and never touch …"
	}
	if len(parts) < 2 || !turn.RuleHead(parts[0]) {
		return false // a fact first ("the plugin codes are Lwtd and Drft; those must never change"): its clauses stand alone
	}
	for i, c := range parts {
		// A rule that restricts is taken back by its head ("Please work
		// only on a copy, …"); a later clause that restricts is a rule of
		// its own ("…; merges only go through the merge queue").
		if (change.Forbids(c) || prose.Standing(c) || i == 0 && change.Restricts(c)) && r.retired(c, rank) {
			return true
		}
	}
	return false
}

// phraseLead opens a phrase that leads into a clause: "With the
// arrival-rate executor k6".
var phraseLead = lazyre.New(`(?i)^(?:with|without|for|in|on|at|from|by|through|under|after|before|during|via)\s`)

// goesOn opens a sentence that goes on with the one before it, whose
// verb it leaves out: "To it@hofer-partner.at.", "And on Fridays.".
var goesOn = lazyre.New(`(?i)^(?:to|from|with|and|or|for|into|via|plus)\s`)

// keptClauses are the clauses of a retired sentence (or the items of a
// list) that still hold: those no newer statement retires, less those
// that only point back at a retired one or say the "only" side of a
// rule taken back.
func (r *Retirer) keptClauses(parts []string, clauses bool, rank int) []string {
	gone := make([]bool, len(parts))
	some := false
	for i, c := range parts {
		gone[i] = r.retired(c, rank)
		some = some || gone[i]
	}
	if !some && clauses && len(parts) > 2 {
		// What no clause says alone two neighbours may: "I built it on
		// Node 20.11.1, the version pinned in .nvmrc" once .nvmrc says
		// 22.12.0. Two clauses are the whole, which keeps them both.
		for i := 0; i+1 < len(parts); i++ {
			if r.retired(parts[i]+", "+parts[i+1], rank) {
				gone[i], gone[i+1] = true, true
			}
		}
		// Only when something of its own is left: otherwise the pair is
		// the sentence, which keeps its clauses.
		left := false
		for i, c := range parts {
			left = left || !gone[i] && !digest.PointsBack(c)
		}
		if !left {
			clear(gone)
		}
	}
	if clauses && !slices.Contains(gone, true) {
		neededBeside(gone, parts, "; ", func(t string) bool { return r.retired(t, rank) })
	}
	if !clauses && !some && len(parts) > 2 {
		// An item may say what it says only of the list's head: "128 GB
		// RAM each" of "Three nodes pve1, …, four NVMe OSDs per node,
		// 128 GB RAM each" once "all three nodes have 256 GB now". The
		// items without which the list is not retired are what a newer
		// statement retired.
		for i := range parts {
			rest := append(append([]string{}, parts[:i]...), parts[i+1:]...)
			gone[i] = !r.retired(strings.Join(rest, ", "), rank)
		}
		if gone[0] {
			// The head is needed to retire an item ("ESP-IDF v5.1.2, …,
			// flashing at 921600 baud" once the baud changed): it stays
			// and those items go; alone it is what was retired, and
			// the list goes whole.
			gone[0] = false
			if !slices.Contains(gone, true) {
				clear(gone)
			}
		}
	}
	if !clauses && gone[0] && differ.FileNames(parts[0]) != nil {
		// A list headed by a file a newer statement replaced says how
		// that file was: "BILL_YYYYMM.txt, fixed width, 120 characters
		// per line" goes whole once the file is BILL_YYYYMM.csv.
		return nil
	}
	if !clauses && some {
		// "struct 40, genomics 40, cryoem 20" once "struct 35, genomics
		// 35, cryoem 30": each name given another number by a newer
		// statement goes with the one retired.
		for i, c := range parts {
			if !gone[i] {
				gone[i] = r.renumbered(c, rank)
			}
		}
	}
	var still []string
	for i, c := range parts {
		switch {
		case !gone[i]:
			// "the team knows it" said nothing but why of the clause
			// retired with it.
			if !digest.PointsBack(c) && !turn.OnlyOfRule(c, parts, gone) && !tailWord.MatchString(strings.TrimSpace(c)) && !(!clauses && i > 0 && gone[i-1] && enumHead.MatchString(parts[i-1]) && enumTail.MatchString(strings.TrimSpace(c))) {
				still = append(still, c)
			}
		default:
			// "The build is ESM-only (formats: ['es']), with
			// preserveModules so every component lands in its own
			// file": how it is built still holds.
			if head, with, ok := strings.Cut(c, ", with "); ok && r.retired(head, rank) && !r.retired(with, rank) {
				still = append(still, "with "+with)
			}
		}
	}
	return still
}

// tailWord is a clause's last words split off as an item of its own:
// "…, so the old limit only caught it once the lines were fast, or
// never." leaves "or never" once the rest is retired.
var tailWord = lazyre.New(`(?i)^(?:or|and|but|nor)\s+(?:never|not(?: at all)?|none|nothing|so|too|also|later|sooner|worse|better|more|less|otherwise|else|even more)[.!]?$`)

// enumTail is the rest of an enumeration the list's split cut after its
// first word: "one CSV per building with min, avg and max per zone"
// leaves "avg and max per zone" once the CSV is retired.
var enumTail = lazyre.New(`^[a-z][a-z-]*(?: [a-z-]+)? and [a-z-]+\b[^0-9]*$`)

// enumHead is an item that ends where an enumeration begins: "one CSV
// per building with min".
var enumHead = lazyre.New(`(?i)\b(?:with|of|for|from|including|like|as|by)\s+[a-z][\w-]*\s*$`)

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

// neededBeside marks gone the clauses of a sentence a newer statement
// retired, none of them alone nor two neighbours, that have no subject
// of their own and without which the rest is not retired: they say of
// the sentence's subject what changed. "pump: starts below 30 % soil
// moisture, stops above 45 %, and is cut after 90 s regardless" once
// "the pump is now cut after 120 s" loses how long the pump runs, not
// when it starts. A clause with a subject of its own ("…, and the docs
// are in docs/") is a statement of its own and stays, as does the
// sentence whole when its retirement rests on no such clause.
func neededBeside(gone []bool, parts []string, sep string, retired func(string) bool) {
	for i := 1; i < len(parts); i++ {
		if !digest.SubjectLess(parts[i]) {
			continue
		}
		rest := append(append([]string{}, parts[:i]...), parts[i+1:]...)
		gone[i] = !retired(strings.Join(rest, sep))
	}
}
