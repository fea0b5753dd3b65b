package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/summarize"
	"gopkg.in/yaml.v3"
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
	Action     string `json:"action"` // added, confirmed, superseded, shared
	ID         string `json:"id"`
	Kind       Kind   `json:"kind"`
	Title      string `json:"title"`
	Path       string `json:"path"`
	Supersedes string `json:"supersedes,omitempty"`
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
	index := map[Kind][]*namedItem{}
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
		title := cutRunes(oneLineText(c.Title), maxTitleLen)
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
			imp = DefaultImportance
		}
		match := bestMatch(index[k], words)
		if match == nil {
			it := NewItem(k, title, now)
			it.Body = strings.TrimSpace(c.Body)
			it.Importance = round3(imp)
			it.Tags = normTags(c.Tags)
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
		old, err := Parse(match.path, data)
		if err != nil {
			// A broken item is the user's to fix; do not touch it.
			m.warn(err.Error())
			continue
		}
		if sameContent(old.Body, c.Body) {
			old.Updated = now.UTC().Truncate(time.Second)
			old.Importance = round3(math.Max(old.Importance, imp))
			old.Tags = normTags(append(append([]string(nil), old.Tags...), c.Tags...))
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
			old.Tags = normTags(append(append([]string(nil), old.Tags...), c.Tags...))
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
		it := NewItem(k, title, now)
		it.Body = strings.TrimSpace(c.Body)
		it.Importance = round3(math.Max(old.Importance, imp))
		it.Tags = normTags(append(append([]string(nil), old.Tags...), c.Tags...))
		it.Pinned = old.Pinned
		it.Session = c.session
		data, err = it.Marshal()
		if err != nil {
			return nil, err
		}
		data = withKeys(data, keySupersedes, old.ID)
		b.remove(match.path)
		b.put(it.Path(), data)
		match.path, match.words, match.fresh = it.Path(), words, true
		changes = append(changes, ItemChange{Action: "superseded", ID: it.ID, Kind: k, Title: it.Title, Path: it.Path(), Supersedes: old.ID})
	}
	return changes, nil
}

func candidateKind(k summarize.Kind) (Kind, bool) {
	switch Kind(k) {
	case Decision, Fact, Pattern, Preference:
		return Kind(k), true
	}
	return "", false
}

// coreIndex lists the items of kind k by their file names.
func (m *Memory) coreIndex(k Kind) ([]*namedItem, error) {
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
func titleWords(title string) map[string]bool { return slugWords(Slug(title)) }

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

// withKeys adds front-matter keys to a marshalled item, before its
// closing "---". Item keeps keys it does not know from then on.
func withKeys(data []byte, kv ...string) []byte {
	end := bytes.Index(data[3:], []byte("\n---\n"))
	if !bytes.HasPrefix(data, []byte("---\n")) || end < 0 {
		return data
	}
	end += 3 + 1 // just past the newline before the closing delimiter
	var add bytes.Buffer
	for i := 0; i+1 < len(kv); i += 2 {
		add.WriteString(kv[i] + ": " + yamlScalar(kv[i+1]) + "\n")
	}
	out := make([]byte, 0, len(data)+add.Len())
	out = append(out, data[:end]...)
	out = append(out, add.Bytes()...)
	return append(out, data[end:]...)
}

// yamlScalar writes a string as a one-line YAML scalar that reads back as
// that string: as yaml.v3 writes it (plain when it can be), else
// double-quoted with Go's escapes, which YAML's double quotes share.
func yamlScalar(s string) string {
	if printable(s) {
		if b, err := yaml.Marshal(s); err == nil {
			if out := strings.TrimSuffix(string(b), "\n"); !strings.Contains(out, "\n") {
				return out
			}
		}
	}
	return strconv.Quote(s)
}

func printable(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// frontKeys reads the string values of an item file's front-matter keys.
func frontKeys(data []byte) map[string]string {
	if !bytes.HasPrefix(data, []byte("---\n")) {
		return nil
	}
	end := bytes.Index(data[3:], []byte("\n---"))
	if end < 0 {
		return nil
	}
	var raw map[string]any
	if yaml.Unmarshal(data[4:3+end+1], &raw) != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range raw {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

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
	var kinds []Kind
	switch what {
	case ShareDecisions, "":
		kinds = []Kind{Decision}
	case SharePatterns:
		kinds = []Kind{Pattern}
	case ShareFull:
		kinds = allKinds()
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
	items, problems, err := m.List(ctx, Filter{Layer: LayerCore})
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
		if k := frontKeys(data); k[keySharedFrom] == src.ID && k[keySharedItem] != "" {
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
		b.put(cp.Path(), withKeys(data, keySharedFrom, src.ID, keySharedItem, it.ID))
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

func containsKind(list []Kind, k Kind) bool {
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
func sharedCopy(it *Item, now time.Time) *Item {
	cp := NewItem(it.Kind, it.Title, now)
	cp.Body = it.Body
	cp.Importance = it.Importance
	cp.Confidence = round3(it.Confidence * 0.8)
	cp.Tags = append([]string(nil), it.Tags...)
	return cp
}
