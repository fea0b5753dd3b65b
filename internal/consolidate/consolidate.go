package consolidate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/lazyre"
	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// Consolidation turns what a summarizer proposes into core memory
// without piling up duplicates and without keeping what has changed as
// current. A candidate (a decision, fact, pattern or preference) is
// compared with the core items of the same kind by its claim
// (summarize.ClaimOf): the subject it is about ("api port", "http
// router"), the value it gives it ("8081", "chi") and, for a decision,
// what it gives up ("redis" in "we're dropping Redis after all").
//
//   - The same subject: the two subjects' words (stemmed) are equal, or
//     share at least 60 % of their words, or the shorter one, of three or
//     more words, is within the longer ("api port" and "api metrics
//     endpoint port" are two subjects). An item written by consolidation
//     keeps its subject in its front matter ("subject:"); for others it
//     is read from the title.
//   - A reversal: a decision that gives up what an earlier decision
//     chose supersedes it ("use Redis for pub/sub", then "we're dropping
//     Redis, LISTEN/NOTIFY is enough").
//   - Items without a subject on either side fall back to their titles'
//     words: equal sets, or at least two shared words and Jaccard ≥ 0.5.
//     Two items with different subjects never match on their titles:
//     "the API listens on 8080" and "the web app listens on 8080" are two
//     facts.
//   - A candidate that matches no item becomes a new item.
//   - One that matches and says nothing new (the same values, and its
//     words are all in the item's, or the two share 80 % of their words)
//     confirms it: the item's updated time moves, its importance becomes
//     the larger of the two and it gains the candidate's tags.
//   - One that matches and says something else (another value, or more)
//     supersedes it: a new item takes the candidate's title and body,
//     keeps the old item's tags, pin and the larger importance, and
//     records "supersedes: <old id>"; the old file is removed (git keeps
//     it), so that only the newest is ever presented as current.
//   - Across kinds: a decision or fact that gives a named setting a
//     value (summarize.Settings: "bump requires-python to 3.11") retires
//     the facts that give the same setting another value; the change is
//     reported as "retired".
//
// The rule is a cheap lexical one on purpose: it runs for every summary,
// offline, and reads only the core items of the candidates' kinds.

// Candidate is what a summarizer proposes, with the session it came
// from (the new item's "session:").
type Candidate struct {
	summarize.Candidate
	Session string
}

// namedItem is a core item known by its file name and claim.
type namedItem struct {
	path    string
	words   map[string]bool // of the title
	subject map[string]bool // of the subject, empty when it has none
	values  map[string]bool
	// settings are the named settings the item gives a value
	// (summarize.Settings), for facts.
	settings map[string]string
	// text holds the words of the title and body (bodyWords), for
	// changes that name the value they replace.
	text map[string]bool
	// attr is what the item's title gives a value when read as a fact
	// (summarize.ClaimOf): a port, URL, version, path, host or command.
	attr  attribute
	fresh bool // made by this batch: replaced, not superseded
	// chosen marks a decision whose title is only the option it took
	// ("A small table in the SQLite database we already have", the
	// answer to "Redis or SQLite?"), not what it is for.
	chosen bool
}

// claimed is a candidate's claim, as matching compares it.
type claimed struct {
	subject, values, dropped map[string]bool
	// fallback: the subject is only what was chosen, not what it is for.
	fallback bool
}

func claimOf(k model.Kind, title, body, subject string) claimed {
	c := summarize.ClaimOf(summarize.Kind(k), title)
	chosen := c.Chosen
	if subject == "" {
		subject = c.Subject
	} else if subject != c.Subject {
		chosen = false
	}
	out := claimed{subject: keyWords(subject), values: keyWords(strings.Join(c.Values, " ")), dropped: keyWords(strings.Join(c.Dropped, " "))}
	if body != "" && k == model.Decision {
		for w := range keyWords(strings.Join(summarize.ClaimOf(summarize.Kind(k), body).Dropped, " ")) {
			if !out.values[w] {
				out.dropped[w] = true
			}
		}
	}
	out.fallback = chosen || len(out.subject) > 0 && subsetOf(out.subject, out.values)
	return out
}

