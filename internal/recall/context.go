package recall

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/anchor"
	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/change"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/digest/open"
	"github.com/cairn-mem/cairn/internal/digest/retire"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/corecache"
	"github.com/cairn-mem/cairn/internal/recall/derived"
	"github.com/cairn-mem/cairn/internal/recall/match"
	"github.com/cairn-mem/cairn/internal/recall/recent"
	"github.com/cairn-mem/cairn/internal/recall/refs"
	"github.com/cairn-mem/cairn/internal/recall/still"
	"github.com/cairn-mem/cairn/internal/recall/tail"
	"github.com/cairn-mem/cairn/internal/usermem"
)

// ContextOptions say what Context packs.
type ContextOptions struct {
	// Query, if set, retrieves related memory from the whole memory.
	Query string
	// Budget is the most tokens (by indexer.EstimateTokens) the text may
	// have; 0 means search.context_budget of cairn.yaml.
	Budget int
	// Session is the current session (an id or a unique prefix of one):
	// it comes first among the sessions, with its state and latest turns.
	// "" means none: the latest sessions are shown as they are.
	Session string
}

// Pack is the context an agent receives, in the shape `cairn context
// --format json` prints.
type Pack struct {
	BudgetTokens int        `json:"budget_tokens"`
	UsedTokens   int        `json:"used_tokens"`
	Text         string     `json:"text"` // Markdown
	Items        []PackItem `json:"items"`
	LeftOut      []LeftOut  `json:"left_out"`
	// Warnings say what could not be done (no index, no embedding
	// service); the pack is still the best that could be made.
	Warnings []string `json:"-"`
}

// Metric is what the metrics log keeps of the pack: what asked for it
// (session-start, prompt, cli, mcp), its tokens of the budget, the
// memories in it and left out, and how long it took; none of its text.
func (p *Pack) Metric(event string, took time.Duration) metrics.Event {
	return metrics.Event{Kind: metrics.KindPack, Name: event, Tokens: int64(p.UsedTokens), Budget: int64(p.BudgetTokens),
		Items: len(p.Items), LeftOut: len(p.LeftOut), MS: metrics.Millis(took)}
}

// PackItem is a memory in the pack, whole or in part: a core item, a
// session (its id, the path of its summary), a retrieved file.
type PackItem struct {
	ID     string `json:"id"`
	Path   string `json:"path"`
	Tokens int    `json:"tokens"`
}

// LeftOut is a memory that was a candidate but did not fit.
type LeftOut struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// DefaultContextBudget is the default budget of a context pack, in
// tokens (config.DefaultContextBudget says why). The estimator counts
// about four characters a token in prose and up to five in text of short
// words, so a pack stays under 9,000 characters, under the 10,000 at
// which Claude Code cuts a hook's output (TestContextBudget measures it).
const DefaultContextBudget = config.DefaultContextBudget

// Context packs the memory an agent should receive into Markdown of at
// most opts.Budget tokens, in this order: pinned and core items (by
// importance, then recency), the items the latest sessions left open,
// the latest sessions with substance (request and outcome first, then
// root causes, decisions, environment, files), and what opts.Query
// retrieves. The budget is spent by priority, not by fixed shares: what
// matters most is taken first, whole bullets and sentences at a time,
// and what one part leaves is used by the next. Nothing is cut inside a
// sentence; the text ends with what was left out and how to fetch it.
// Memories the query retrieved into the pack have their reference count
// raised.
func (x *Index) Context(ctx context.Context, opts ContextOptions) (*Pack, error) {
	return pack(ctx, x.m, x, opts)
}

// Context is Index.Context without an index: nothing is retrieved by
// the query. It serves when the index cannot be opened.
func Context(ctx context.Context, m *memory.Memory, opts ContextOptions) (*Pack, error) {
	return pack(ctx, m, nil, opts)
}

// The sections of a pack, in the order they appear.
const (
	secPinned = iota
	secCore
	secUser // the user memory's preferences and patterns (package usermem)
	secOpen
	secSessions
	secRelated
	numSections
)

// maxPackSessions is how many of the latest sessions with substance a
// pack considers; the budget decides how many it shows.
const maxPackSessions = 10

// minUnitTokens is the least room worth rendering a unit into.
const minUnitTokens = 8

// Most tokens one unit shows: an item is a fact or two with its reason
// (cairn show has the rest), a session's bullet a sentence or two.
const (
	itemCap   = 90
	pinnedCap = 140
	bulletCap = 90
	hitCap    = 90
)

// A group is a memory the pack shows whole or in part: a core item, a
// session, the open items, a retrieved chunk.
type group struct {
	sec       int
	id, path  string // for Items and LeftOut; "" for the open items
	title     string
	fetch     string // how to read it whole
	head      string // a heading above its units, "" for none
	headTok   int
	retrieved bool   // the query found it: taking it counts a reference
	note      string // said after its id: "may be stale: ..." (package anchor)
	units     []*unit
	started   bool
	// shown are the words of each of the session's bullets taken so
	// far: a bullet or sentence one of them already holds says nothing
	// new (a root cause that joins two outcome bullets, a preference
	// the request said). One bullet must hold it: words scattered over
	// several say less than the sentence that joins them.
	shown []map[string]bool
	// told is the text of the session's bullets taken so far: the names
	// they give, whole.
	told string
	// rules are the words of the session's preference bullets taken so
	// far: a request that says one of them again word for word leaves
	// that sentence to it.
	rules []map[string]bool
	// retired reports whether a newer statement retires the core item
	// the group shows: asked only of the items the pack gets to (and
	// of the few the list of what was left out names), so that
	// thousands of items the budget never reaches are not checked.
	retired func() bool
	// known is set once retired has answered.
	known, gone bool
}

// isRetired reports whether the group is a core item a newer statement
// retires, asking once.
func (g *group) isRetired() bool {
	if g.retired == nil {
		return false
	}
	if !g.known {
		g.known, g.gone = true, g.retired()
	}
	return g.gone
}

