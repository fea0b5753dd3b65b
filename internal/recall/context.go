package recall

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/docs"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/cairn-mem/cairn/internal/summarize"
	"gopkg.in/yaml.v3"
)

// ContextOptions say what Context packs.
type ContextOptions struct {
	// Query, if set, retrieves related memory from the whole memory.
	Query string
	// Budget is the most tokens (by indexer.EstimateTokens) the text may
	// have; 0 means search.context_budget of cairn.yaml.
	Budget int
	// Session is the current session (an id or a unique prefix of one);
	// "" means the session in sessions/ that changed last.
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

// PackItem is a memory in the pack.
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
// tokens. The estimator counts about four characters a token in prose
// and up to five in text of short words, so a pack stays under 7,500
// characters, well under the 10,000 at which Claude Code cuts a hook's
// output (TestContextBudget measures it).
const DefaultContextBudget = 1500

// Context packs the memory an agent should receive into Markdown of at
// most opts.Budget tokens: pinned and core items first (by importance),
// then the current session's state and summary, then what opts.Query
// retrieves from the rest of the memory (or, without a query, the latest
// summaries of other sessions). No memory appears twice, and the text
// ends with what was left out and how to fetch it. Memories the query
// retrieved into the pack have their reference count raised.
func (x *Index) Context(ctx context.Context, opts ContextOptions) (*Pack, error) {
	return pack(ctx, x.m, x, opts)
}

// Context is Index.Context without an index: nothing is retrieved by
// the query. It serves when the index cannot be opened.
func Context(ctx context.Context, m *memory.Memory, opts ContextOptions) (*Pack, error) {
	return pack(ctx, m, nil, opts)
}

// The sections of a pack, in the order they appear and are filled.
const (
	secPinned = iota
	secCore
	secSession
	secRelated
	numSections
)

// Shares of the budget each section may take in the first pass, so that
// every section gets some room; what they leave is offered to every
// candidate left, in section order (pinned items first), in a second
// pass.
var sectionShare = [numSections]float64{0.3, 0.25, 0.2, 0.25}

// Most tokens one block of a section shows: an item is a fact or two
// (cairn show has the rest); a session's summary may say more.
var blockCap = [numSections]int{150, 80, 300, 150}

// minBlockTokens is the least room worth rendering a block into.
const minBlockTokens = 12

// A block is a candidate for the pack: one memory, rendered.
type block struct {
	section   int
	id, path  string
	title     string
	text      string // Markdown, ending in a newline; "" until rendered
	tokens    int
	retrieved bool // the query found it: taking it counts a reference
	taken     bool
	// render sets text to the block in at most room tokens, or to ""
	// if it cannot be shown in so few.
	render func(room int)
}

func (b *block) set(text string) {
	b.text, b.tokens = text, indexer.EstimateTokens(text)
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

	var blocks []*block
	var memo *coreMemo
	if x != nil {
		memo = &x.core
	}
	core, err := coreCandidates(ctx, m, memo)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(core, func(i, j int) bool {
		a, b := core[i], core[j]
		if a.pinned != b.pinned {
			return a.pinned
		}
		if a.importance != b.importance {
			return a.importance > b.importance
		}
		if hitScore[a.path] != hitScore[b.path] {
			return hitScore[a.path] > hitScore[b.path]
		}
		return a.updated.After(b.updated)
	})
	for _, c := range core {
		sec := secCore
		if c.pinned {
			sec = secPinned
		}
		b := &block{section: sec, id: c.id, path: c.path, title: c.title, retrieved: hitScore[c.path] > 0}
		b.render = itemRenderer(m, b)
		blocks = append(blocks, b)
	}

	seen := make(map[string]bool)
	for _, b := range blocks {
		seen[b.path] = true
	}
	current, which, warn := currentSession(m, opts.Session)
	if warn != "" {
		p.Warnings = append(p.Warnings, warn)
	}
	var sessionHeading string
	if current != "" {
		_, sid := docs.SessionDir(current + "/x")
		sessionHeading = fmt.Sprintf("## Session %s (%s)", memory.ShortSession(sid), which)
		if b := sessionStateBlock(m, current); b != nil {
			blocks = append(blocks, b)
		}
		if b := sessionRecentBlock(m, current, sid); b != nil {
			blocks = append(blocks, b)
		}
		if b := sessionSummaryBlock(m, current, sid); b != nil {
			blocks = append(blocks, b)
			seen[b.path] = true
		}
	}

	relatedHeading := "## Related memory"
	if len(hits) > 0 {
		relatedHeading = "## Related to: " + oneLineCut(opts.Query, 60)
		for _, h := range hits {
			if seen[h.Path] {
				continue
			}
			seen[h.Path] = true
			blocks = append(blocks, hitBlock(h))
		}
	} else if strings.TrimSpace(opts.Query) == "" {
		relatedHeading = "## Recent sessions"
		for _, dir := range recentSessions(m, current, 3) {
			_, sid := docs.SessionDir(dir + "/x")
			if b := sessionSummaryBlock(m, dir, sid); b != nil && !seen[b.path] {
				b.section = secRelated
				seen[b.path] = true
				blocks = append(blocks, b)
			}
		}
	}
	headings := [numSections]string{"## Pinned", "## Core memory", sessionHeading, relatedHeading}

	const header = "# Project memory (cairn)\n"
	headerTokens := indexer.EstimateTokens(header)
	reserve := min(60, max(minManifestTokens, budget/8)) // for the list of what was left out
	avail := budget - headerTokens - reserve
	var used [numSections]int
	total := 0
	started := [numSections]bool{}
	// take adds b if it fits in limit and what the budget has left,
	// rendering it (again) to fit when it is too long: the reading and
	// parsing of items waits until they are needed.
	take := func(b *block, limit int) bool {
		room := min(limit, avail-total)
		head := 0
		if !started[b.section] {
			head = indexer.EstimateTokens(headings[b.section]) + 1
		}
		room -= head
		if room < minBlockTokens {
			return false
		}
		if b.text == "" || b.tokens > room {
			b.render(min(room, blockCap[b.section]))
		}
		if b.text == "" || b.tokens > room {
			return false
		}
		b.taken, started[b.section] = true, true
		used[b.section] += b.tokens + head
		total += b.tokens + head
		return true
	}
	for _, b := range blocks {
		take(b, int(sectionShare[b.section]*float64(budget))-used[b.section])
	}
	for _, b := range blocks {
		if !b.taken {
			take(b, avail)
		}
	}

	// The estimate of the whole may differ from the sum of its parts by a
	// token here and there, and the list of what was left out must fit
	// too: drop the last blocks until the whole fits.
	for {
		text, complete := assemble(m, header, headings, blocks, budget)
		p.Text, p.UsedTokens = text, indexer.EstimateTokens(text)
		if p.UsedTokens <= budget && complete {
			break
		}
		last := -1
		for i, b := range blocks {
			if b.taken {
				last = i
			}
		}
		if last < 0 {
			if p.UsedTokens > budget {
				p.Text, p.UsedTokens = "", 0
			}
			break
		}
		blocks[last].taken = false
	}

	var refs []string
	for _, b := range blocks {
		if b.taken {
			p.Items = append(p.Items, PackItem{ID: b.id, Path: b.path, Tokens: b.tokens})
			if b.retrieved {
				refs = append(refs, b.id)
			}
		} else if b.id != "" {
			p.LeftOut = append(p.LeftOut, LeftOut{ID: b.id, Title: b.title})
		}
	}
	if err := countReferences(ctx, m, refs); err != nil {
		p.Warnings = append(p.Warnings, err.Error())
	}
	return p, nil
}

// assemble writes the pack's text: the header, each section with a
// taken block under its heading, and the list of what was left out, as
// much of it as fits in budget. complete is false when something was
// left out and not even the shortest list fits.
func assemble(m *memory.Memory, header string, headings [numSections]string, blocks []*block, budget int) (text string, complete bool) {
	var b strings.Builder
	n := 0
	for sec := range numSections {
		first := true
		for _, bl := range blocks {
			if bl.section != sec || !bl.taken {
				continue
			}
			if first {
				if n == 0 {
					b.WriteString(header)
				}
				b.WriteString("\n" + headings[sec] + "\n")
				first = false
			}
			b.WriteString(bl.text)
			n++
		}
	}
	var left []*block
	for _, bl := range blocks {
		if !bl.taken && bl.id != "" {
			left = append(left, bl)
		}
	}
	if len(left) == 0 {
		return b.String(), true
	}
	body := b.String()
	if n == 0 {
		body = header
	}
	for names := 3; names >= -1; names-- {
		t := body + "\n" + manifest(left, names)
		if indexer.EstimateTokens(t) <= budget {
			return t, true
		}
	}
	return b.String(), false
}

// minManifestTokens is about the size of the shortest list of what was
// left out.
const minManifestTokens = 16

// manifest says how many memories were left out, names a few, and says
// how to fetch them; with names below 0, in as few words as it can.
func manifest(left []*block, names int) string {
	noun := "memories"
	if len(left) == 1 {
		noun = "memory"
	}
	if names < 0 {
		return fmt.Sprintf("_%d more %s left out: `cairn search`._\n", len(left), noun)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "_%d more %s left out", len(left), noun)
	for i, bl := range left[:min(names, len(left))] {
		sep := ", "
		if i == 0 {
			sep = ", among them "
		}
		fmt.Fprintf(&b, "%s“%s” (%s)", sep, oneLineCut(bl.title, 50), fetchRef(bl.id))
	}
	b.WriteString(". Read one with `cairn show ID`; find more with `cairn search QUERY`._\n")
	return b.String()
}

// fetchRef is what to give cairn show for a memory: the end of an item's
// id (cairn show takes a unique suffix), or the path of a file.
func fetchRef(id string) string {
	if model.ValidID(id) {
		return id[len(id)-8:]
	}
	return id
}

// coreItem is what ranking core memory needs of an item, read cheaply.
type coreItem struct {
	path, id, title string
	kind            string
	importance      float64
	pinned          bool
	updated         time.Time
}

// coreCandidates returns the core items' ranking keys. They are kept in
// .state/core.tsv with the commit they reflect, and brought up to HEAD
// from the diff, so that a context pack reads one small file rather than
// every core item; a long-running process keeps them in memo as well.
// Files that do not parse are still candidates, as plain text.
func coreCandidates(ctx context.Context, m *memory.Memory, memo *coreMemo) ([]coreItem, error) {
	head, err := m.History().Resolve("HEAD")
	if err != nil {
		return nil, fmt.Errorf("context: %w", err)
	}
	if memo != nil {
		memo.mu.Lock()
		defer memo.mu.Unlock()
		if memo.commit == head {
			return slices.Clone(memo.items), nil
		}
	}
	items, err := loadCoreCache(ctx, m, head)
	if err != nil {
		return nil, err
	}
	if memo != nil {
		memo.commit, memo.items = head, items
		items = slices.Clone(items)
	}
	return items, nil
}

// coreMemo holds the core items' keys as of a commit.
type coreMemo struct {
	mu     sync.Mutex
	commit string
	items  []coreItem
}

// coreCacheFile holds the core items' ranking keys as of a commit:
// a first line "cairn-core 2 COMMIT", then a line per item of tab-separated
// path, id, importance, pinned (0 or 1), updated (Unix seconds, 0 if
// unknown), kind and title. Derived: a damaged one is made again, and so
// is one of version 1, made by a cairn that followed symbolic links.
const coreCacheFile = "core.tsv"

func loadCoreCache(ctx context.Context, m *memory.Memory, head string) ([]coreItem, error) {
	name := m.StatePath(coreCacheFile)
	items, commit, ok := readCoreCache(name)
	if ok && commit == head {
		return items, nil
	}
	if ok {
		if diffs, err := m.History().Diff(ctx, memory.DiffOptions{From: commit, To: head, Paths: []string{"core"}}); err == nil {
			byPath := make(map[string]coreItem, len(items))
			for _, c := range items {
				byPath[c.path] = c
			}
			for _, d := range diffs {
				delete(byPath, d.Path)
				if d.Action != memory.Deleted && d.New != nil && docs.Indexable(d.Path) {
					byPath[d.Path] = quickMeta(d.Path, d.New)
				}
			}
			items = items[:0]
			for _, c := range byPath {
				items = append(items, c)
			}
			sortCore(items)
			writeCoreCache(name, head, items)
			return items, nil
		}
	}
	items = items[:0]
	// Neither the walk nor the reads follow a symbolic link.
	err := m.WalkFiles(ctx, "core", func(p string, d fs.DirEntry) error {
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && p != "core" {
				return filepath.SkipDir
			}
			return nil
		}
		if !docs.Indexable(p) {
			return nil
		}
		data, err := readMemory(m, p)
		if err != nil {
			return nil // gone meanwhile, or unreadable: not packed
		}
		items = append(items, quickMeta(p, data))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("context: read core memory: %w", err)
	}
	sortCore(items)
	writeCoreCache(name, head, items)
	return items, nil
}

// sortCore orders items by path, so that equal ranks keep one order.
func sortCore(items []coreItem) {
	sort.Slice(items, func(i, j int) bool { return items[i].path < items[j].path })
}

func readCoreCache(name string) (items []coreItem, commit string, ok bool) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, "", false
	}
	text := string(b)
	first, rest, _ := strings.Cut(text, "\n")
	commit, found := strings.CutPrefix(first, "cairn-core 2 ")
	if !found || commit == "" {
		return nil, "", false
	}
	for line := range strings.Lines(rest) {
		f := strings.Split(strings.TrimSuffix(line, "\n"), "\t")
		if len(f) != 7 {
			return nil, "", false
		}
		imp, err1 := strconv.ParseFloat(f[2], 64)
		upd, err2 := strconv.ParseInt(f[4], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, "", false
		}
		c := coreItem{path: f[0], id: f[1], importance: imp, pinned: f[3] == "1", kind: f[5], title: f[6]}
		if upd != 0 {
			c.updated = time.Unix(upd, 0).UTC()
		}
		items = append(items, c)
	}
	return items, commit, true
}

