package recall

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"

	"github.com/cairn-mem/cairn/internal/memory"
)

// Bleve lets one process at a time have an index open, and a process that
// serves agents (cairn mcp) keeps it open between calls. A reader that
// finds it held asks the holder to let go by dropping a file named
// release-<pid> into the index folder; a holder that is not searching at
// that moment closes it at once, so readers never wait behind an idle
// reader.
const releasePrefix = "release-"

// askRelease asks whoever holds m's index to let it go, and returns the
// function that withdraws the request.
func askRelease(m *memory.Memory) func() {
	name := filepath.Join(m.StatePath(indexDir), fmt.Sprintf("%s%d", releasePrefix, os.Getpid()))
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		return func() {}
	}
	return func() { os.Remove(name) }
}

// OnRelease calls letGo whenever another process asks for m's index (see
// askRelease), until ctx is done. A process that holds the index between
// uses runs it while it holds it; letGo closes the index unless a search
// is using it.
func OnRelease(ctx context.Context, m *memory.Memory, letGo func()) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch %s: %w", m.StatePath(indexDir), err)
	}
	defer w.Close()
	if err := w.Add(m.StatePath(indexDir)); err != nil {
		return fmt.Errorf("watch %s: %w", m.StatePath(indexDir), err)
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ev.Has(fsnotify.Create) && strings.HasPrefix(filepath.Base(ev.Name), releasePrefix) {
				letGo()
			}
		case _, ok := <-w.Errors:
			if !ok {
				return nil
			}
		}
	}
}