// A unit is what the pack takes or leaves whole: an item's entry, a
// bullet of a session.
type unit struct {
	g      *group
	prio   float64 // higher is taken first
	text   string  // Markdown line(s), ending in a newline
	tokens int
	taken  bool
	// dup are units that say the same (a core item and a session's
	// bullet): the first taken stands for them all.
	dup []*unit
	// skip is set once a taken unit says what u says: u is not shown,
	// and its session is not shown in part for it.
	skip bool
	// Why u is skipped, so that dropping the unit that said it brings u
	// back: skipBy is the taken unit whose twin u is; covered, that the
	// words of the units taken before it held u's.
	skipBy  *unit
	covered bool
	// words are the content words of a bullet, for telling whether a
	// unit that says the same still says it once shortened.
	words map[string]bool
	// rule is a preference bullet: what it says, the session's request
	// need not say again.
	rule bool
	// render returns the unit in at most room tokens, or "" if it cannot
	// be shown in so few; nil if text is fixed.
	render func(room int) string
}

// said reports whether every unit of g is left out because a taken unit
// says the same, or because it says nothing once those are shown (skip:
// a question its session's outcome answers): the memory is in the pack,
// in other words, and not left out for room.
func (g *group) said() bool {
	for _, u := range g.units {
		if u.skip {
			continue
		}
		if u.taken || !slices.ContainsFunc(u.dup, func(d *unit) bool { return d.taken }) {
			return false
		}
	}
	return len(g.units) > 0
}

func (g *group) add(prio float64, text string) *unit {
	u := &unit{g: g, prio: prio, text: text, tokens: indexer.EstimateTokens(text)}
	g.units = append(g.units, u)
	return u
}

func (g *group) taken() (n, tokens int) {
	for _, u := range g.units {
		if u.taken {
			n++
			tokens += u.tokens
		}
	}
	if n > 0 {
		tokens += g.headTok
	}
	return n, tokens
}

func pack(ctx context.Context, m *memory.Memory, x *Index, opts ContextOptions) (*Pack, error) {
	cfg := searchConfig(m)
	budget := opts.Budget
	if budget == 0 {
		budget = cfg.ContextBudget
	}
	if budget < 0 {
		return nil, fmt.Errorf("context budget %d: want a positive number of tokens", budget)
	}
	p := &Pack{BudgetTokens: budget, Items: []PackItem{}, LeftOut: []LeftOut{}}

	// Retrieval first: its hits also order core items of equal importance.
	var hits []SearchHit
	if strings.TrimSpace(opts.Query) != "" {
		if x == nil {
			p.Warnings = append(p.Warnings, "no search index: nothing retrieved for the query")
		} else {
			res, err := x.Search(ctx, opts.Query, SearchOptions{K: 20, noSnippets: true})
			if err != nil {
				if ctx.Err() != nil {
					return nil, err
				}
				p.Warnings = append(p.Warnings, fmt.Sprintf("search failed: %v", err))
			} else {
				hits = res.Hits
				p.Warnings = append(p.Warnings, res.Warnings...)
			}
		}
	}
	hitScore := make(map[string]float64, len(hits))
	for _, h := range hits {
		hitScore[h.Path] = max(hitScore[h.Path], h.Score)
	}

	var groups []*group
	seen := make(map[string]bool)

	// Pinned and core items, but never one a newer item superseded.
	core, err := corecache.Candidates(ctx, m)
	if err != nil {
		return nil, err
	}
	core, gone := corecache.Current(core)
	core, twins := corecache.OnePerTitle(corecache.Ordered(core, hitScore))
	// The sessions: the one named first, then the latest with substance.
	var sessions []*recent.Session
	dir, warn := namedSession(m, opts.Session)
	if warn != "" {
		p.Warnings = append(p.Warnings, warn)
	}
	if dir != "" {
		if s := recent.Load(m, dir); s != nil {
			s.Current = true
			sessions = append(sessions, s)
		}
	}
	sessions = append(sessions, recent.Latest(m, dir, maxPackSessions)...)
	sums := recent.Digests(sessions)
	v := open.NewVocab(sums)
	year := newestYear(sessions, core)
	// doneRank is the rank whose Vocab.DoneLater says of an item's to-do whether
	// a newer session dealt with it or said it again.
	doneRank := func(session string) int {
		k := len(sessions) // a session older than those listed
		for i, s := range sessions {
			if s.ID == session {
				k = i
			}
		}
		return k
	}

	// A statement a newer one changed is not shown as current: not a
	// core item whose title it is, nor a sentence of a body or a bullet.
	ranks := make([]int, len(core))
	stmts := make([]retire.Statement, 0, len(core))
	for i, c := range core {
		ranks[i] = recent.Rank(sessions, c.Session, c.Updated)
		stmts = append(stmts, retire.Statement{Text: c.Title, Rank: ranks[i]})
	}
	r := derived.New(m, stmts, sums, v)
	defer r.Save(m)
	// Past the deadline (a session start's), the items not read yet are
	// left out: the pack holds what it read by then.
	late := func() bool { return ctx.Err() != nil }

	cores := derived.NewTitles[*unit](m) // those a session's bullet may say again
	defer cores.Save()
	// The code changed at what these name: shown, ranked lower. The
	// marks are the last check's; a pack never waits for one.
	stale, _ := anchor.Known(m)
	titles := make([]string, 0, len(core))
	for _, path := range twins {
		seen[path] = true // its title is another item's entry
	}
	for i, c := range core {
		titles = append(titles, c.Title)
		g := &group{sec: secCore, id: c.ID, path: c.Path, title: c.Title, fetch: "cairn show " + tail.Ref(c.ID), retrieved: hitScore[c.Path] > 0, note: stale[c.ID]}
		if !c.Pinned {
			// Work a newer session did is history too, and so is a
			// problem it dealt with ("the `shots` table has no index on
			// `account_id`, so `GET /v1/shots` scans the whole table"),
			// as in a session's bullet.
			g.retired = func() bool {
				k := doneRank(c.Session)
				// DropDone leaves nothing of an aside alone either
				// ("(The switch is on OCaml 5.1.1 …)"), done or not.
				return r.Retired(c.Title, ranks[i]) || r.TodoDone(k, c.Title) || r.DropDone(k, c.Title) == "" && !digest.OnlyAside(c.Title)
			}
		}
		prio, limit := corePrio+0.4*c.Importance+0.1*hitScore[c.Path], itemCap
		if g.note != "" {
			prio -= 0.1
		}
		if c.Pinned {
			g.sec, prio, limit = secPinned, 2+c.Importance, pinnedCap
		}
		u := g.add(prio, "")
		u.render = itemRenderer(m, g, c, limit, year, r, doneRank, late, func(body string) string {
			if c.Pinned {
				return body
			}
			return r.DropRetired(body, ranks[i])
		})
		groups = append(groups, g)
		seen[c.Path] = true
		if !c.Pinned {
			cores.AddTitle(c.Title, u)
		}
	}

	// The user memory's items, under every project item; none the project contradicts.
	users, warns := usermem.Layer(ctx, m.UserDir, titles)
	p.Warnings = append(p.Warnings, warns...)
	for _, u := range users {
		g := &group{sec: secUser, id: u.ID, path: u.File, title: u.Title, fetch: "cat " + u.File}
		title, after, body, read := mdtext.OneLine(u.Title), " ("+string(u.Kind)+", id "+tail.Ref(u.ID)+")\n", "", false
		g.add(corePrio-0.01+0.01*u.Importance, "").render = func(room int) string {
			if !read && !late() && indexer.EstimateTokens("- **"+title+"**"+after)+minUnitTokens < min(room, itemCap) {
				// Read only when there is room to show it; its first part weighed.
				read, body = true, u.Body()
				body, _ = digest.FirstPart(body, digest.MaxBodyBytes)
				body = mdtext.OneLine(body)
			}
			return entry(title, body, after, min(room, itemCap))
		}
		groups = append(groups, g)
	}

	if og := openGroup(sessions, v); og != nil {
		groups = append(groups, og)
	}
	dealtWith := v.DealtWith(sums)
	for k, s := range sessions {
		g := sessionGroup(s, k, sessions, year, v, r, cores, dealtWith)
		if note := stale[g.id]; note != "" {
			g.head = strings.TrimSuffix(g.head, ")\n") + "; " + note + ")\n"
		}
		groups = append(groups, g)
		seen[g.path] = true
	}

	heads := [numSections]string{"## Pinned", "## Core memory", "## You, all projects", "## Open items", "## Latest sessions", ""}
	if len(hits) > 0 {
		heads[secRelated] = "## Related to: " + digest.OneLineCut(opts.Query, 60)
		for _, h := range hits {
			if seen[h.Path] || gone[h.ID] {
				continue
			}
			seen[h.Path] = true
			groups = append(groups, hitGroup(h, year))
		}
	}

	fill(groups, heads, budget)
	p.Text = fit(groups, heads, budget)
	p.UsedTokens = indexer.EstimateTokens(p.Text)

	var retrieved []string
	for _, g := range groups {
		if g.id == "" {
			continue
		}
		if n, tokens := g.taken(); n > 0 {
			p.Items = append(p.Items, PackItem{ID: g.id, Path: g.path, Tokens: tokens})
			if g.retrieved {
				retrieved = append(retrieved, g.id)
			}
		} else if !g.said() && len(g.units) > 0 && !(g.known && g.gone) {
			// Those the pack never got to are listed unasked: the
			// list is at most what was left out, as is the count.
			p.LeftOut = append(p.LeftOut, LeftOut{ID: g.id, Title: g.title})
		}
	}
	if late() {
		p.Warnings = append(p.Warnings, "the pack's deadline came first: the items it had not read by then are left out")
		return p, nil // the references of a pack cut short are not counted
	}
	if err := refs.Count(ctx, m, retrieved); err != nil {
		p.Warnings = append(p.Warnings, err.Error())
	}
	return p, nil
}

