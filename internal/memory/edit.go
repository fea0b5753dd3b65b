package memory

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/model"
)

// SaveEdit checkpoints the hand edit of e's file, whose text was before
// when the editor started (cairn edit). changed is false, and nothing is
// done, when the file is as it was; a file that no longer parses or
// validates is left as edited and not checkpointed. cp is nil when the
// edit changed nothing worth a commit.
func (m *Memory) SaveEdit(ctx context.Context, e *model.Entry, before []byte) (cp *gitstore.Checkpoint, changed bool, err error) {
	name := filepath.Join(m.Dir, filepath.FromSlash(e.Path))
	after, err := m.ReadFile(e.Path)
	if err != nil {
		return nil, false, err
	}
	if string(after) == string(before) {
		return nil, false, nil
	}
	it, err := model.Parse(e.Path, after)
	if err != nil {
		return nil, true, fmt.Errorf("%w (your edit is kept in %s, not checkpointed)", err, name)
	}
	if err := it.Validate(); err != nil {
		return nil, true, fmt.Errorf("%s: %w (your edit is kept, not checkpointed)", e.Path, err)
	}
	e.Item = it
	cp, err = m.Update(ctx, e, "edit")
	return cp, true, err
}
