package memsync

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// ShareResult says what Share copied.
type ShareResult struct {
	From, To   string
	Items      []model.ItemChange
	Skipped    int // shared before
	Checkpoint *memory.Checkpoint
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
func Share(ctx context.Context, m *memory.Memory, from, to, what string) (*ShareResult, error) {
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
		if err := memory.CheckSessionID(id); err != nil {
			return nil, err
		}
	}
	unlock, err := m.LockSettled(ctx)
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
	items, problems, err := m.List(ctx, memory.Filter{Layer: model.LayerCore})
	if err != nil {
		return nil, err
	}
	for _, p := range problems {
		m.Warn("skipped " + p.Error())
	}
	done := map[string]bool{} // items of src already shared to dst
	for _, e := range items {
		if e.Item.Session != dst.ID {
			continue
		}
		data, err := m.ReadFile(e.Path)
		if err != nil {
			continue
		}
		if k := model.FrontKeys(data); k[model.KeySharedFrom] == src.ID && k[model.KeySharedItem] != "" {
			done[k[model.KeySharedItem]] = true
		}
	}
	b := &memory.Writes{}
	now := m.Now()
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
		b.Put(cp.Path(), model.WithKeys(data, model.KeySharedFrom, src.ID, model.KeySharedItem, it.ID))
		res.Items = append(res.Items, model.ItemChange{Action: "shared", ID: cp.ID, Kind: cp.Kind, Title: cp.Title, Path: cp.Path()})
	}
	if b.Empty() {
		return res, nil
	}
	noun := what
	if noun == "" {
		noun = ShareDecisions
	}
	if noun == ShareFull {
		noun = "items"
	}
	res.Checkpoint, err = m.CommitWrites(ctx, b, memory.CheckpointOptions{
		Message: fmt.Sprintf("share: %d %s from session %s to %s", len(res.Items), noun, memory.ShortSession(src.ID), memory.ShortSession(dst.ID)),
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
	cp.Confidence = math.Round(it.Confidence*0.8*1000) / 1000
	cp.Tags = append([]string(nil), it.Tags...)
	return cp
}