const packHeader = "# Project memory (cairn)\n"

// fill takes units, highest priority first, while they fit in the
// budget less what the header and the list of what was left out need.
// A unit too big for what is left is passed over for smaller ones, so
// the budget is used up.
func fill(groups []*group, heads [numSections]string, budget int) {
	var units []*unit
	for _, g := range groups {
		g.headTok = indexer.EstimateTokens(g.head)
		units = append(units, g.units...)
	}
	sort.SliceStable(units, func(i, j int) bool { return units[i].prio > units[j].prio })
	reserve := min(70, max(minManifestTokens, budget/12)) // for the list of what was left out
	avail := budget - indexer.EstimateTokens(packHeader) - reserve
	total := 0
	// Text of short words runs up to five characters a token: the
	// characters are held to 4.5 a token of budget, so that the default
	// pack stays under 9,000 of them (Claude Code cuts a hook's output at
	// 10,000) whatever the estimator says of its words; the list of what
	// was left out, dense with ids and commands, may take six a token of
	// its reserve.
	charAvail, chars := budget*9/2-len(packHeader)-6*reserve, 0
	var started [numSections]bool
	// What the pack shows so far, every unit's words (its session's
	// among them): a session's bullet that a newer session, a core item
	// or an open item already says ("Run it with `pnpm e2e`" said again)
	// is not shown twice.
	var packShown []map[string]bool
	var packTold []string // their texts
	for _, u := range units {
		if u.skip {
			continue
		}
		left := avail - total
		if left < minUnitTokens {
			break
		}
		cost := 0
		if !started[u.g.sec] {
			cost += indexer.EstimateTokens(heads[u.g.sec]) + 1
		}
		if !u.g.started {
			cost += u.g.headTok
		}
		room := left - cost
		if room < minUnitTokens {
			continue
		}
		if u.render != nil && (u.text == "" || u.tokens > room) {
			u.text = u.render(room)
			u.tokens = indexer.EstimateTokens(u.text)
		}
		if u.text == "" || u.tokens > room {
			continue
		}
		if u.words != nil && (match.Covered(u.text, packShown) || match.Restated(u.text, packTold, packShown)) {
			u.skip, u.covered = true, true
			continue
		}
		c := len(u.text)
		if !started[u.g.sec] {
			c += len(heads[u.g.sec]) + 2
		}
		if !u.g.started {
			c += len(u.g.head)
		}
		if chars+c > charAvail {
			continue
		}
		chars += c
		u.taken, u.g.started, started[u.g.sec] = true, true, true
		total += u.tokens + cost
		words := match.CoverWords(u.text)
		packShown, packTold = append(packShown, words), append(packTold, u.text)
		if u.g.sec == secSessions {
			u.g.shown = append(u.g.shown, words)
			u.g.told += u.text
			if u.rule {
				u.g.rules = append(u.g.rules, words)
			}
		}
		var shown map[string]bool
		for _, d := range u.dup {
			if d.words != nil {
				if shown == nil {
					shown = lex.ContentWords(u.text)
				}
				if lex.Overlap(d.words, shown) < 0.75 {
					continue // the shortened unit lost what d says
				}
			}
			d.skip, d.skipBy = true, u
		}
	}
}

