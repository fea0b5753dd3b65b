package consolidate

import (
	"context"
	"fmt"
	"github.com/cairn-mem/cairn/internal/quote"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// RetireQuoted removes, as writes of b, the core facts, decisions and
// preferences whose title a
// model quoted as no longer true (summarize.Result.Untrue), or the
// beginning of one of five words or more (the title cut from the bullet
// quoted), and returns the changes ("retired"). It finds them by the catalogue's titles and
// reads only those; a pinned item, one this batch wrote or removed, and
// one that does not parse stay. The caller holds the lock.
func RetireQuoted(ctx context.Context, m *memory.Memory, quoted []string, b *memory.Writes) ([]model.ItemChange, error) {
	if len(quoted) == 0 {
		return nil, nil
	}
	var keys quote.Set
	for _, q := range quoted {
		keys.Add(q, 0)
	}
	named := func(title string) bool {
		_, ok := keys.At(title)
		return ok
	}
	rows, err := m.Catalog(ctx, string(model.LayerCore))
	if err != nil {
		return nil, fmt.Errorf("retire quoted items: %w", err)
	}
	touched := make(map[string]bool)
	for _, w := range b.Changes() {
		touched[w.Path] = true
	}
	var out []model.ItemChange
	for _, r := range rows {
		switch model.Kind(r.Kind) {
		case model.Fact, model.Decision, model.Preference: // what a model is offered (recent.Statements)
		default:
			continue
		}
		if r.Title == "" || touched[r.Path] || !named(r.Title) {
			continue
		}
		data, err := m.PendingContent(b, r.Path)
		if err != nil {
			return out, fmt.Errorf("retire quoted items: read %s: %w", r.Path, err)
		}
		it, err := model.Parse(r.Path, data)
		if err != nil || it.Pinned || !named(it.Title) {
			continue // the user's to fix, or to keep
		}
		b.Remove(r.Path)
		out = append(out, model.ItemChange{Action: "retired", ID: it.ID, Kind: it.Kind, Title: it.Title, Path: r.Path})
	}
	return out, nil
}
