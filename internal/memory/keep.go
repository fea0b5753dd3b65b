package memory

import (
	"context"
	"time"

	"github.com/cairn-mem/cairn/gitstore/gitgc"
	"github.com/cairn-mem/cairn/internal/memory/journal"
	"github.com/cairn-mem/cairn/internal/memory/purgelist"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// PurgedFile lists, one repository path a line, what cairn purge stopped
// carrying forward. It is committed and synced like cairn.yaml, so every
// clone carries it; no write of the memory (capture, remember, a merge's
// incoming files, a checkpoint of the work tree) adds a path it names.
const PurgedFile = "purged.txt"

// Purged returns the paths PurgedFile lists.
func (m *Memory) Purged() []string { return readPurged(m.Dir) }

func readPurged(dir string) []string {
	data, err := safefile.ReadInRoot(dir, PurgedFile)
	if err != nil {
		return nil
	}
	return purgelist.Parse(data)
}

// purgedIgnore makes the purged paths of the memory in dir owned paths
// that the store ignores, so that a checkpoint of the work tree does not
// add one back.
func purgedIgnore(dir string) (owned, ignore []string) {
	for _, p := range readPurged(dir) {
		owned = append(owned, p)
		ignore = append(ignore, "/"+p, "/"+p+"/**")
	}
	return owned, ignore
}

// dropPurged takes the writes to purged paths out of a batch, quietly:
// capture of a session whose transcript was purged goes on, and would
// otherwise warn at every batch.
func (m *Memory) dropPurged(b *Writes) {
	list := m.Purged()
	if len(list) == 0 {
		return
	}
	b.DropIf(func(w journal.FileWrite) bool { return !w.Remove && purgelist.Has(list, w.Path) })
}

// GCResult is what a repack did and freed (gitgc.Result).
type GCResult = gitgc.Result

// Repack packs the memory's repository under the write lock: every
// reachable object into one pack, loose objects and old packs removed,
// unreachable ones only once older than grace (0: gitgc.DefaultGrace).
func (g Git) Repack(ctx context.Context, grace time.Duration) (*GCResult, error) {
	m := g.m
	unlock, err := m.LockSettled(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return gitgc.Repack(ctx, m.store, gitgc.Options{Grace: grace, Now: m.now})
}
