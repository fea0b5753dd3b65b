package usermem

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/prose"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// Item is a user memory's item as the context pack shows it.
type Item struct {
	ID, Title  string
	Kind       model.Kind
	Importance float64
	File       string // the item's file, absolute: how to read it whole

	dir, path string // the memory and the file's path in it, for Body
}

// Body reads the item's body, without the provenance line Promote adds
// (the pack needs the preference, not where it came from): only for the
// items the pack has room for, since reading every one would cost a
// session start more than the rest of the user memory. A file gone or
// broken meanwhile has no body; a symbolic link is not followed.
func (it Item) Body() string {
	data, err := safefile.ReadInRoot(it.dir, it.path)
	if err != nil {
		return ""
	}
	parsed, err := model.Parse(it.path, data)
	if err != nil {
		return ""
	}
	return dropProvenance(parsed.Body)
}

// Layer returns the user memory's preferences and patterns at dir that
// no project item contradicts, for the context pack to show under the
// project's own. A user item conflicts with a project item (titles
// lists every project item's title) when their titles are the same but
// for case, spacing and end punctuation, or when they are about the same
// topic: the same prose.TopicClaim subject, their first three content
// words. The project's item wins; the user's is left out.
//
// No user memory is no layer. A folder that is not one, or one that
// cannot be read, is a warning: the pack goes on without it.
func Layer(ctx context.Context, dir string, titles []string) (items []Item, warns []string) {
	if dir == "" {
		return nil, nil
	}
	exists, err := state(dir)
	if err != nil {
		return nil, []string{err.Error()}
	}
	if !exists {
		return nil, nil
	}
	m, err := memory.Open(ctx, dir, memory.Options{})
	if err != nil {
		return nil, []string{"user memory: " + err.Error()}
	}
	defer m.Close()
	taken := make(map[string]bool, 2*len(titles))
	for _, t := range titles {
		taken["t:"+norm(t)] = true
		if s := prose.TopicClaim(t).Subject; s != "" {
			taken["s:"+s] = true
		}
	}
	// One read of the core items (a List per kind read the catalogue
	// twice, and said each broken file twice).
	es, problems, err := m.List(ctx, memory.Filter{Layer: model.LayerCore})
	if err != nil {
		return nil, []string{"user memory: " + err.Error()}
	}
	for _, e := range problems {
		warns = append(warns, "user memory: "+e.Error())
	}
	for _, k := range []model.Kind{model.Preference, model.Pattern} {
		for _, e := range es {
			it := e.Item
			if it.Kind != k || taken["t:"+norm(it.Title)] || taken["s:"+prose.TopicClaim(it.Title).Subject] {
				continue
			}
			items = append(items, Item{ID: it.ID, Title: it.Title, Kind: it.Kind, Importance: it.Importance,
				File: filepath.Join(dir, filepath.FromSlash(e.Path)), dir: dir, path: e.Path})
		}
	}
	return items, warns
}

// norm is a title as compared for a conflict.
func norm(s string) string {
	return strings.TrimRight(strings.ToLower(strings.Join(strings.Fields(s), " ")), ".!:;")
}

// dropProvenance removes the line Promote adds.
func dropProvenance(body string) string {
	if i := strings.LastIndex(body, provenance); i >= 0 && !strings.Contains(body[i:], "\n") {
		return strings.TrimSpace(body[:i])
	}
	return body
}
