package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// Consolidation turns what a summarizer proposes into core memory
// without piling up duplicates. A candidate (a decision, fact, pattern or
// preference) is compared with the core items of the same kind:
//
//   - Their titles are reduced to words: the item's slug (lower-case
//     ASCII words, at most 50 bytes, see Slug), without common English
//     stop words and without a plural "s". Two titles match when their
//     word sets are equal, or share at least two words and at least half
//     of all their words (Jaccard ≥ 0.5).
//   - A candidate that matches no item becomes a new item, with the
//     session it came from and the importance the summarizer gave it.
//   - A candidate that matches an item and says nothing new (its body's
//     words are all in the item's, or the two bodies share 80 % of their
//     words) confirms it: the item's updated time moves, its importance
//     becomes the larger of the two and it gains the candidate's tags.
//   - A candidate that matches an item and says something else supersedes
//     it: a new item takes the candidate's title and body, keeps the old
//     item's tags, pin and the larger importance, and records
//     "supersedes: <old id>"; the old file is removed. git keeps it.
//
// The rule is a cheap lexical one on purpose: it runs for every summary,
// offline, over file names, and reads only the items it matches.

// ItemChange is what consolidation or sharing did to one core item.
type ItemChange struct {
	Action     string     `json:"action"` // added, confirmed, superseded, shared
	ID         string     `json:"id"`
	Kind       model.Kind `json:"kind"`
	Title      string     `json:"title"`
	Path       string     `json:"path"`
	Supersedes string     `json:"supersedes,omitempty"`
}

// The front-matter keys consolidation and sharing add to items.
const (
	keySupersedes = "supersedes"
	keySharedFrom = "shared_from"
	keySharedItem = "shared_item"
)

type candidate struct {
	summarize.Candidate
	session string
}

// namedItem is a core item known by its file name.
type namedItem struct {
	path  string
	words map[string]bool
	fresh bool // made by this batch: replaced, not superseded
}

// consolidate adds, confirms or supersedes core items for the candidates,
// as writes of b. The caller holds the lock.
func (m *Memory) consolidate(ctx context.Context, cands []candidate, b *batchWrite) ([]ItemChange, error) {
	index := map[model.Kind][]*namedItem{}
	var changes []ItemChange
	now := m.now()
	for _, c := range cands {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k, ok := candidateKind(c.Kind)
		if !ok {
			continue
		}
		title := cutRunes(oneLineText(c.Title), model.MaxTitleLen)
		if title == "" {
			continue
		}
		if _, loaded := index[k]; !loaded {
			list, err := m.coreIndex(k)
			if err != nil {
				return nil, err
			}
			index[k] = list
		}
		words := titleWords(title)
		imp := c.Importance
		if !(imp > 0 && imp <= 1) {
			imp = model.DefaultImportance
		}
		match := bestMatch(index[k], words)
		if match == nil {
			it := model.NewItem(k, title, now)
			it.Body = strings.TrimSpace(c.Body)
			it.Importance = round3(imp)
			it.Tags = model.NormTags(c.Tags)
			it.Session = c.session
			data, err := it.Marshal()
			if err != nil {
				return nil, err
			}
			b.put(it.Path(), data)
			index[k] = append(index[k], &namedItem{path: it.Path(), words: words, fresh: true})
			changes = append(changes, ItemChange{Action: "added", ID: it.ID, Kind: k, Title: it.Title, Path: it.Path()})
			continue
		}
		data, err := m.pendingContent(b, match.path)
		if err != nil {
			return nil, err
		}
		old, err := model.Parse(match.path, data)
		if err != nil {
			// A broken item is the user's to fix; do not touch it.
			m.warn(err.Error())
			continue
		}
		if sameContent(old.Body, c.Body) {
			old.Updated = now.UTC().Truncate(time.Second)
			old.Importance = round3(math.Max(old.Importance, imp))
			old.Tags = model.NormTags(append(append([]string(nil), old.Tags...), c.Tags...))
			data, err := old.Marshal()
			if err != nil {
				return nil, err
			}
			b.put(match.path, data)
			changes = append(changes, ItemChange{Action: "confirmed", ID: old.ID, Kind: k, Title: old.Title, Path: match.path})
			continue
		}
		if match.fresh {
			// Made by this batch: it never reached history, so the new
			// candidate takes its place (and what it superseded).
			old.Title, old.Body = title, strings.TrimSpace(c.Body)
			old.Importance = round3(math.Max(old.Importance, imp))
			old.Tags = model.NormTags(append(append([]string(nil), old.Tags...), c.Tags...))
			data, err := old.Marshal()
			if err != nil {
				return nil, err
			}
			b.drop(match.path)
			b.put(old.Path(), data)
			match.path, match.words = old.Path(), words
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
		it.Tags = model.NormTags(append(append([]string(nil), old.Tags...), c.Tags...))
		it.Pinned = old.Pinned
		it.Session = c.session
		data, err = it.Marshal()
		if err != nil {
			return nil, err
		}
		data = model.WithKeys(data, keySupersedes, old.ID)
		b.remove(match.path)
		b.put(it.Path(), data)
		match.path, match.words, match.fresh = it.Path(), words, true
		changes = append(changes, ItemChange{Action: "superseded", ID: it.ID, Kind: k, Title: it.Title, Path: it.Path(), Supersedes: old.ID})
	}
	return changes, nil
}

func candidateKind(k summarize.Kind) (model.Kind, bool) {
	switch model.Kind(k) {
	case model.Decision, model.Fact, model.Pattern, model.Preference:
		return model.Kind(k), true
	}
	return "", false
}

// coreIndex lists the items of kind k by their file names.
func (m *Memory) coreIndex(k model.Kind) ([]*namedItem, error) {
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
		if d.IsDir() || !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
			continue
		}
		slug := strings.TrimSuffix(name, ".md")
		if i := strings.LastIndex(slug, "--"); i >= 0 {
			slug = slug[:i]
		}
		out = append(out, &namedItem{path: dir + "/" + name, words: slugWords(slug)})
	}
	return out, nil
}