// fit assembles the pack, dropping the units taken last until the whole
// fits: the estimate of the whole may differ from the sum of its parts
// by a token here and there, and the list of what was left out must fit
// too.
func fit(groups []*group, heads [numSections]string, budget int) string {
	for {
		text, complete := assemble(groups, heads, budget)
		if indexer.EstimateTokens(text) <= budget && complete {
			return text
		}
		var last *unit
		for _, g := range groups {
			for _, u := range g.units {
				if u.taken && (last == nil || u.prio < last.prio) {
					last = u
				}
			}
		}
		if last == nil {
			if indexer.EstimateTokens(text) > budget {
				return ""
			}
			return text
		}
		untake(groups, last)
	}
}

// untake drops u from the pack, and with it the reason to leave out what
// only u said: a unit skipped as u's twin, or as held by the pack's
// words, is no longer said, and its group is left out for room (listed),
// not said, unless what stays taken says it too.
func untake(groups []*group, u *unit) {
	u.taken = false
	for _, d := range u.dup {
		if d.skipBy == u {
			d.skip, d.skipBy = false, nil
		}
	}
	var taken []*unit
	for _, g := range groups {
		for _, t := range g.units {
			if t.taken {
				taken = append(taken, t)
			}
		}
	}
	var shown []map[string]bool
	var told []string
	for _, g := range groups {
		for _, c := range g.units {
			if !c.covered {
				continue
			}
			if shown == nil {
				for _, t := range taken {
					shown, told = append(shown, match.CoverWords(t.text)), append(told, t.text)
				}
			}
			if !match.Covered(c.text, shown) && !match.Restated(c.text, told, shown) {
				c.skip, c.covered = false, false
			}
		}
	}
}

// assemble writes the pack's text: the header, each section with a
// taken unit under its heading, each group under its own, and the list
// of what was left out, as much of it as fits in budget. complete is
// false when something was left out and not even the shortest list fits.
func assemble(groups []*group, heads [numSections]string, budget int) (text string, complete bool) {
	var b strings.Builder
	for sec := range numSections {
		first := true
		for _, g := range groups {
			if g.sec != sec {
				continue
			}
			if n, _ := g.taken(); n == 0 {
				continue
			}
			if b.Len() == 0 {
				b.WriteString(packHeader)
			}
			if first {
				b.WriteString("\n" + heads[sec] + "\n")
				first = false
			}
			if g.head != "" {
				b.WriteString(g.head)
			}
			for _, u := range g.units {
				if u.taken {
					b.WriteString(u.text)
				}
			}
		}
	}
	var left []*group
	part := 0 // sessions shown in part
	for _, g := range groups {
		n, _ := g.taken()
		switch {
		case g.id == "":
		case n == 0 && g.said():
			// Not left out for room: a taken unit says what it says.
		case len(g.units) == 0:
			// Nothing to show but a heading: a session whose one request
			// is its title and whose outcome says nothing ("Ok.").
		case n == 0 && g.known && g.gone:
			// Not current: a newer statement retires it.
		case n == 0:
			left = append(left, g)
		case g.sec == secSessions && slices.ContainsFunc(g.units, func(u *unit) bool { return !u.taken && !u.skip }):
			part++
		}
	}
	// The items the list names are checked: one a newer statement
	// retires is not left out but gone. The rest are counted unasked,
	// so the count is at most what was left out: asking each of
	// thousands would cost what asking only when offered room saves.
	for i := 0; i < len(left) && i < maxNames; {
		if left[i].isRetired() {
			left = slices.Delete(left, i, i+1)
			continue
		}
		i++
	}
	if len(left)+part == 0 {
		return b.String(), true
	}
	body := b.String()
	if body == "" {
		body = packHeader
	}
	for names := maxNames; names >= -1; names-- {
		t := body + "\n" + manifest(left, part, names)
		if indexer.EstimateTokens(t) <= budget {
			return t, true
		}
	}
	return b.String(), false
}

// maxNames is how many of what was left out the list names.
const maxNames = 3

// minManifestTokens is the size of the shortest list of what was left
// out ("_Left out: 2 memories, 0 sessions in part; see `cairn search`._"
// and the blank line before it): reserved any smaller, a small budget's
// pack filled to the brim lost its last unit whole to make room for it.
const minManifestTokens = 19

// manifest says what was left out, names a few with how to fetch each,
// and how many sessions are shown in part; with names below 0, in as
// few words as it can.
func manifest(left []*group, part, names int) string {
	noun := "memories"
	if len(left) == 1 {
		noun = "memory"
	}
	if names < 0 {
		return fmt.Sprintf("_Left out: %d %s, %d sessions in part; see `cairn search`._\n", len(left), noun, part)
	}
	var b strings.Builder
	b.WriteString("_")
	if len(left) > 0 {
		fmt.Fprintf(&b, "Left out for room: %d %s", len(left), noun)
		for i, g := range left[:min(names, len(left))] {
			sep := ", "
			if i == 0 {
				sep = ", among them "
			}
			fmt.Fprintf(&b, "%s“%s” (`%s`)", sep, digest.OneLineCut(g.title, 50), g.fetch)
		}
		b.WriteString(". ")
	}
	if part > 0 {
		// Their headings give their ids: the list said them again, a
		// tenth of the tokens the closing line cost.
		noun := "sessions"
		if part == 1 {
			noun = "session"
		}
		fmt.Fprintf(&b, "Shown in part: %d %s. ", part, noun)
	}
	b.WriteString("Read one whole with `cairn show ID` or `cairn session show ID` (MCP: `get`); find more with `cairn search QUERY`._\n")
	return b.String()
}

