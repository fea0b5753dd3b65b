package usermem

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// PromotedTag marks a project item promoted to the user memory.
const PromotedTag = "promoted"

// Trailers of the user memory's checkpoint for a promotion: where the
// item came from, so that git log tells it as well as the file.
const (
	TrailerFromProject = "Cairn-Promoted-From"
	TrailerFromItem    = "Cairn-Promoted-Item"
)

// provenance is the body's last line on a promoted item; Layer leaves
// it out of the pack.
const provenance = "_Promoted from project "

// ErrKind is the error for promoting an item that is not a preference or
// a pattern without force.
var ErrKind = errors.New("only preferences and patterns follow you to every project")

// Promotion is what Promote did.
type Promotion struct {
	From    *model.Entry // the project's item, now tagged PromotedTag
	To      *model.Item  // the user memory's copy
	Project string       // the project's folder
}

// Promote copies the project item ref names to the user memory, with its
// provenance (the project and the item's id) in its body and in the
// checkpoint's trailers, and tags the project's item PromotedTag: one
// checkpoint in each memory, nothing rewritten. Only preferences and
// patterns hold in every project; force promotes another kind. An item
// promoted before is refused: its copy is there already.
func Promote(ctx context.Context, proj, user *memory.Memory, ref string, force bool) (*Promotion, error) {
	e, err := proj.Get(ctx, ref)
	if err != nil {
		return nil, err
	}
	it := e.Item
	if it.Kind != model.Preference && it.Kind != model.Pattern && !force {
		return nil, fmt.Errorf("promote %s: it is a %s; %w (--force promotes it anyway)", it.ID, it.Kind, ErrKind)
	}
	if slices.Contains(it.Tags, PromotedTag) {
		return nil, fmt.Errorf("promote %s: promoted already (tag %q); the user memory has its copy", it.ID, PromotedTag)
	}
	name := filepath.Base(proj.Project)
	cp := model.NewItem(it.Kind, it.Title, user.Now())
	cp.Importance, cp.Confidence, cp.Tags = it.Importance, it.Confidence, slices.Clone(it.Tags)
	cp.Body = strings.TrimSpace(it.Body + "\n\n" + fmt.Sprintf("%s`%s` (%s), item %s._", provenance, name, proj.Project, it.ID))
	if err := put(ctx, user, cp, memory.CheckpointOptions{
		Message: fmt.Sprintf("promote: %s %q from %s", cp.Kind, cp.Title, name),
		Event:   "promote",
		Extra: []memory.Trailer{
			{Key: TrailerFromProject, Value: proj.Project},
			{Key: TrailerFromItem, Value: it.ID},
		},
	}); err != nil {
		return nil, fmt.Errorf("promote %s to the user memory %s: %w", it.ID, user.Dir, err)
	}
	it.Tags = append(it.Tags, PromotedTag)
	if _, err := proj.Update(ctx, e, "promote"); err != nil {
		return nil, fmt.Errorf("promote %s: copied to the user memory as %s, but tagging the project's item failed: %w", it.ID, cp.ID, err)
	}
	return &Promotion{From: e, To: cp, Project: proj.Project}, nil
}

// put writes a new item to m in one checkpoint described by opts.
func put(ctx context.Context, m *memory.Memory, it *model.Item, opts memory.CheckpointOptions) error {
	tx, err := m.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.End()
	if _, err := tx.PutItem(it, ""); err != nil {
		return err
	}
	if !m.Config.AutoCheckpoint() {
		return tx.Apply(ctx)
	}
	_, err = tx.Commit(ctx, opts)
	return err
}
