package refs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/safefile"
)

// File holds the counts, under the memory's state.
const File = "references.json"

type counts struct {
	Counts map[string]int `json:"counts"`
}

// Load reads the reference counts; a missing or damaged file counts
// nothing.
func Load(m *memory.Memory) map[string]int {
	var rc counts
	b, err := os.ReadFile(m.StatePath(File))
	if err != nil || json.Unmarshal(b, &rc) != nil || rc.Counts == nil {
		return map[string]int{}
	}
	return rc.Counts
}

// Count adds one to the count of each id, under a lock so that parallel
// processes do not lose each other's counts.
func Count(ctx context.Context, m *memory.Memory, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	name := m.StatePath(File)
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		return err
	}
	unlock, err := safefile.Lock(ctx, name+".lock", time.Second)
	if err != nil {
		return fmt.Errorf("count references in %s: %w", name, err)
	}
	defer unlock()
	n := Load(m)
	for _, id := range ids {
		n[id]++
	}
	b, err := json.Marshal(counts{Counts: n})
	if err != nil {
		return err
	}
	// No fsync: counts are written on every context pack, where an fsync
	// costs more than the rest of the pack, and a crash can at worst lose
	// the last counts, which only nudge the ranking.
	return safefile.WriteSync(name, append(b, '\n'), 0o600, safefile.SyncNone)
}
