package memsync

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// model.KeySharedProject names the project an item was shared from.

// ProjectShareResult says what ShareTo copied.
type ProjectShareResult struct {
	From       string             `json:"from"` // the source project
	To         string             `json:"to"`   // the destination project
	Items      []model.ItemChange `json:"items"`
	Skipped    int                `json:"skipped"` // shared before
	Checkpoint *memory.Checkpoint `json:"-"`
}

// ShareTo copies this memory's core items (its decisions, its patterns or
// every kind, as for Share) into the memory dst of another project, as new
// items with confidence × 0.8 and the provenance keys shared_project (this
// project's folder) and shared_item (the item copied). Items shared
// before, conflict copies, and items that came from dst in the first
// place are not copied. The copies are one commit in dst.
func ShareTo(ctx context.Context, m *memory.Memory, dst *memory.Memory, what string) (*ProjectShareResult, error) {
	var kinds []model.Kind
	switch what {
	case ShareDecisions, "":
		kinds, what = []model.Kind{model.Decision}, ShareDecisions
	case SharePatterns:
		kinds = []model.Kind{model.Pattern}
	case ShareFull:
		kinds = []model.Kind{model.Decision, model.Fact, model.Pattern, model.Preference, model.Note}
	default:
		return nil, fmt.Errorf("share %q: want decisions, patterns or full", what)
	}
	if filepath.Clean(m.Dir) == filepath.Clean(dst.Dir) {
		return nil, fmt.Errorf("share: %s is both the source and the destination", m.Project)
	}
	res := &ProjectShareResult{From: m.Project, To: dst.Project}
	items, problems, err := m.List(ctx, memory.Filter{Layer: model.LayerCore})
	if err != nil {
		return nil, err
	}
	for _, p := range problems {
		m.Warn("skipped " + p.Error())
	}
	unlock, err := dst.LockSettled(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	have, problems, err := dst.List(ctx, memory.Filter{Layer: model.LayerCore})
	if err != nil {
		return nil, err
	}
	for _, p := range problems {
		dst.Warn("skipped " + p.Error())
	}
	done := map[string]bool{} // items of m already in dst
	for _, e := range have {
		done[e.Item.ID] = true // shared back and forth: the same item
		if data, err := dst.ReadFile(e.Path); err == nil {
			if k := model.FrontKeys(data); k[model.KeySharedProject] == m.Project && k[model.KeySharedItem] != "" {
				done[k[model.KeySharedItem]] = true
			}
		}
	}
	b := &memory.Writes{}
	now := dst.Now()
	for _, e := range items {
		it := e.Item
		if !containsKind(kinds, it.Kind) || IsConflictCopy(e.Path) {
			continue
		}
		data, err := m.ReadFile(e.Path)
		if err != nil {
			continue
		}
		if k := model.FrontKeys(data); k[model.KeySharedProject] == dst.Project || done[k[model.KeySharedItem]] {
			continue // came from dst
		}
		if done[it.ID] {
			res.Skipped++
			continue
		}
		cp := sharedCopy(it, now)
		cp.Pinned = it.Pinned
		out, err := cp.Marshal()
		if err != nil {
			return nil, err
		}
		b.Put(cp.Path(), model.WithKeys(out, model.KeySharedProject, m.Project, model.KeySharedItem, it.ID))
		res.Items = append(res.Items, model.ItemChange{Action: "shared", ID: cp.ID, Kind: cp.Kind, Title: cp.Title, Path: cp.Path()})
	}
	if b.Empty() {
		return res, nil
	}
	noun := what
	if noun == ShareFull {
		noun = "items"
	}
	res.Checkpoint, err = dst.CommitWrites(ctx, b, memory.CheckpointOptions{
		Message: fmt.Sprintf("share: %d %s from project %s", len(res.Items), noun, filepath.Base(m.Project)),
		Event:   "share",
	})
	return res, err
}
