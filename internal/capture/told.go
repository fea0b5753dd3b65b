package capture

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/cairn-mem/cairn/internal/summarize/echo"
)

// maxTold bounds what is kept of the packs a session was given: a pack
// is about 8 KB, and a session resumed a few times keeps its newest.
const maxTold = 32 << 10

// toldPath is where the packs a session was given at its starts wait
// for its summaries: .state/capture/sessions/<id>.told.md, next to its
// pending turns, until the session ends.
func toldPath(m *memory.Memory, id string) string {
	return filepath.Join(filepath.Dir(m.Sessions().PendingPath(id)), id+".told.md")
}

// Tell records that the agent session id was given text at its start
// (the context pack), so that its summaries do not take the agent's
// recap of it for news (package echo).
func Tell(m *memory.Memory, id, text string) error {
	if err := memory.CheckSessionID(id); err != nil {
		return err
	}
	name := toldPath(m, id)
	old, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("record the context of session %s: %w", id, err)
	}
	b := append(old, text...)
	b = append(b, '\n')
	if len(b) > maxTold {
		b = b[len(b)-maxTold:]
	}
	// Not synced: the session-start hook writes it within its deadline,
	// and a record a crash lost or damaged only matches less of a recap.
	if err := safefile.WriteSync(name, b, 0o600, safefile.SyncNone); err != nil {
		return fmt.Errorf("record the context of session %s: %w", id, err)
	}
	return nil
}

// told reads what session id was given at its starts, nil for nothing
// or an unreadable record (its summaries are then made as before).
func told(m *memory.Memory, id string) *echo.Told {
	b, err := os.ReadFile(toldPath(m, id))
	if err != nil {
		return nil
	}
	return echo.Read(string(b))
}