// Apply adds, confirms or supersedes core items for the candidates, as
// writes of b, and returns the changes. The caller holds the lock. On an
// error the changes made so far are returned with it: they are in b.
func Apply(ctx context.Context, m *memory.Memory, cands []Candidate, b *memory.Writes) ([]model.ItemChange, error) {
	index := map[model.Kind][]*namedItem{}
	load := func(k model.Kind) error {
		if _, loaded := index[k]; loaded {
			return nil
		}
		list, err := coreIndex(m, k, b)
		if err != nil {
			return err
		}
		index[k] = list
		return nil
	}
	var changes []model.ItemChange
	now := m.Now()
	for _, c := range cands {
		if err := ctx.Err(); err != nil {
			return changes, err
		}
		k, ok := candidateKind(c.Kind)
		if !ok {
			continue
		}
		title := mdtext.Cut(mdtext.OneLine(c.Title), model.MaxTitleLen)
		if title == "" {
			continue
		}
		if err := load(k); err != nil {
			return changes, err
		}
		words := titleWords(title)
		cl := claimOf(k, title, c.Body, c.Subject)
		subject := strings.TrimSpace(c.Subject)
		if subject == "" {
			subject = summarize.ClaimOf(c.Kind, title).Subject
		}
		imp := c.Importance
		if !(imp > 0 && imp <= 1) {
			imp = model.DefaultImportance
		}
		match, reversal := bestMatch(index[k], words, cl, k)
		entry := &namedItem{words: words, subject: cl.subject, values: cl.values, settings: prose.Settings(title),
			text: bodyWords(title + "\n" + c.Body), attr: attributeOf(title), fresh: true}
		if k == model.Decision || k == model.Fact {
			for _, kk := range []model.Kind{model.Decision, model.Fact} {
				if err := load(kk); err != nil {
					return changes, err
				}
			}
			keep := ""
			if match != nil {
				keep = match.path
			}
			retired, err := retireSettings(m, b, index[model.Fact], entry.settings, keep)
			if err != nil {
				return changes, err
			}
			changes = append(changes, retired...)
			// Across the two kinds: a decision reversed later may be
			// restated as a fact, and the other way round.
			both := append(append([]*namedItem(nil), index[model.Decision]...), index[model.Fact]...)
			back := returnsTo(title+"\n"+c.Body, entry.attr)
			retired, err = retire(m, b, both, keep, func(e *namedItem) bool { return entry.attr.revalues(e, entry.text, back) })
			if err != nil {
				return changes, err
			}
			changes = append(changes, retired...)
			if ch, ok := changeOf(title, c.Body, cl); ok {
				retired, err := retire(m, b, both, keep, ch.replaces)
				if err != nil {
					return changes, err
				}
				changes = append(changes, retired...)
			}
		}
		if match == nil && twin(index, k, words) {
			// The same sentence is an item of the other kind already
			// ("(The switch is on OCaml 5.1.1 …)" read as a decision and
			// as a fact): one item says it.
			continue
		}
		if match == nil {
			it := model.NewItem(k, title, now)
			it.Body = strings.TrimSpace(c.Body)
			it.Importance = round3(imp)
			it.Tags = model.NormTags(c.Tags)
			it.Session = c.Session
			data, err := it.Marshal()
			if err != nil {
				return changes, err
			}
			if subject != "" {
				data = model.WithKeys(data, model.KeySubject, subject)
			}
			b.Put(it.Path(), data)
			entry.path = it.Path()
			index[k] = append(index[k], entry)
			changes = append(changes, model.ItemChange{Action: "added", ID: it.ID, Kind: k, Title: it.Title, Path: it.Path()})
			continue
		}
		data, err := m.PendingContent(b, match.path)
		if err != nil {
			return changes, err
		}
		old, err := model.Parse(match.path, data)
		if err != nil {
			// A broken item is the user's to fix; do not touch it.
			m.Warn(err.Error())
			continue
		}
		if !reversal && !differentValues(match.values, cl.values) && sameContent(old.Title+"\n"+old.Body, title+"\n"+c.Body) {
			old.Updated = now.UTC().Truncate(time.Second)
			old.Importance = round3(math.Max(old.Importance, imp))
			old.Tags = mergeTags(old.Tags, c.Tags)
			data, err := old.Marshal()
			if err != nil {
				return changes, err
			}
			b.Put(match.path, data)
			changes = append(changes, model.ItemChange{Action: "confirmed", ID: old.ID, Kind: k, Title: old.Title, Path: match.path})
			continue
		}
		if match.fresh {
			// Made by this batch: it never reached history, so the new
			// candidate takes its place (and what it superseded).
			old.Title, old.Body = title, strings.TrimSpace(c.Body)
			old.Importance = round3(math.Max(old.Importance, imp))
			old.Tags = mergeTags(old.Tags, c.Tags)
			data, err := old.Marshal()
			if err != nil {
				return changes, err
			}
			b.Drop(match.path)
			b.Put(old.Path(), data)
			match.path, match.words, match.values, match.text, match.attr = old.Path(), words, cl.values, entry.text, entry.attr
			for i := range changes {
				if changes[i].ID == old.ID {
					changes[i].Title, changes[i].Path = old.Title, old.Path()
				}
			}
			continue
		}
		it := model.NewItem(k, title, now)
		it.Body = strings.TrimSpace(c.Body)
		it.Importance = round3(math.Max(old.Importance, imp))
		it.Tags = mergeTags(old.Tags, c.Tags)
		it.Pinned = old.Pinned
		it.Session = c.Session
		data, err = it.Marshal()
		if err != nil {
			return changes, err
		}
		kv := []string{model.KeySupersedes, old.ID}
		if subject != "" {
			kv = append(kv, model.KeySubject, subject)
		}
		data = model.WithKeys(data, kv...)
		b.Remove(match.path)
		b.Put(it.Path(), data)
		match.path, match.words, match.subject, match.values, match.text, match.attr, match.fresh = it.Path(), words, cl.subject, cl.values, entry.text, entry.attr, true
		changes = append(changes, model.ItemChange{Action: "superseded", ID: it.ID, Kind: k, Title: it.Title, Path: it.Path(), Supersedes: old.ID})
	}
	return changes, nil
}