// maxItemRead is the most of an item's file the pack reads: its front
// matter and the first digest.MaxBodyBytes of its body, with room to spare.
const maxItemRead = 2 * digest.MaxBodyBytes

// itemRenderer returns the render function of a core item's entry: its
// title, then as many whole sentences of its body as fit (never the
// title again), its kind, date and id; the item read and parsed at the
// first call, its body's first part only (digest.FirstPart). Once late
// says the pack's deadline passed, an item not read yet is left out.
//
// An item that states work to do a newer session dealt with is history:
// it is not shown, and neither are such sentences of its body.
func itemRenderer(m *memory.Memory, g *group, c corecache.Item, limit, year int, r *derived.Retirer, doneRank func(session string) int, late func() bool, now func(string) string) func(room int) string {
	// The entry's state, in one object: captured one by one, the item
	// and each variable the function sets were an allocation each, ten
	// for every core item (57,000 at 5,700).
	e := &struct {
		c                   corecache.Item
		read, gone, current bool
		title, body, tail   string
		k                   int // its session's rank, for Vocab.DoneLater
		least               int // the tokens of its shortest entry, when the catalogue says
	}{c: c, least: -1}
	return func(room int) string {
		if !e.read && e.least < 0 && e.c.Parsed && !strings.HasSuffix(e.c.Title, "…") {
			// The catalogue has the title and the tail the file would
			// give: near a full pack thousands of items are offered
			// less room than their title needs, and none of them is read.
			e.least = tail.LeastTokens(e.c.Title, e.c.Kind, e.c.Updated, year, g.id, g.note)
		}
		if !e.read && e.least > min(room, limit) {
			return ""
		}
		if g.isRetired() {
			return ""
		}
		if !e.read && late() {
			return "" // not read in time
		}
		if !e.read {
			e.read = true
			// The file's head only: the entry is made of the body's
			// first part (digest.MaxBodyBytes), and a file of megabytes
			// read whole would cost a session start its length.
			data, _, err := m.ReadFileHead(g.path, maxItemRead)
			m.WarnLink(err) // a link is named and left out
			if err != nil {
				e.gone = true
				return ""
			}
			var kind, session, body string
			var when time.Time
			if it, err := model.Parse(g.path, data); err == nil {
				body, kind, when, session = it.Body, string(it.Kind), it.Updated, it.Session
				if it.Title != "" {
					g.title = it.Title
				}
			} else {
				// Broken front matter: the rest is plain text.
				body = strings.ReplaceAll(string(data), "\r\n", "\n")
				if first, rest, ok := strings.Cut(body, "\n"); ok && model.IsDelimiter(first) {
					if _, after, _, ok := model.CutFrontMatter(rest); ok {
						body = after
					}
				}
			}
			body, _ = digest.FirstPart(body, digest.MaxBodyBytes)
			full := mdtext.OneLine(digest.StripHeadings(body))
			e.title, e.body = digest.ItemText(mdtext.OneLine(g.title), full)
			if rest, ok := strings.CutPrefix(full, e.title+":"); ok && strings.TrimSpace(rest) != "" && len(digest.Sentences(full)) == 1 && now(full) == "" {
				// A title that leads its sentence in ("Last night
				// settles the trade-off I weighed before: losing the
				// spool with the box is worse than … db-02's …") says
				// nothing once what follows its colon changed.
				e.gone, g.known, g.gone = true, true, true
				return ""
			}
			if whole, ok := digest.CutInSentence(e.title, full); ok {
				// A title cut inside its body's first sentence ("… with 25
				// threads that serves every") is not what a newer
				// statement changed: the sentence is. Where none changed
				// it, the sentence heads the entry whole when it is not
				// long: "**Copy from the replica**: the primary runs hot"
				// read as a title and its reason when "Copy from the
				// replica, the primary runs hot" was said, and "**… on a
				// test**: table yesterday." as nothing. Where one did,
				// what is left of it heads the entry.
				first, rest := digest.FirstSentence(whole)
				if now(whole) == whole && utf8.RuneCountInString(first) <= digest.MaxTitleRunes {
					e.title, e.body = first, rest
				} else if joined := e.title + " " + e.body; e.body != "" && unicode.IsLower([]rune(e.body)[0]) {
					if left := now(joined); left != joined && !strings.HasPrefix(left, e.title) {
						if left == "" {
							e.gone, g.known, g.gone = true, true, true // retired: neither shown nor named
							return ""
						}
						e.title, e.body = digest.FirstSentence(left)
					}
				}
			}
			e.k = doneRank(session)
			if r.TodoDone(e.k, e.title) {
				e.gone = true
				return ""
			}
			e.tail = tail.Of(kind, when, year, g.id, g.note)
		}
		if e.gone {
			return ""
		}
		// Only a body entry has room to show is checked for work done
		// and against every newer statement: near a full pack, thousands
		// of core items are offered room for their title at most
		// (entry's own test).
		if !e.current && indexer.EstimateTokens("- **"+e.title+"**"+e.tail)+minUnitTokens < min(room, limit) {
			e.current, e.body = true, now(r.DropDoneCause(e.k, e.body))
		}
		if !e.current {
			return entry(e.title, "", e.tail, min(room, limit))
		}
		return entry(e.title, e.body, e.tail, min(room, limit))
	}
}

// entry renders a list entry, "- **title**: text (tail)", with as many of
// text's whole sentences as fit in room tokens, or none (the title says
// what the item is about; cairn show has the rest); "" if even that is
// too long.
func entry(title, text, tail string, room int) string {
	line := "- **" + title + "**"
	if text != "" {
		if r := room - indexer.EstimateTokens(line+tail) - 1; r >= minUnitTokens {
			if s := digest.Whole(text, r); s != "" {
				line += ": " + s
			}
		}
	}
	line += tail
	if indexer.EstimateTokens(line) > room {
		return ""
	}
	return line
}

