package handoff

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fsnotify/fsnotify"
)

// prefix names a request file: release-<pid>.
const prefix = "release-"

// Ask asks whoever holds dir's resource to let it go, and returns the
// function that withdraws the request. A request that cannot be written
// is none: the asker waits as it would have.
func Ask(dir string) (withdraw func()) {
	name := filepath.Join(dir, fmt.Sprintf("%s%d", prefix, os.Getpid()))
	if err := os.WriteFile(name, nil, 0o600); err != nil {
		return func() {}
	}
	return func() { os.Remove(name) }
}

// Watch calls letGo whenever another process asks for dir's resource,
// until ctx is done.
func Watch(ctx context.Context, dir string, letGo func()) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if ev.Has(fsnotify.Create) && strings.HasPrefix(filepath.Base(ev.Name), prefix) {
				letGo()
			}
		case _, ok := <-w.Errors:
			if !ok {
				return nil
			}
		}
	}
}