// twin reports whether an item of the kind paired with k (a decision's
// fact, a fact's decision) has a title of exactly the words of title.
func twin(index map[model.Kind][]*namedItem, k model.Kind, words map[string]bool) bool {
	other := map[model.Kind]model.Kind{model.Decision: model.Fact, model.Fact: model.Decision}[k]
	for _, e := range index[other] {
		if len(e.words) == len(words) && subsetOf(words, e.words) {
			return true
		}
	}
	return false
}

func candidateKind(k summarize.Kind) (model.Kind, bool) {
	switch model.Kind(k) {
	case model.Decision, model.Fact, model.Pattern, model.Preference:
		return model.Kind(k), true
	}
	return "", false
}

// coreIndex lists the items of kind k with their claims: the subject from
// the front matter when it has one, else from the title.
func coreIndex(m *memory.Memory, k model.Kind, b *memory.Writes) ([]*namedItem, error) {
	dir := k.Dir()
	ents, err := os.ReadDir(filepath.Join(m.Dir, filepath.FromSlash(dir)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []*namedItem
	for _, d := range ents {
		name := d.Name()
		if !d.Type().IsRegular() || !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			continue
		}
		slug := strings.TrimSuffix(name, ".md")
		if i := strings.LastIndex(slug, "--"); i >= 0 {
			slug = slug[:i]
		}
		e := &namedItem{path: dir + "/" + name, words: slugWords(slug)}
		data, err := m.PendingContent(b, e.path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", e.path, err)
		}
		it, err := model.Parse(e.path, data)
		if err != nil {
			out = append(out, e) // matched by name only; Apply warns if it must touch it
			continue
		}
		cl := claimOf(k, it.Title, "", model.FrontKeys(data)[model.KeySubject])
		e.subject, e.values, e.settings = cl.subject, cl.values, prose.Settings(it.Title+"\n"+it.Body)
		e.text = bodyWords(it.Title + "\n" + it.Body)
		e.attr = attributeOf(it.Title)
		e.chosen = k == model.Decision && cl.fallback && prose.BareOption(it.Title) != ""
		out = append(out, e)
	}
	return out, nil
}

// retireSettings removes the facts that give a named setting another
// value than set does ("requires-python >=3.9" once a decision bumps
// requires-python to 3.11): a fact and a decision about one setting are
// one subject, and only the newest value is current. It returns the
// changes ("retired"); keep is the path of the item the candidate itself
// updates.
func retireSettings(m *memory.Memory, b *memory.Writes, facts []*namedItem, set map[string]string, keep string) ([]model.ItemChange, error) {
	if len(set) == 0 {
		return nil, nil
	}
	var out []model.ItemChange
	for _, e := range facts {
		if e.path == "" || e.path == keep || !prose.SettingsConflict(e.settings, set) {
			continue
		}
		data, err := m.PendingContent(b, e.path)
		if err != nil {
			return nil, err
		}
		old, err := model.Parse(e.path, data)
		if err != nil {
			continue // the user's to fix
		}
		if e.fresh {
			b.Drop(e.path)
		} else {
			b.Remove(e.path)
		}
		out = append(out, model.ItemChange{Action: "retired", ID: old.ID, Kind: model.Fact, Title: old.Title, Path: e.path})
		e.path, e.settings = "", nil
	}
	return out, nil
}

// change is what a candidate that announces a change compares with the
// decisions and facts before it.
type change struct {
	old   []map[string]bool // the words of each value it says was replaced
	topic map[string]bool   // its subject, without the values
	title map[string]bool   // its title's words, without the values
	now   map[string]bool   // the values it gives
}

// changeOf reads the change a candidate announces (summarize.Change), if
// it announces one.
func changeOf(title, body string, cl claimed) (change, bool) {
	ok, old := prose.Change(title + "\n" + body)
	if !ok {
		return change{}, false
	}
	ch := change{topic: map[string]bool{}, title: map[string]bool{}, now: map[string]bool{}}
	gone := map[string]bool{}
	for _, v := range old {
		if w := bodyWords(v); len(w) > 0 {
			ch.old = append(ch.old, w)
			for x := range w {
				gone[x] = true
			}
		}
	}
	for w := range cl.values {
		if !gone[w] {
			ch.now[w] = true
		}
	}
	for w := range cl.subject {
		if !gone[w] && !ch.now[w] && !strings.ContainsAny(w, "0123456789") {
			ch.topic[w] = true
		}
	}
	for w := range bodyWords(title) {
		if !gone[w] && !ch.now[w] {
			ch.title[w] = true
		}
	}
	return ch, true
}

// about reports whether an item's words are on the change's topic: the
// words of its subject (all of one or two, most of more, as a subject
// read from a sentence may hold a stray word), or, without a subject,
// two of its title's.
func (ch change) about(text map[string]bool) bool {
	if len(ch.topic) > 0 {
		loose := map[string]bool{}
		for w := range text {
			loose[root(w)] = true
		}
		n := 0
		for w := range ch.topic {
			if loose[root(w)] {
				n++
			}
		}
		return n == len(ch.topic) || len(ch.topic) > 2 && 2*n > len(ch.topic)
	}
	n := 0
	for w := range ch.title {
		if text[w] {
			n++
		}
	}
	return n >= 2
}

// root cuts a verb's or noun's ending ("recomputing", "recomputes",
// "recompute"), for telling whether two statements speak of one topic.
func root(w string) string {
	for _, suf := range []string{"ing", "ed", "es", "e", "s"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}

// replaces reports whether an older item holds what the change says was
// replaced, on the same topic, and not yet its new value: "the API
// listens on port 3001" once "the API now listens on 4100 instead of
// 3001". Without a replaced value named, an item whose own subject (two
// words or more) the change's title speaks of is replaced: "Sealed
// Secrets for the DB password" by "switched the DB password from Sealed
// Secrets to External Secrets".
func (ch change) replaces(e *namedItem) bool {
	if len(ch.now) > 0 && subsetOf(ch.now, e.text) {
		return false // says the new value already
	}
	for _, w := range ch.old {
		if subsetOf(w, e.text) && ch.about(e.text) {
			return true
		}
		// A decision that is only the option it took never names what
		// the option was for: the change names the option itself as
		// what it replaced ("the rate limiter now uses Redis instead of
		// the SQLite table").
		if e.chosen && len(w) >= 2 && subsetOf(w, e.words) {
			return true
		}
	}
	return len(e.subject) >= 2 && subsetOf(e.subject, ch.title)
}

// retire removes the decisions and facts made before this batch that
// stale reports as replaced (change.replaces, attribute.revalues), but
// for keep (the item the candidate itself updates) and pinned ones.
func retire(m *memory.Memory, b *memory.Writes, items []*namedItem, keep string, stale func(*namedItem) bool) ([]model.ItemChange, error) {
	var out []model.ItemChange
	for _, e := range items {
		if e.path == "" || e.path == keep || e.fresh || !stale(e) {
			continue
		}
		data, err := m.PendingContent(b, e.path)
		if err != nil {
			return nil, err
		}
		old, err := model.Parse(e.path, data)
		if err != nil || old.Pinned {
			continue // the user's to fix, or to keep
		}
		b.Remove(e.path)
		out = append(out, model.ItemChange{Action: "retired", ID: old.ID, Kind: old.Kind, Title: old.Title, Path: e.path})
		e.path, e.settings, e.text, e.attr = "", nil, nil, attribute{}
	}
	return out, nil
}

// attribute is what a statement gives a value, read as a fact: "api
// port" = 8080 in "The API now listens on 8080".
type attribute struct {
	name string          // port, url, version, path, host, command; "" when none
	who  map[string]bool // whose: the subject's other words, without generic server names
	vals []string        // the values, lower-case
}

// attrNames are the attributes a fact's subject ends in (summarize.ClaimOf).
var attrNames = map[string]bool{"port": true, "url": true, "version": true, "path": true, "host": true, "command": true}

// serverWords name the project's own server in general terms: "the
// backend", "the API" and "the server" of one project are one entity.
var serverWords = map[string]bool{"backend": true, "api": true, "server": true, "service": true}

func attributeOf(title string) attribute {
	c := summarize.ClaimOf(summarize.Fact, title)
	f := strings.Fields(c.Subject)
	if len(f) == 0 || !attrNames[f[len(f)-1]] || len(c.Values) == 0 {
		return attribute{}
	}
	a := attribute{name: f[len(f)-1], who: map[string]bool{}, vals: c.Values}
	for _, w := range f[:len(f)-1] {
		// "metrics-bind-address", "exporter's": their words.
		for _, p := range wordRE.FindAllString(strings.TrimSuffix(w, "'s"), -1) {
			if p = stem(p); len(p) > 1 && !serverWords[p] {
				a.who[root(p)] = true
			}
		}
	}
	return a
}

// sameEntity: the older statement names no entity of its own, or one the
// newer names too ("metrics-bind-address" and "the metrics endpoint");
// "the metrics exporter" and "the backend" are two.
func (a attribute) sameEntity(older attribute) bool {
	return len(older.who) == 0 || overlaps(older.who, a.who)
}

// backRE finds a return to an earlier value: "back to the default",
// "back on :8080"; fallRE a fallback, which is no return ("falls back to
// the cache").
var (
	backRE = lazyre.New(`(?i)\bback (?:to|on|at|in) (?:the |its |our )?(.*)`)
	fallRE = lazyre.New(`(?i)\bfall(?:s|ing)? back $`)
)

// returnsTo reports whether a statement says its value is a return to
// the default or to what it was ("back to the default :8080", "back on
// port 5000").
func returnsTo(text string, a attribute) bool {
	if a.name == "" {
		return false
	}
	for _, idx := range backRE.FindAllStringSubmatchIndex(text, -1) {
		if fallRE.MatchString(text[:idx[0]+len("back ")]) {
			continue
		}
		rest := strings.ToLower(text[idx[2]:idx[3]])
		if strings.HasPrefix(rest, "default") {
			return true
		}
		rest = strings.TrimLeft(strings.TrimPrefix(rest, a.name), " :")
		for _, v := range a.vals {
			if strings.HasPrefix(rest, strings.TrimLeft(v, ":")) {
				return true
			}
		}
	}
	return false
}

// revalues reports whether a newer statement (attribute a, words text)
// gives an older item's attribute a new value: the same attribute of the
// same entity, none of the older values, and either the older value
// named ("the API now listens on 8080 (AirPlay owns 5000)" after "the
// backend runs on port 5000") or a return to the default or an earlier
// value ("back on the default :8080" after "defaults to :9090 now").
func (a attribute) revalues(e *namedItem, text map[string]bool, back bool) bool {
	o := e.attr
	if a.name == "" || o.name != a.name || !a.sameEntity(o) {
		return false
	}
	for _, v := range o.vals {
		for _, w := range a.vals {
			if v == w {
				return false
			}
		}
	}
	if back {
		return true
	}
	for _, v := range o.vals {
		if w := bodyWords(v); len(w) > 0 && subsetOf(w, text) {
			return true
		}
	}
	return false
}

// bestMatch returns the item a candidate is about, if any (see the
// comment at the top), and whether the candidate reverses it.
func bestMatch(list []*namedItem, words map[string]bool, c claimed, k model.Kind) (*namedItem, bool) {
	var best *namedItem
	bestScore, reversal := 0.0, false
	for _, e := range list {
		if e.path == "" {
			continue // retired by this batch: nothing to confirm or supersede
		}
		score, rev := 0.0, false
		same := sameSubject(c.subject, e.subject)
		switch {
		case k == model.Decision && len(c.dropped) > 0 && overlaps(c.dropped, e.values) &&
			(c.fallback || len(c.subject) == 0 || same > 0):
			score, rev = 3, true
		case same > 0:
			score = 2 + same
		case len(c.subject) > 0 && len(e.subject) > 0:
			// Two subjects, not the same: two items, however alike the
			// titles read.
		default:
			score = titleMatch(words, e.words)
		}
		if score > bestScore {
			best, bestScore, reversal = e, score, rev
		}
	}
	return best, reversal
}

// titleMatch scores two titles' words: 0 when they do not match, else
// their Jaccard similarity.
func titleMatch(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	common := 0
	for w := range a {
		if b[w] {
			common++
		}
	}
	union := len(a) + len(b) - common
	j := float64(common) / float64(union)
	if common == union || common >= 2 && j >= 0.5 {
		return j
	}
	return 0
}

// sameSubject scores two subjects: 0 when they differ, else how much of
// their words they share.
func sameSubject(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	common := 0
	for w := range a {
		if b[w] {
			common++
		}
	}
	j := float64(common) / float64(len(a)+len(b)-common)
	small := min(len(a), len(b))
	if j >= 0.6 || small >= 3 && common == small {
		return j
	}
	return 0
}

// differentValues: both claims give their subject a value, and not the
// same one ("8080" and "8081"; "chi" and "gorilla/mux").
func differentValues(a, b map[string]bool) bool {
	return len(a) > 0 && len(b) > 0 && !overlaps(a, b)
}

func overlaps(a, b map[string]bool) bool {
	for w := range a {
		if b[w] {
			return true
		}
	}
	return false
}

func subsetOf(a, b map[string]bool) bool {
	for w := range a {
		if !b[w] {
			return false
		}
	}
	return true
}

// keyWords are the words of a subject or value, lower-case and stemmed;
// "/" and "-" join one name ("gorilla/mux", "go-chi").
func keyWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.Trim(w, ".,;:!?()[]\"'`")
		if w = stem(w); w != "" && !stopWords[w] {
			out[w] = true
		}
	}
	return out
}