// openGroup gathers the items the sessions left open at their end, the
// newest first, leaving out those a later session mentions: it dealt
// with them, or said again they are open (its statement is the newer).
func openGroup(sessions []*recent.Session, v *open.Vocab) *group {
	g := &group{sec: secOpen}
	var kept []map[string]bool
	sums := recent.Digests(sessions)
	for k, s := range sessions {
		for i, o := range s.Digest.Open {
			d := v.Distinct(o)
			if len(d) == 0 || v.ClosedLater(o, d, sums, k) {
				continue
			}
			if v.Quoted(o, k) {
				continue // a newer session said it no longer holds
			}
			// The same item said twice shares most of its words; two
			// items of one list share a file name or a verb.
			ok := change.Keys(o)
			dup := false
			for _, kk := range kept {
				if v.Refers(d, kk) && lex.Overlap(ok, kk) >= 0.5 {
					dup = true
					break
				}
			}
			if dup {
				continue
			}
			kept = append(kept, ok)
			text := digest.Shorten(o, bulletCap)
			g.add(0.9-0.07*float64(k)-0.005*float64(i), "- "+text+" (session "+memory.ShortSession(s.ID)+")\n")
		}
	}
	if len(g.units) == 0 {
		return nil
	}
	return g
}

// How the budget is spent: the newest session's request and outcome
// first, then what lasts (root causes, decisions with their reasons,
// rejected alternatives, preferences, environment) from every session
// and core memory, the newest first, and only then what older sessions
// asked and did: their narrative is history, their knowledge is not (an
// outcome that gives a value is knowledge: statedLag).
const (
	narrativePrio = 0.95 // the newest session's request and outcome
	narrativeAge  = 0.1  // less per older session
	durablePrio   = 0.88 // a session's root causes, decisions, ...
	durableAge    = 0.015
	corePrio      = 0.5 // plus 0.4 × importance
)

// Priorities of a session's parts, below the base priority of their kind
// (narrative or digest.Durable). What the agent meant to do (Approach)
// is what its outcome then says was done: in blind M+N+O its lines took
// 4 % of a pack's tokens and held 1.6 % of the facts found, so it comes
// with the commands, after every statement of what holds.
var partPrio = [digest.NumParts]float64{
	digest.Request: 0, digest.Outcome: 0.01, digest.Root: 0, digest.Decisions: 0.005, digest.Preferences: 0.005,
	digest.Environment: 0.01, digest.Notes: 0.06, digest.Rejected: 0.01, digest.Errors: 0.25, digest.Files: 0.2,
	digest.Commands: 0.3, digest.Read: 0.4, digest.Approach: 0.3,
}

// statedLag is how far an older session's outcome that gives a value
// comes after its decisions and environment. Its request does not move
// up with it: over 37 test projects that cost half of what the outcomes
// gained.
const statedLag = 0.08

// detailPrio is the priority of the newest session's details, the
// statements of its answers no other part took, an older session's 0.01
// less each: they fill the room the rest leaves, the newer session's
// first.
const detailPrio = 0.1

// listPrio is the priority of a session's lists of the files it changed
// and the commands it ran: last, after every statement. With
// every filter on and room for all (30 opened blind projects at 8,000
// tokens) those lists held no fact no other line of the pack held, and
// at 2,000 tokens the newest session's lists took the room of older
// sessions' outcomes and requests: 32 facts more without them, one
// stale line fewer. git log and the session's own record keep them. A
// session resumed by name keeps them where they were: that is the work
// it goes on with.
const listPrio = 0

