package anchor

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-mem/cairn/internal/memory"
)

// Confirm records that a person checked the memory ref names (an id,
// six or more of its first or last characters, or its path in the
// memory) against the project's
// code as it is: an empty checkpoint with a TrailerChecked trailer, whose
// Cairn-Code-Commit is the new base of its anchors. History keeps the
// check, and a clone that syncs it sees it too. It returns the path.
func Confirm(ctx context.Context, m *memory.Memory, ref string) (string, error) {
	if _, err := update(ctx, m); err != nil {
		return "", err
	}
	c := load(m.StatePath(cacheFile))
	p, err := find(c, ref)
	if err != nil {
		return "", err
	}
	e := c.Entries[p]
	title := e.Title
	if title == "" {
		title = e.ID
	}
	_, err = m.Checkpoint(ctx, memory.CheckpointOptions{
		Message:    "stale: checked " + title + " against the code",
		Event:      eventConfirm,
		Paths:      []string{p},
		AllowEmpty: true,
		Extra:      []memory.Trailer{{Key: TrailerChecked, Value: p}},
	})
	if err != nil {
		return "", fmt.Errorf("record the check of %s: %w", p, err)
	}
	if _, err := update(ctx, m); err != nil {
		return "", err
	}
	return p, nil
}

// find returns the path of the one entry ref names.
func find(c *cache, ref string) (string, error) {
	if _, ok := c.Entries[ref]; ok {
		return ref, nil
	}
	var hits []string
	for p, e := range c.Entries {
		if strings.EqualFold(e.ID, ref) {
			return p, nil
		}
		id, want := strings.ToUpper(e.ID), strings.ToUpper(ref)
		if len(want) >= 6 && (strings.HasPrefix(id, want) || strings.HasSuffix(id, want)) {
			hits = append(hits, p)
		}
	}
	sort.Strings(hits)
	switch len(hits) {
	case 0:
		return "", fmt.Errorf("%s: no item or session summary of that id (cairn stale lists those the code changed under)", ref)
	case 1:
		return hits[0], nil
	}
	return "", fmt.Errorf("%s: names %d memories (%s, ...); give more of the id", ref, len(hits), hits[0])
}
