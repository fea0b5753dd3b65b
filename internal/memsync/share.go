package memsync

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// What Share and ShareTo copy.
const (
	ShareDecisions = "decisions"
	SharePatterns  = "patterns"
	ShareFull      = "full" // every kind a person writes: decisions, facts, patterns, preferences, notes
)

// shareKinds reads what to share.
func shareKinds(what string) ([]model.Kind, string, error) {
	switch what {
	case ShareDecisions, "":
		return []model.Kind{model.Decision}, ShareDecisions, nil
	case SharePatterns:
		return []model.Kind{model.Pattern}, "patterns", nil
	case ShareFull:
		return model.Kinds(), "items", nil
	}
	return nil, "", fmt.Errorf("share %q: want decisions, patterns or full", what)
}

// ShareResult says what Share copied.
type ShareResult struct {
	From, To   string
	Items      []model.ItemChange
	Skipped    int // shared before
	Checkpoint *memory.Checkpoint
}

// Share copies the core items that came from session from (its
// decisions, its patterns, or all of them) to session to, as new items
// with session: to. See copier for what a copy is and what is never
// copied. The copies are one commit.
func Share(ctx context.Context, m *memory.Memory, from, to, what string) (*ShareResult, error) {
	kinds, noun, err := shareKinds(what)
	if err != nil {
		return nil, err
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
	src, err := m.Sessions().Get(ctx, from)
	if err != nil {
		return nil, err
	}
	dst, err := m.Sessions().Get(ctx, to)
	if err != nil {
		return nil, err
	}
	if src.ID == dst.ID {
		return nil, fmt.Errorf("share: %s is both the source and the destination", src.ID)
	}
	c := copier{
		src: m, dst: m, kinds: kinds,
		from:      func(it *model.Item) bool { return it.Session == src.ID },
		into:      func(it *model.Item) bool { return it.Session == dst.ID },
		originKey: model.KeySharedFrom, origin: src.ID,
		session: dst.ID,
	}
	res := &ShareResult{From: src.ID, To: dst.ID}
	b, err := c.copy(ctx, &res.Items, &res.Skipped)
	if err != nil || b.Empty() {
		return res, err
	}
	res.Checkpoint, err = m.CommitWrites(ctx, b, memory.CheckpointOptions{
		Message: fmt.Sprintf("share: %d %s from session %s to %s", len(res.Items), noun, memory.ShortSession(src.ID), memory.ShortSession(dst.ID)),
		Session: dst.ID,
		Event:   "share",
	})
	return res, err
}

// ProjectShareResult says what ShareTo copied.
type ProjectShareResult struct {
	From       string             `json:"from"` // the source project
	To         string             `json:"to"`   // the destination project
	Items      []model.ItemChange `json:"items"`
	Skipped    int                `json:"skipped"` // shared before
	Checkpoint *memory.Checkpoint `json:"-"`
}

// ShareTo copies this memory's core items (its decisions, its patterns or
// all of them, as for Share) into the memory dst of another project. See
// copyItems for what a copy is and what is never copied; items that came
// from dst in the first place are not copied back. The copies are one
// commit in dst.
func ShareTo(ctx context.Context, m *memory.Memory, dst *memory.Memory, what string) (*ProjectShareResult, error) {
	kinds, noun, err := shareKinds(what)
	if err != nil {
		return nil, err
	}
	if filepath.Clean(m.Dir) == filepath.Clean(dst.Dir) {
		return nil, fmt.Errorf("share: %s is both the source and the destination", m.Project)
	}
	unlock, err := dst.LockSettled(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	c := copier{
		src: m, dst: dst, kinds: kinds,
		from:      func(*model.Item) bool { return true },
		into:      func(*model.Item) bool { return true },
		originKey: model.KeySharedProject, origin: m.Project, back: dst.Project,
	}
	res := &ProjectShareResult{From: m.Project, To: dst.Project}
	b, err := c.copy(ctx, &res.Items, &res.Skipped)
	if err != nil || b.Empty() {
		return res, err
	}
	res.Checkpoint, err = dst.CommitWrites(ctx, b, memory.CheckpointOptions{
		Message: fmt.Sprintf("share: %d %s from project %s", len(res.Items), noun, filepath.Base(m.Project)),
		Event:   "share",
	})
	return res, err
}

// copier is the one way items are shared, between sessions of a memory or
// between projects' memories. A copy is a new item with the original's
// kind, title, body, importance, tags and pin, confidence × 0.8 (the seed
// design's rule: knowledge from elsewhere is trusted less), and two
// provenance keys: originKey (shared_from: the session, or
// shared_project: the project) and shared_item (the id copied). Never
// copied: conflict copies, items shared before (found by their
// provenance among the destination's items that into selects), and items
// whose provenance says they came from back (the destination project).
// The caller holds dst's write lock.
type copier struct {
	src, dst          *memory.Memory
	kinds             []model.Kind
	from, into        func(*model.Item) bool
	originKey, origin string
	back              string // provenance value that means "came from the destination"
	session           string // the copies' session, if any
}

func (c *copier) copy(ctx context.Context, changes *[]model.ItemChange, skipped *int) (*memory.Writes, error) {
	items, err := c.core(ctx, c.src)
	if err != nil {
		return nil, err
	}
	have, err := c.core(ctx, c.dst)
	if err != nil {
		return nil, err
	}
	done := map[string]bool{} // items of src already in dst
	for _, e := range have {
		if !c.into(e.Item) {
			continue
		}
		if c.src != c.dst {
			done[e.Item.ID] = true // shared back and forth: the same item
		}
		if data, err := c.dst.ReadFile(e.Path); err == nil {
			if k := model.FrontKeys(data); k[c.originKey] == c.origin && k[model.KeySharedItem] != "" {
				done[k[model.KeySharedItem]] = true
			}
		}
	}
	b := &memory.Writes{}
	now := c.dst.Now()
	for _, e := range items {
		it := e.Item
		if !c.from(it) || !slices.Contains(c.kinds, it.Kind) || IsConflictCopy(e.Path) {
			continue
		}
		if c.back != "" {
			data, err := c.src.ReadFile(e.Path)
			if err != nil {
				continue
			}
			if k := model.FrontKeys(data); k[c.originKey] == c.back || done[k[model.KeySharedItem]] {
				continue // came from dst
			}
		}
		if done[it.ID] {
			*skipped++
			continue
		}
		cp := sharedCopy(it, now)
		cp.Session = c.session
		data, err := cp.Marshal()
		if err != nil {
			return nil, err
		}
		b.Put(cp.Path(), model.WithKeys(data, c.originKey, c.origin, model.KeySharedItem, it.ID))
		*changes = append(*changes, model.ItemChange{Action: "shared", ID: cp.ID, Kind: cp.Kind, Title: cp.Title, Path: cp.Path()})
	}
	return b, nil
}

// core lists m's core items, warning of files that cannot be parsed.
func (c *copier) core(ctx context.Context, m *memory.Memory) ([]model.Entry, error) {
	items, problems, err := m.List(ctx, memory.Filter{Layer: model.LayerCore, Bodies: true})
	for _, p := range problems {
		m.Warn("skipped " + p.Error())
	}
	return items, err
}

// sharedCopy is a new item with it's kind, title, body, importance, tags
// and pin, for another session or project, trusted less: confidence × 0.8.
func sharedCopy(it *model.Item, now time.Time) *model.Item {
	cp := model.NewItem(it.Kind, it.Title, now)
	cp.Body = it.Body
	cp.Importance = it.Importance
	cp.Confidence = math.Round(it.Confidence*0.8*1000) / 1000
	cp.Tags = append([]string(nil), it.Tags...)
	cp.Pinned = it.Pinned
	return cp
}