// sessionGroup renders sessions[k] as a heading and its bullets: request
// and outcome first, then root causes, decisions, environment, files,
// then the turns no summary covers yet. A bullet a newer session
// restates (a port that moved, a decision reversed) is left out as
// stale, and so is one a core item states; a to-do a newer session dealt
// with is left out too, and so is one the open items list. A bullet that
// says what a core item says takes the item's place when it comes first.
func sessionGroup(s *recent.Session, k int, sessions []*recent.Session, year int, v *open.Vocab, r *derived.Retirer, cores *derived.Titles[*unit], dealtWith func(k int, ask string) bool) *group {
	newer := sessions[:k]
	short := memory.ShortSession(s.ID)
	g := &group{sec: secSessions, id: s.ID, title: s.Title, fetch: "cairn session show " + short, path: s.Dir + "/summary.md"}
	if len(s.Digest.Parts[digest.Request])+len(s.Digest.Parts[digest.Outcome])+len(s.Digest.Parts[digest.Notes]) == 0 {
		g.path = s.Dir + "/" + model.TranscriptFile
	}
	which := "session " + short
	if s.Current {
		which += ", current"
	}
	date := ""
	if !s.When.IsZero() {
		date = " — " + tail.Day(s.When.UTC(), year)
	}
	title, requests := digest.Heading(s.Title, s.Digest.Parts[digest.Request])
	dealt := func(ask string) bool { return !s.Current && dealtWith(k, ask) }
	headingGone := false // every word of its heading a newer session changed
	if !s.Current {
		t := r.Title(title, k)
		headingGone, title = t != title && t == "Session", t
		if headingGone {
			title = currentOutcome(s, k, r, title)
		}
		g.title = title // the manifest names it so too, without what a newer session changed
		if dealt(title) {
			title += " (done)"
		}
	}
	g.head = "\n### " + title + date + " (" + which + ")\n"
	narrative := narrativePrio - narrativeAge*float64(k)
	lasting := durablePrio - durableAge*float64(k)
	if s.Current {
		narrative, lasting = 1, 1
	}
	for i, l := range s.State {
		g.add(narrative-0.02-0.001*float64(i), l)
	}
	older := recent.Digests(newer)
	replaced := recent.ReplacedBy(newer)
	// A bullet that another bullet of the session holds (an outcome that
	// is also a decision, a fact filed under two kinds) is shown once:
	// taking the one that holds it covers it.
	type saying struct {
		words   map[string]bool
		sents   []map[string]bool // each sentence's, so that none goes unsaid
		u       *unit
		request bool
	}
	var said []saying
	told := len(s.State) + len(s.Turns) // what it says besides its lists of files and commands
	had := told                         // as told, before newer sessions and its core items had their say
	for p, bullets := range s.Digest.Parts {
		if p != int(digest.Commands) && p != int(digest.Files) && p != int(digest.Read) && p != int(digest.Errors) && p != int(digest.Details) {
			had += len(bullets)
		}
	}
	for _, p := range digest.Order {
		bullets := s.Digest.Parts[p]
		if p == digest.Request {
			bullets = requests
		}
		base := narrative
		if digest.Durable(p) {
			base = lasting
		}
		if p == digest.Commands && k > 0 && !s.Current {
			continue // an older session's commands are history
		}
		if p == digest.Commands {
			// A command that edited files (sed -i, git mv) did the work
			// the outcome tells, and so did a loop or an inline script;
			// neither is a way to run anything again.
			bullets = slices.DeleteFunc(slices.Clone(bullets), func(b string) bool { return digest.EditCommand(b) || digest.ScaffoldCommand(b) })
		}
		if p == digest.Files && k > 0 && !s.Current {
			// A file a newer session deleted or moved away is not
			// where this list says: `git mv overlays envs`. A file
			// the session's own bullets name is said there, with what
			// it holds: over the packs of every test project, seven
			// older sessions' lists in ten held no fact of their own.
			told := s.Text()
			bullets = slices.DeleteFunc(slices.Clone(bullets), func(b string) bool {
				f := digest.ChangedFile(b)
				return r.Retired(f, k) || strings.Contains(told, path.Base(f))
			})
		}
		if p == digest.Files {
			if len(bullets) > 0 {
				prio := base - partPrio[p]
				if !s.Current {
					prio = listPrio
				}
				g.add(prio, digest.FilesLine(bullets))
			}
			continue
		}
		for i, b := range bullets {
			if v.Quoted(b, k) {
				continue // a newer session said it no longer holds
			}
			if p == digest.Request && k > 0 && !s.Current {
				b = still.Stated(b) // the question an older session asked, its outcome answers
			}
			if p == digest.Outcome && still.Weighed(b, s.Digest) {
				continue // the options it chose among: its decision and Rejected line say what came of them
			}
			if b = still.Says(r, p, k, b, replaced, s.Current); b == "" || (p == digest.Request || p == digest.Outcome) && digest.IsChitChat(b) {
				// "Good." asks nothing, "Have a good evening!" and "Found and
				// fixed." tell nothing. A decision or a rule as short says
				// much: "Use Postgres.", "No ORMs."
				continue
			}
			if digest.Stale(p, b, older, nil) {
				continue
			}
			if p != digest.Commands && p != digest.Details {
				told++ // a detail alone keeps no session whose statements all changed
			}
			prio := base - partPrio[p] - 0.005*float64(i)
			if k > 0 && !s.Current && p == digest.Outcome && digest.StatesValue(b) {
				// An older session's outcome that gives a value ("WAN is
				// PPPoE on wan.6") states what holds as its decisions
				// do: over the test projects nine in ten such bullets
				// held a lasting fact, as many as its Environment's, and
				// half the facts the packs missed lived only in a
				// session's narrative, most of them in its outcome.
				prio = max(prio, lasting-partPrio[p]-statedLag-0.005*float64(i))
			}
			if p == digest.Details {
				prio = detailPrio - 0.01*float64(k) - 0.001*float64(i)
			}
			if p == digest.Commands && !s.Current {
				prio = listPrio - 0.001*float64(i)
			}
			if p == digest.Request && i > 0 {
				prio -= 0.08 // the first request says most
			}
			if p == digest.Request && k > 0 && !s.Current {
				// What an older session was asked is history its outcome
				// answers: over all packs its requests held a unique fact
				// for every 370-400 tokens, its outcomes one for 160-180.
				prio -= 0.1
				if len(s.Digest.Parts[digest.Root]) > 0 {
					// Its report of what broke is told again, with why,
					// by its root cause.
					prio -= 0.05
				}
			}
			lead := "- " + digest.Labels[p] + ": "
			switch {
			case digest.Unlabelled(p):
				lead = "- "
			case p == digest.Request && dealt(b):
				lead = "- " + digest.Labels[p] + " (done): "
			}
			cause := "" // a root cause's first sentence, which says the cause
			if p == digest.Root {
				if ss := digest.Sentences(b); len(ss) > 0 {
					cause = ss[0]
				}
			}
			u := g.add(prio, "")
			u.rule = p == digest.Preferences
			u.render = func(room int) string {
				l := lead
				n := indexer.EstimateTokens(l)
				r := min(room, bulletCap) - n
				if r < minUnitTokens/2 {
					return ""
				}
				// A single sentence up to twice the cap is shown whole
				// when there is room for it: cutting it would lose its
				// end, leaving it out all of it.
				// A request keeps its sentences together, what the user
				// decided and why often sits in two of them, less a rule
				// of the user's its Preference bullet says word for word.
				t := match.Unrepeated(b, g.rules)
				if p != digest.Request {
					t = match.Unsaid(b, g.shown)
				} else if !s.Current && match.Answered(t, g.shown, g.told) {
					t = "" // what an ended session was asked, its bullets say done
				} else if !s.Current {
					// A sentence of it a bullet shown says word for word
					// (a decision the user stated in it) is not said
					// twice; the sentence beside it, often the reason,
					// stays.
					t = match.Unrepeated(t, g.shown)
				}
				if t == "" || p == digest.Preferences && !still.KeepsHead(b, t) || t != b && (p == digest.Request || p == digest.Outcome) && digest.IsChitChat(t) {
					// Said by the bullets shown; a rule's reason alone, its
					// rule shown elsewhere, says nothing; nor does what is
					// left of a request once a rule it stated is taken out
					// ("Great explanation.").
					u.skip = true
					return ""
				}
				if cause != "" && t != b && !strings.HasPrefix(t, cause) {
					// The cause is shown: what is left is how it was mended
					// ("`app_main.c` now drives GPIO10 low"), no cause.
					l = "- "
				}
				whole := t
				t = digest.Shorten(t, r)
				if t == "" || indexer.EstimateTokens(t) > room-n || t != whole && (stub(t) || p == digest.Request && digest.IsChitChat(t)) {
					return "" // "ok." is all a shortened request kept
				}
				if strings.HasSuffix(t, "…") && !strings.HasSuffix(whole, "…") && r < bulletCap-n {
					// A sentence is cut only where it is too long for any
					// bullet, never to fit what is left of the budget: "The
					// 90 s pump cap is a hard limit in…" says less than
					// nothing, and the room may hold a whole bullet.
					return ""
				}
				return l + t + "\n"
			}
			// A bullet the session's request says again (a decision or
			// a preference the user stated in it) is covered by the
			// request when the request is taken first, as in the newest
			// session: said twice it takes the room of another fact.
			// A request is left out for a bullet only when the bullet
			// says nearly all of it: the decision and its reason often
			// sit in two of its sentences, and a bullet that holds one
			// of them loses the other.
			{
				w := lex.ContentWords(b)
				u.words = w
				var sents []map[string]bool
				for _, x := range digest.Sentences(b) {
					sents = append(sents, lex.ContentWords(x))
				}
				for _, o := range said {
					if len(w) >= 2 && lex.Overlap(w, o.words) >= 0.75 && eachSaid(sents, o.words) {
						o.u.dup = append(o.u.dup, u)
					}
					if len(o.words) >= 2 && lex.Overlap(o.words, w) >= 0.75 && eachSaid(o.sents, w) && (!o.request || lex.Overlap(o.words, w) >= 0.9) {
						u.dup = append(u.dup, o.u)
					}
				}
				said = append(said, saying{w, sents, u, p == digest.Request})
			}
			if p != digest.Request {
				w := lex.ContentWords(b)
				for _, j := range cores.Overlapping(w, 0.75) {
					cu := cores.Value(j)
					u.dup, cu.dup = append(u.dup, cu), append(cu.dup, u)
				}
			}
		}
	}
	if n := len(s.Turns); n > 0 {
		// The newest turns matter most: they are what no summary holds.
		for i, t := range s.Turns {
			g.add(narrative-0.03-0.004*float64(n-1-i), t)
		}
	}
	if had > 0 && told == 0 && !s.Current && (headingGone || k > 0) {
		// Newer sessions changed all it said: it is history, not a
		// session the budget left out.
		g.retired = func() bool { return true }
	}
	return g
}