// writeCoreCache writes the cache; failing to is no error, only slower
// next time.
func writeCoreCache(name, commit string, items []coreItem) {
	var b strings.Builder
	b.WriteString("cairn-core 2 " + commit + "\n")
	clean := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	for _, c := range items {
		pinned, upd := "0", int64(0)
		if c.pinned {
			pinned = "1"
		}
		if !c.updated.IsZero() {
			upd = c.updated.Unix()
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", clean.Replace(c.path), clean.Replace(c.id),
			strconv.FormatFloat(c.importance, 'g', -1, 64), pinned, upd, clean.Replace(c.kind), clean.Replace(c.title))
	}
	safefile.WriteSync(name, []byte(b.String()), 0o600, safefile.SyncNone)
}

// quickMeta reads the keys that rank a core item from its front matter
// line by line, and parses the whole item only when a key is written in
// a way the line reader does not follow (quotes, block or flow values).
func quickMeta(p string, data []byte) coreItem {
	c := coreItem{path: p, importance: model.DefaultImportance}
	c.id, _ = model.IDFromPath(p)
	text := strings.TrimPrefix(string(data), "\uFEFF")
	first, rest, ok := strings.Cut(text, "\n")
	simple := ok && model.IsDelimiter(strings.TrimSuffix(first, "\r"))
	if simple {
		sc := bufio.NewScanner(strings.NewReader(rest))
		sc.Buffer(nil, 1<<20)
		closed := false
		for sc.Scan() {
			line := strings.TrimSuffix(sc.Text(), "\r")
			if model.IsDelimiter(line) {
				closed = true
				break
			}
			key, val, ok := strings.Cut(line, ":")
			if !ok || key != strings.TrimSpace(key) {
				continue // nested or continued values: not a ranking key
			}
			val = strings.TrimSpace(val)
			if i := strings.Index(val, " #"); i >= 0 {
				val = strings.TrimSpace(val[:i])
			}
			if val != "" && strings.ContainsAny(val[:1], `'"|>[{&*!`) && (key == "title" || key == "importance" || key == "pinned" || key == "updated" || key == "id") {
				simple = false
				break
			}
			var err error
			switch key {
			case "id":
				if v := strings.ToUpper(val); model.ValidID(v) {
					c.id = v
				}
			case "title":
				c.title = val
			case "kind":
				c.kind = val
			case "importance":
				if val != "" && val != "null" && val != "~" {
					c.importance, err = strconv.ParseFloat(val, 64)
				}
			case "pinned":
				switch strings.ToLower(val) {
				case "true", "yes", "on":
					c.pinned = true
				case "false", "no", "off", "", "null", "~":
				default:
					err = errors.New("not a boolean")
				}
			case "updated":
				if val != "" && val != "null" && val != "~" {
					c.updated, err = model.ParseTimestamp(val)
				}
			}
			if err != nil {
				simple = false
				break
			}
		}
		simple = simple && closed
	}
	if !simple || c.title == "" {
		if it, err := model.Parse(p, data); err == nil {
			c.id, c.title, c.kind = it.ID, it.Title, string(it.Kind)
			c.importance, c.pinned, c.updated = it.Importance, it.Pinned, it.Updated
		}
	}
	if c.id == "" {
		c.id = p
	}
	if c.title == "" {
		name, _, _ := strings.Cut(strings.TrimSuffix(path.Base(p), ".md"), "--")
		c.title = strings.ReplaceAll(name, "-", " ")
	}
	c.importance = clamp01(c.importance)
	return c
}

