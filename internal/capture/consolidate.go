package capture

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

	"github.com/cairn-mem/cairn/internal/mdtext"
	"github.com/cairn-mem/cairn/internal/memory"
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
func consolidate(ctx context.Context, m *memory.Memory, cands []candidate, b *memory.Writes) ([]model.ItemChange, error) {
	index := map[model.Kind][]*namedItem{}
	var changes []model.ItemChange
	now := m.Now()
	for _, c := range cands {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k, ok := candidateKind(c.Kind)
		if !ok {
			continue
		}
		title := mdtext.Cut(mdtext.OneLine(c.Title), model.MaxTitleLen)
		if title == "" {
			continue
		}
		if _, loaded := index[k]; !loaded {
			list, err := coreIndex(m, k)
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
			b.Put(it.Path(), data)
			index[k] = append(index[k], &namedItem{path: it.Path(), words: words, fresh: true})
			changes = append(changes, model.ItemChange{Action: "added", ID: it.ID, Kind: k, Title: it.Title, Path: it.Path()})
			continue
		}
		data, err := m.PendingContent(b, match.path)
		if err != nil {
			return nil, err
		}
		old, err := model.Parse(match.path, data)
		if err != nil {
			// A broken item is the user's to fix; do not touch it.
			m.Warn(err.Error())
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
			b.Put(match.path, data)
			changes = append(changes, model.ItemChange{Action: "confirmed", ID: old.ID, Kind: k, Title: old.Title, Path: match.path})
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
			b.Drop(match.path)
			b.Put(old.Path(), data)
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
		data = model.WithKeys(data, model.KeySupersedes, old.ID)
		b.Remove(match.path)
		b.Put(it.Path(), data)
		match.path, match.words, match.fresh = it.Path(), words, true
		changes = append(changes, model.ItemChange{Action: "superseded", ID: it.ID, Kind: k, Title: it.Title, Path: it.Path(), Supersedes: old.ID})
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
func coreIndex(m *memory.Memory, k model.Kind) ([]*namedItem, error) {
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