// stopWords are left out when titles and bodies are compared.
var stopWords = func() map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but of to in on at for with by from as is are was were be been
		it its this that these those we i you they our your use uses used using instead not no do does
		should will would can could must may might have has had so than then there here into over about`) {
		set[w] = true
	}
	return set
}()

// titleWords are the words of a title as consolidation compares them.
func titleWords(title string) map[string]bool { return slugWords(model.Slug(title)) }

func slugWords(slug string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Split(slug, "-") {
		if w = stem(w); w != "" && !stopWords[w] {
			out[w] = true
		}
	}
	return out
}

// stem drops a plural "s" from longer words: enough to make "tests" and
// "test" one word.
func stem(w string) string {
	if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

var wordRE = lazyre.New(`[\p{L}\p{N}]+`)

func bodyWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range wordRE.FindAllString(strings.ToLower(s), -1) {
		if n, ok := numbers[w]; ok {
			w = n
		}
		if w = stem(w); !stopWords[w] {
			out[w] = true
		}
	}
	return out
}

// numbers are the small numbers people spell out: "three days" and "3
// days" say the same.
var numbers = map[string]string{"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
	"seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12"}

// sameContent reports whether a candidate's body adds nothing to an
// item's: all its words are there, or the two share 80 % of their words.
func sameContent(old, add string) bool {
	a, b := bodyWords(old), bodyWords(add)
	if len(b) == 0 {
		return true
	}
	common := 0
	for w := range b {
		if a[w] {
			common++
		}
	}
	if common == len(b) {
		return true
	}
	return float64(common)/float64(len(a)+len(b)-common) >= 0.8
}

// mergeTags is an item's tags with a candidate's added, normalised.
func mergeTags(old, add []string) []string {
	return model.NormTags(append(append([]string(nil), old...), add...))
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