// bestMatch returns the entry whose title words match words best, if any
// matches (see the package comment above).
func bestMatch(list []*namedItem, words map[string]bool) *namedItem {
	var best *namedItem
	bestScore := 0.0
	for _, e := range list {
		if s := titleMatch(words, e.words); s > bestScore {
			best, bestScore = e, s
		}
	}
	return best
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

var wordRE = regexp.MustCompile(`[\p{L}\p{N}]+`)

func bodyWords(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range wordRE.FindAllString(strings.ToLower(s), -1) {
		if w = stem(w); !stopWords[w] {
			out[w] = true
		}
	}
	return out
}

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

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// ShareResult says what Share copied.
type ShareResult struct {
	From, To   string
	Items      []ItemChange
	Skipped    int // shared before
	Checkpoint *gitstore.Checkpoint
}

// What Share copies.
const (
	ShareDecisions = "decisions"
	SharePatterns  = "patterns"
	ShareFull      = "full"
)

// Share copies the core items that came from session from (its
// decisions, its patterns, or all of them) to session to, as new items
// with session: to, confidence × 0.8 and the provenance keys shared_from
// (the session) and shared_item (the item copied). Items shared before
// are not copied again. The copies are one commit.
func (m *Memory) Share(ctx context.Context, from, to, what string) (*ShareResult, error) {
	var kinds []model.Kind
	switch what {
	case ShareDecisions, "":
		kinds = []model.Kind{model.Decision}
	case SharePatterns:
		kinds = []model.Kind{model.Pattern}
	case ShareFull:
		kinds = model.AllKinds()
	default:
		return nil, fmt.Errorf("share %q: want decisions, patterns or full", what)
	}
	for _, id := range []string{from, to} {
		if err := checkSessionID(id); err != nil {
			return nil, err
		}
	}
	unlock, err := m.lockSettled(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	src, err := m.Session(ctx, from)
	if err != nil {
		return nil, err
	}
	dst, err := m.Session(ctx, to)
	if err != nil {
		return nil, err
	}
	if src.ID == dst.ID {
		return nil, fmt.Errorf("share: %s is both the source and the destination", src.ID)
	}
	res := &ShareResult{From: src.ID, To: dst.ID}
	items, problems, err := m.List(ctx, Filter{Layer: model.LayerCore})
	if err != nil {
		return nil, err
	}
	for _, p := range problems {
		m.warn("skipped " + p.Error())
	}
	done := map[string]bool{} // items of src already shared to dst
	for _, e := range items {
		if e.Item.Session != dst.ID {
			continue
		}
		data, err := m.store.ReadFile(e.Path)
		if err != nil {
			continue
		}
		if k := model.FrontKeys(data); k[keySharedFrom] == src.ID && k[keySharedItem] != "" {
			done[k[keySharedItem]] = true
		}
	}
	b := &batchWrite{}
	now := m.now()
	for _, e := range items {
		it := e.Item
		if it.Session != src.ID || !containsKind(kinds, it.Kind) {
			continue
		}
		if done[it.ID] {
			res.Skipped++
			continue
		}
		cp := sharedCopy(it, now)
		cp.Session = dst.ID
		data, err := cp.Marshal()
		if err != nil {
			return nil, err
		}
		b.put(cp.Path(), model.WithKeys(data, keySharedFrom, src.ID, keySharedItem, it.ID))
		res.Items = append(res.Items, ItemChange{Action: "shared", ID: cp.ID, Kind: cp.Kind, Title: cp.Title, Path: cp.Path()})
	}
	if b.empty() {
		return res, nil
	}
	noun := what
	if noun == "" {
		noun = ShareDecisions
	}
	if noun == ShareFull {
		noun = "items"
	}
	res.Checkpoint, err = m.commitBatch(ctx, b, CheckpointOptions{
		Message: fmt.Sprintf("share: %d %s from session %s to %s", len(res.Items), noun, shortSession(src.ID), shortSession(dst.ID)),
		Session: dst.ID,
		Event:   "share",
	})
	return res, err
}

func containsKind(list []model.Kind, k model.Kind) bool {
	for _, x := range list {
		if x == k {
			return true
		}
	}
	return false
}

// sharedCopy is a new item with it's kind, title, body, importance and
// tags, for another session or project. Knowledge that comes from
// elsewhere is trusted less: confidence × 0.8, the seed design's rule.
func sharedCopy(it *model.Item, now time.Time) *model.Item {
	cp := model.NewItem(it.Kind, it.Title, now)
	cp.Body = it.Body
	cp.Importance = it.Importance
	cp.Confidence = round3(it.Confidence * 0.8)
	cp.Tags = append([]string(nil), it.Tags...)
	return cp
}