// itemRenderer returns the render function of a core item's block: one
// list entry, the item read and parsed at the first call.
func itemRenderer(m *memory.Memory, b *block) func(room int) {
	var (
		read       bool
		body, tail string
	)
	return func(room int) {
		if !read {
			read = true
			data, err := readMemory(m, b.path)
			if err != nil {
				return
			}
			var kind string
			var when time.Time
			if it, err := model.Parse(b.path, data); err == nil {
				body, kind, when = it.Body, string(it.Kind), it.Updated
				if it.Title != "" {
					b.title = it.Title
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
			body = mdtext.OneLine(body)
			if t := mdtext.OneLine(b.title); strings.HasPrefix(body, t) {
				body = strings.TrimLeft(strings.TrimPrefix(body, t), " .:—-")
			}
			var meta []string
			if kind != "" {
				meta = append(meta, kind)
			}
			if !when.IsZero() {
				meta = append(meta, when.Format(time.DateOnly))
			}
			meta = append(meta, "id "+fetchRef(b.id))
			tail = " (" + strings.Join(meta, ", ") + ")\n"
		}
		b.set(entry(mdtext.OneLine(b.title), body, tail, room))
	}
}

// entry renders a list entry, "- **title**: text (tail)", cutting text
// to fit in room tokens, or leaving it out; "" if even that is too long.
func entry(title, text, tail string, room int) string {
	line := "- **" + title + "**"
	if text != "" {
		if r := room - indexer.EstimateTokens(line+tail) - 1; r >= 8 {
			line += ": " + cutTokens(text, r)
		}
	}
	line += tail
	if indexer.EstimateTokens(line) > room {
		return ""
	}
	return line
}

// hitBlock renders a search hit as a list entry.
func hitBlock(h SearchHit) *block {
	var meta []string
	if h.Kind != "" {
		meta = append(meta, h.Kind)
	}
	if h.Session != "" {
		meta = append(meta, "session "+memory.ShortSession(h.Session))
	}
	if h.Created != nil {
		meta = append(meta, h.Created.Format(time.DateOnly))
	}
	meta = append(meta, fmt.Sprintf("%s:%d-%d", h.Path, h.StartLine, h.EndLine))
	tail := " (" + strings.Join(meta, ", ") + ")\n"
	text := mdtext.OneLine(stripHeadings(h.Text))
	title := mdtext.OneLine(h.Title)
	b := &block{section: secRelated, id: h.ID, path: h.Path, title: h.Title, retrieved: true}
	b.render = func(room int) { b.set(entry(title, text, tail, room)) }
	b.render(blockCap[secRelated])
	return b
}

// currentSession finds the session folder to show: the one named (in
// sessions/ or archive/), else the one in sessions/ that changed last.
// which says which of the two it is.
func currentSession(m *memory.Memory, ref string) (dir, which, warn string) {
	if ref != "" {
		id, err := resolveSession(m, ref)
		if err != nil {
			warn = err.Error()
		} else {
			for _, pattern := range []string{"sessions/" + id, "archive/*/*/" + id} {
				if found, _ := filepath.Glob(filepath.Join(m.Dir, filepath.FromSlash(pattern))); len(found) > 0 {
					rel, _ := filepath.Rel(m.Dir, found[0])
					return filepath.ToSlash(rel), "current", ""
				}
			}
			warn = fmt.Sprintf("no session %s in this memory yet; showing the latest", ref)
		}
	}
	if recent := recentSessions(m, "", 1); len(recent) > 0 {
		return recent[0], "latest", warn
	}
	return "", "", warn
}

// recentSessions returns up to n session folders of sessions/, the one
// changed last first, leaving out skip. A folder's modification time
// moves with every file cairn writes in it, since it writes by renaming.
func recentSessions(m *memory.Memory, skip string, n int) []string {
	ents, err := os.ReadDir(filepath.Join(m.Dir, "sessions"))
	if err != nil {
		return nil
	}
	type sess struct {
		dir string
		mod time.Time
	}
	var all []sess
	for _, e := range ents {
		if e.Type()&fs.ModeSymlink != 0 {
			m.WarnLink(&safefile.LinkError{Path: "sessions/" + e.Name()})
			continue
		}
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := "sessions/" + e.Name()
		if dir == skip {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		all = append(all, sess{dir, fi.ModTime()})
	}
	sort.Slice(all, func(i, j int) bool {
		if !all[i].mod.Equal(all[j].mod) {
			return all[i].mod.After(all[j].mod)
		}
		return all[i].dir > all[j].dir
	})
	var out []string
	for _, s := range all[:min(n, len(all))] {
		out = append(out, s.dir)
	}
	return out
}

// Keys of session.yaml not worth an agent's tokens.
var sessionSkipKeys = map[string]bool{
	"id": true, "session": true, "session_id": true, "memory_session": true, "schema": true,
	"project": true, "cwd": true, "transcript": true, "transcript_path": true, "model": true,
	"turns": true, "started": true, "updated": true, "summarized": true, "sources": true, "hooks": true,
}

// sessionStateBlock renders session.yaml's top-level keys as facts.
func sessionStateBlock(m *memory.Memory, dir string) *block {
	data, err := readMemory(m, dir+"/session.yaml")
	if err != nil {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	root := doc.Content[0]
	var b strings.Builder
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i].Value, root.Content[i+1]
		if sessionSkipKeys[k] {
			continue
		}
		if k == "progress" && v.Kind == yaml.MappingNode {
			var pr struct{ Done, Total int }
			if v.Decode(&pr) == nil && pr.Total > 0 {
				fmt.Fprintf(&b, "- progress: %d of %d steps done\n", pr.Done, pr.Total)
			}
			continue
		}
		if s := yamlText(v, 0); s != "" && s != "0" {
			fmt.Fprintf(&b, "- %s: %s\n", strings.ReplaceAll(k, "_", " "), cutTokens(s, 60))
		}
	}
	if b.Len() == 0 {
		return nil
	}
	all := b.String()
	_, sid := docs.SessionDir(dir + "/x")
	p := dir + "/session.yaml"
	bl := &block{section: secSession, id: p, path: p, title: "State of session " + memory.ShortSession(sid)}
	bl.render = func(room int) { bl.set(cutLines(all, room)) }
	bl.render(blockCap[secSession] / 2)
	return bl
}

// yamlText writes a YAML value on one line.
func yamlText(n *yaml.Node, depth int) string {
	if depth > 3 {
		return "…"
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return mdtext.OneLine(n.Value)
	case yaml.AliasNode:
		return yamlText(n.Alias, depth+1)
	case yaml.SequenceNode:
		var parts []string
		for _, c := range n.Content {
			if s := yamlText(c, depth+1); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "; ")
	case yaml.MappingNode:
		var parts []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			if s := yamlText(n.Content[i+1], depth+1); s != "" {
				parts = append(parts, n.Content[i].Value+"="+s)
			}
		}
		return strings.Join(parts, ", ")
	}
	return ""
}

// recentTurnTokens is the most one turn shows in a pack's recent turns.
const recentTurnTokens = 40

// sessionRecentBlock renders the session's turns that no summary covers
// yet, newest last: with the state, the active layer of the seed design.
// Capture summarises pending turns into summary.md once they reach
// capture.segment_tokens or segment_turns, so the layer stays bounded;
// when the pack has less room, the oldest turns are left out first (the
// summary below holds what came before them). The turns were redacted
// when they were captured.
func sessionRecentBlock(m *memory.Memory, dir, sid string) *block {
	sp := dir + "/" + model.SessionFile
	data, err := m.ReadFile(sp)
	if err != nil {
		return nil
	}
	sess, err := model.ParseSession(sp, data)
	if err != nil {
		return nil
	}
	turns, err := m.Sessions().LoadPending(sid, sess.Summarized.Through)
	if err != nil || len(turns) == 0 {
		return nil
	}
	lines := make([]string, 0, len(turns))
	for _, t := range turns {
		if l := turnLine(t.Turn); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	// The turns are in transcript.md too: that is where to read more.
	p := dir + "/" + model.TranscriptFile
	bl := &block{section: secSession, id: p, path: p, title: "Latest turns of session " + memory.ShortSession(sid)}
	bl.render = func(room int) {
		head := func(older int) string {
			if older == 0 {
				return "Latest turns, not yet summarised:\n"
			}
			return fmt.Sprintf("Latest turns, not yet summarised (%d before them left out):\n", older)
		}
		// The newest turns that fit, oldest of them first.
		n, used := 0, indexer.EstimateTokens(head(len(lines)))
		for i := len(lines) - 1; i >= 0; i-- {
			if used += indexer.EstimateTokens(lines[i]); used > room {
				break
			}
			n++
		}
		if n == 0 {
			bl.set("")
			return
		}
		bl.set(head(len(lines)-n) + strings.Join(lines[len(lines)-n:], ""))
	}
	bl.render(blockCap[secSession] / 2)
	return bl
}

// turnLine writes one turn as a line of a list.
func turnLine(t summarize.Turn) string {
	text := cutTokens(mdtext.OneLine(t.Text), recentTurnTokens)
	switch t.Role {
	case summarize.User:
		if text == "" {
			return ""
		}
		return "- user: " + text + "\n"
	case summarize.Assistant:
		if text == "" {
			return ""
		}
		return "- assistant: " + text + "\n"
	case summarize.Tool:
		call := t.Tool
		if in := oneLineCut(strings.TrimPrefix(t.Input, t.Tool+": "), 80); in != "" {
			call += ": " + in
		}
		if call == "" {
			return ""
		}
		line := "- `" + strings.ReplaceAll(call, "`", "'") + "`"
		switch {
		case t.IsError && t.ExitCode != nil:
			line += fmt.Sprintf(" failed (exit %d)", *t.ExitCode)
		case t.IsError:
			line += " failed"
		}
		if t.IsError && text != "" {
			line += ": " + cutTokens(text, recentTurnTokens/2)
		}
		return line + "\n"
	}
	return ""
}

// sessionSummaryBlock renders a session's summary.md: its latest part
// when it is long, since a progressive summary ends with what is newest.
func sessionSummaryBlock(m *memory.Memory, dir, sid string) *block {
	p := dir + "/summary.md"
	data, err := readMemory(m, p)
	if err != nil {
		return nil
	}
	text := strings.ReplaceAll(strings.TrimPrefix(string(data), "\uFEFF"), "\r\n", "\n")
	if first, rest, ok := strings.Cut(text, "\n"); ok && model.IsDelimiter(first) {
		if _, body, _, ok := model.CutFrontMatter(rest); ok {
			text = body
		}
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	// Headings inside the pack would break its outline: make them bold.
	var b strings.Builder
	for line := range strings.Lines(text) {
		if t := strings.TrimLeft(line, "#"); t != line && strings.HasPrefix(t, " ") {
			line = "**" + strings.TrimSpace(t) + "**\n"
		}
		b.WriteString(line)
	}
	all := strings.TrimSpace(b.String())
	bl := &block{section: secSession, id: p, path: p, title: "Summary of session " + memory.ShortSession(sid)}
	bl.render = func(room int) {
		if room < 2*minBlockTokens {
			bl.set("")
			return
		}
		bl.set(tailTokens(all, room-1) + "\n")
	}
	bl.render(blockCap[secSession])
	return bl
}

// stripHeadings drops the marks of Markdown headings, so that text can
// sit on one line.
func stripHeadings(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if t := strings.TrimLeft(line, "#"); t != line && (strings.HasPrefix(t, " ") || strings.TrimSpace(t) == "") {
			line = strings.TrimSpace(t) + ":\n"
		}
		b.WriteString(line)
	}
	return b.String()
}

// collapse puts text on one line.

func oneLineCut(s string, n int) string {
	s = mdtext.OneLine(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return mdtext.Truncate(s, n)
}

// cutTokens returns the longest start of s, cut at a word, of at most n
// tokens, marked "…" when cut.
func cutTokens(s string, n int) string {
	if indexer.EstimateTokens(s) <= n {
		return s
	}
	lo, hi := 0, len(s)
	for lo < hi { // the longest prefix that fits, by bisection
		mid := (lo + hi + 1) / 2
		if indexer.EstimateTokens(s[:mid]+"…") <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	cut := s[:lo]
	for len(cut) > 0 && !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	if i := strings.LastIndexAny(cut, " \n"); i > len(cut)/2 {
		cut = cut[:i]
	}
	cut = strings.TrimRight(cut, " \n,;:")
	if cut == "" {
		return ""
	}
	return cut + "…"
}

// tailTokens returns the end of s of at most n tokens, starting at a
// line (or a word) and marked "…" when cut.
func tailTokens(s string, n int) string {
	if indexer.EstimateTokens(s) <= n {
		return s
	}
	lo, hi := 0, len(s)
	for lo < hi { // the earliest start that fits
		mid := (lo + hi) / 2
		if indexer.EstimateTokens("…"+s[mid:]) <= n {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	cut := s[lo:]
	for len(cut) > 0 && !utf8.RuneStart(cut[0]) {
		cut = cut[1:]
	}
	if i := strings.IndexByte(cut, '\n'); i >= 0 && i < len(cut)/2 {
		cut = cut[i+1:]
	} else if i := strings.IndexByte(cut, ' '); i >= 0 && i < len(cut)/2 {
		cut = cut[i+1:]
	}
	return "…" + cut
}

// cutLines keeps whole lines of s up to n tokens.
func cutLines(s string, n int) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if indexer.EstimateTokens(b.String()+line) > n {
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

// readMemory reads a work-tree file for the pack: never through a
// symbolic link, which is named in a warning and left out.
func readMemory(m *memory.Memory, p string) ([]byte, error) {
	data, err := m.ReadFile(p)
	m.WarnLink(err)
	return data, err
}
