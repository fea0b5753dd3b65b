package corecache

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall/docs"
)

// Item is what ranking core memory needs of an item, read cheaply.
type Item struct {
	Path, ID, Title string
	Kind            string
	Importance      float64
	Pinned          bool
	Updated         time.Time
	Supersedes      string // the id of the item this one replaced, if any
	Session         string // the session it came from, if any
	// Parsed says the file parses: its title, kind and dates are those
	// reading it gives.
	Parsed bool
}

// Candidates returns the core items' ranking keys, from the memory's
// catalogue (memory.Catalog), which reads only what changed since it
// was last brought up to date. Files that do not parse are still
// candidates, as plain text named after their file.
func Candidates(ctx context.Context, m *memory.Memory) ([]Item, error) {
	rows, err := m.Catalog(ctx, "core")
	if err != nil {
		return nil, fmt.Errorf("context: read core memory: %w", err)
	}
	items := make([]Item, 0, len(rows))
	for _, r := range rows {
		if !docs.Indexable(r.Path) || (r.Type != catalog.Item && r.Type != catalog.Broken) {
			continue
		}
		items = append(items, itemOf(r))
	}
	return items, nil
}

// itemOf is what ranks the item r describes.
func itemOf(r *catalog.Row) Item {
	c := Item{Path: r.Path, Importance: model.DefaultImportance}
	if r.Type == catalog.Item {
		c.ID, c.Title, c.Kind, c.Session, c.Supersedes = r.ID, r.Title, r.Kind, r.Session, r.Supersedes
		c.Importance, c.Pinned, c.Updated, c.Parsed = r.Importance, r.Pinned, r.Updated, true
	}
	if c.ID == "" {
		c.ID, _ = model.IDFromPath(r.Path)
	}
	if c.ID == "" {
		c.ID = r.Path
	}
	if c.Title == "" {
		name, _, _ := strings.Cut(strings.TrimSuffix(path.Base(r.Path), ".md"), "--")
		c.Title = strings.ReplaceAll(name, "-", " ")
	}
	c.Importance = min(max(c.Importance, 0), 1)
	return c
}

// Current leaves out the items another item supersedes (consolidation
// moves them out of the tree, but a hand edit or a merge may leave both),
// and returns their ids.
func Current(items []Item) ([]Item, map[string]bool) {
	gone := make(map[string]bool)
	for _, c := range items {
		if c.Supersedes != "" && c.Supersedes != c.ID {
			gone[c.Supersedes] = true
		}
	}
	if len(gone) == 0 {
		return items, gone
	}
	out := items[:0]
	for _, c := range items {
		if !gone[c.ID] {
			out = append(out, c)
		}
	}
	return out, gone
}

// Before reports whether core item a comes before b in a pack: pinned
// first, then by importance, then by what a query retrieved of it (score,
// by path; nil without a query), then the latest.
func Before(a, b *Item, score map[string]float64) bool {
	if a.Pinned != b.Pinned {
		return a.Pinned
	}
	if a.Importance != b.Importance {
		return a.Importance > b.Importance
	}
	if score[a.Path] != score[b.Path] {
		return score[a.Path] > score[b.Path]
	}
	return a.Updated.After(b.Updated)
}

// Ordered returns items in a pack's order (Before, with a query's
// scores by path; nil without a query).
func Ordered(items []Item, score map[string]float64) []Item {
	return sortStable(items, func(a, b *Item) bool { return Before(a, b, score) })
}

// sortStable returns items in the order sort.SliceStable gives them by
// less, sorting their indexes rather than moving the items: 5,000 core
// items at 100,000 files, each of a hundred-odd bytes, which
// sort.SliceStable swapped through reflection. slices.SortStableFunc is
// the same algorithm (insertion sort of blocks, then symMerge), so the
// order is the same one even where less is not a strict weak order.
func sortStable[T any](items []T, less func(a, b *T) bool) []T {
	idx := make([]int32, len(items))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(i, j int32) int {
		if less(&items[i], &items[j]) {
			return -1
		}
		return 0
	})
	out := make([]T, len(items))
	for i, k := range idx {
		out[i] = items[k]
	}
	return out
}

// OnePerTitle keeps one item of each title, the pinned or most
// important one, in items' order, and returns the paths of those left
// out: a sentence consolidation filed under two kinds ("(The switch is
// on OCaml 5.1.1 …)" as a decision and as a fact) is one entry of a pack.
func OnePerTitle(items []Item) (kept []Item, twins []string) {
	key := func(t string) string { return strings.ToLower(strings.TrimSpace(t)) }
	shown := map[string]int{} // a title's item kept, by index in items
	for i, c := range items {
		t := key(c.Title)
		if j, ok := shown[t]; !ok || c.Pinned && !items[j].Pinned || c.Pinned == items[j].Pinned && c.Importance > items[j].Importance {
			shown[t] = i
		}
	}
	if len(shown) == len(items) {
		return items, nil
	}
	for i, c := range items {
		if shown[key(c.Title)] == i {
			kept = append(kept, c)
		} else {
			twins = append(twins, c.Path)
		}
	}
	return kept, twins
}
