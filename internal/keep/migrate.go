package keep

import (
	"context"
	"errors"
	"fmt"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/catalog"
	"github.com/cairn-mem/cairn/internal/migrate"
	"github.com/cairn-mem/cairn/internal/model"
)

// MigrateResult says what cairn migrate rewrote and what it left.
type MigrateResult struct {
	Upgraded []string // files rewritten at the latest schema
	// Newer are files of a schema this cairn does not know, one line
	// each (path and version); they are left as they are.
	Newer []string
	// Broken are files that do not read for another reason; left too.
	Broken     []string
	Checkpoint *memory.Checkpoint // nil when nothing was rewritten
}

// Migrate rewrites, in one checkpoint, the items and session.yaml files
// whose schema is older than this cairn's: what internal/model upgrades
// on every read is written back. A newer schema is reported, never
// rewritten or dropped.
func Migrate(ctx context.Context, m *memory.Memory) (*MigrateResult, error) {
	tx, err := m.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.End()
	res := &MigrateResult{}
	rows, err := m.Catalog(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		switch r.Type {
		case catalog.Item, catalog.Broken:
		default:
			continue
		}
		data, err := m.ReadFile(r.Path)
		if err != nil {
			return nil, fmt.Errorf("migrate: %w", err)
		}
		it, err := model.Parse(r.Path, data)
		if err != nil {
			res.note(err)
			continue
		}
		if it.ReadSchema() >= model.SchemaVersion {
			continue
		}
		out, err := it.Marshal()
		if err != nil {
			res.Broken = append(res.Broken, fmt.Sprintf("%s: %v", r.Path, err))
			continue
		}
		tx.Put(r.Path, out)
		res.Upgraded = append(res.Upgraded, r.Path)
	}
	sessions, problems, err := m.Sessions().List(ctx, memory.SessionFilter{})
	if err != nil {
		return nil, err
	}
	for _, e := range sessions {
		if e.ReadSchema() >= model.SessionSchema {
			continue
		}
		if err := tx.WriteSession(e); err != nil {
			res.Broken = append(res.Broken, fmt.Sprintf("%s: %v", e.File(model.SessionFile), err))
			continue
		}
		res.Upgraded = append(res.Upgraded, e.File(model.SessionFile))
	}
	for _, err := range problems {
		res.note(err)
	}
	if len(res.Upgraded) == 0 {
		return res, nil
	}
	res.Checkpoint, err = tx.Commit(ctx, memory.CheckpointOptions{
		Message: fmt.Sprintf("migrate: %d file(s) to the current schema", len(res.Upgraded)),
		Event:   "migrate",
	})
	return res, err
}

func (res *MigrateResult) note(err error) {
	var newer *migrate.NewerError
	if errors.As(err, &newer) {
		res.Newer = append(res.Newer, err.Error())
		return
	}
	res.Broken = append(res.Broken, err.Error())
}
