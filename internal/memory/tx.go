package memory

import (
	"context"
	"fmt"

	"github.com/cairn-mem/cairn/gitstore"
	"github.com/cairn-mem/cairn/internal/model"
)

// Tx is one change of the memory: the writer lock, held from Begin to
// End, a batch of writes collected meanwhile, and the journal and
// checkpoint of Commit. Reads made inside it (Get, Session, List) see the
// memory as committed: Begin settles a batch a killed process left.
//
//	tx, err := m.Begin(ctx)
//	if err != nil { ... }
//	defer tx.End()
//	tx.Put(...) / tx.Add / tx.Remove / tx.Move / tx.WriteSession / tx.PutItem
//	cp, err := tx.Commit(ctx, CheckpointOptions{...})
//
// It is LockSettled, Writes and CommitWrites in one value; capture uses
// those directly because it plans its batch before it takes the lock.
type Tx struct {
	Writes
	m      *Memory
	unlock func()
}

// Begin takes the writer lock and settles what a killed writer left.
func (m *Memory) Begin(ctx context.Context) (*Tx, error) {
	unlock, err := m.LockSettled(ctx)
	if err != nil {
		return nil, err
	}
	return &Tx{m: m, unlock: unlock}, nil
}

// End releases the lock. Writes not committed are dropped: nothing
// reached the disk before Commit. End may be called more than once.
func (tx *Tx) End() {
	if tx.unlock != nil {
		tx.unlock()
		tx.unlock = nil
	}
}

// Commit writes the batch through the journal and checkpoints it as one
// commit. It returns nil when the batch changed nothing. The batch is
// empty afterwards, so a Tx can commit again.
func (tx *Tx) Commit(ctx context.Context, opts CheckpointOptions) (*gitstore.Checkpoint, error) {
	defer tx.reset()
	return tx.m.writeBatch(ctx, &tx.Writes, &opts)
}

// Apply writes the batch through the journal without a checkpoint, for
// cairn.yaml's checkpoint.auto: false: the files change together, and the
// next checkpoint commits them.
func (tx *Tx) Apply(ctx context.Context) error {
	defer tx.reset()
	_, err := tx.m.writeBatch(ctx, &tx.Writes, nil)
	return err
}

// commitItem is Commit, or Apply when the configuration wants item
// changes left for a checkpoint of the user's.
func (tx *Tx) commitItem(ctx context.Context, opts CheckpointOptions) (*gitstore.Checkpoint, error) {
	if !tx.m.Config.AutoCheckpoint() {
		return nil, tx.Apply(ctx)
	}
	return tx.Commit(ctx, opts)
}

func (tx *Tx) reset() { tx.Writes = Writes{} }

// PutItem redacts an item's title and body, checks it and adds it to the
// batch at its path, which it returns: at, or when at is empty the path
// made from its kind, title and id. The title is redacted here and not
// only with the file's bytes because the file's name is made from it.
func (tx *Tx) PutItem(it *model.Item, at string) (string, error) {
	red, err := tx.m.Redactor()
	if err != nil {
		return "", err
	}
	it.Title, _ = red.Redact(it.Title)
	it.Body, _ = red.Redact(it.Body)
	if err := it.Validate(); err != nil {
		return "", err
	}
	data, err := it.Marshal()
	if err != nil {
		return "", fmt.Errorf("item %s: %w", it.ID, err)
	}
	p := at
	if p == "" {
		p = it.Path()
	}
	tx.Put(p, data)
	return p, nil
}