// currentOutcome is the heading of a session whose title a newer session
// changed all of ("Hosting: self-hosted Temporal or Temporal Cloud?" once
// it is Cloud): what its first outcome still current says, in a few
// words, or def when none is.
func currentOutcome(s *recent.Session, k int, r *derived.Retirer, def string) string {
	for _, b := range s.Digest.Parts[digest.Outcome] {
		if digest.IsChitChat(b) || r.DropRetired(b, k) != b {
			continue
		}
		if ss := digest.Sentences(b); len(ss) > 0 {
			b = ss[0]
		}
		return digest.OneLineCut(strings.TrimRight(b, "."), 60)
	}
	return def
}

// eachSaid reports whether words holds most of each sentence's words (of
// those with two or more): a bullet that says one sentence of another is
// no copy of it ("I didn't use create_react_agent because …" leaves "The
// agent is a hand-built StateGraph" unsaid).
func eachSaid(sents []map[string]bool, words map[string]bool) bool {
	for _, s := range sents {
		if len(s) >= 2 && lex.Overlap(s, words) < 0.5 {
			return false
		}
	}
	return true
}

// hitGroup renders a search hit as a list entry.
func hitGroup(h SearchHit, year int) *group {
	var meta []string
	if h.Kind != "" {
		meta = append(meta, h.Kind)
	}
	if h.Session != "" {
		meta = append(meta, "session "+memory.ShortSession(h.Session))
	}
	if h.Created != nil {
		meta = append(meta, tail.Day(*h.Created, year))
	}
	meta = append(meta, fmt.Sprintf("%s:%d-%d", h.Path, h.StartLine, h.EndLine))
	after := " (" + strings.Join(meta, ", ") + ")\n"
	title, text := digest.ItemText(mdtext.OneLine(h.Title), mdtext.OneLine(digest.StripHeadings(h.Text)))
	if strings.HasSuffix(h.Path, "/summary.md") {
		// A part of a session's summary: its bullets, labelled.
		title = "Session " + memory.ShortSession(h.Session)
		text = digest.Text(digest.Parse(h.Text))
	}
	g := &group{sec: secRelated, id: h.ID, path: h.Path, title: h.Title, fetch: "cairn show " + tail.Ref(h.ID), retrieved: true}
	g.add(0.55+0.35*h.Scores.Match, "").render = func(room int) string { return entry(title, text, after, min(room, hitCap)) }
	return g
}

// newestYear is the year of the newest session or core item: a pack
// gives the days of that year without it ("Dec 5"), as one says them.
// It is the memory's, not the clock's, so that a pack is the same
// whenever it is made.
func newestYear(sessions []*recent.Session, core []corecache.Item) int {
	var newest time.Time
	for _, s := range sessions {
		if s.When.After(newest) {
			newest = s.When
		}
	}
	for _, c := range core {
		if c.Updated.After(newest) {
			newest = c.Updated
		}
	}
	return newest.UTC().Year()
}

// namedSession finds the folder of the session ref names (in sessions/
// or archive/); "" with a warning if there is none.
func namedSession(m *memory.Memory, ref string) (dir, warn string) {
	if ref == "" {
		return "", ""
	}
	id, err := m.Sessions().Resolve(ref)
	if err != nil {
		return "", err.Error()
	}
	for _, pattern := range []string{"sessions/" + id, "archive/*/*/" + id} {
		if found, _ := filepath.Glob(filepath.Join(m.Dir, filepath.FromSlash(pattern))); len(found) > 0 {
			rel, _ := filepath.Rel(m.Dir, found[0])
			return filepath.ToSlash(rel), ""
		}
	}
	return "", fmt.Sprintf("no session %s in this memory yet; showing the latest", ref)
}

// stub reports whether a bullet cut inside a sentence to fit kept too
// few words to say anything: "Request: and in the build step of the…".
// A first sentence kept whole ("CSRF is in: a double-submit token.")
// says something however short.
func stub(cut string) bool { return strings.HasSuffix(cut, "…") && len(strings.Fields(cut)) < 10 }
