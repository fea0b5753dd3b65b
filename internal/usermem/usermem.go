package usermem

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/config"
	"github.com/cairn-mem/cairn/internal/memory"
)

// ErrNotMemory is the error for a user folder that holds something other
// than a cairn memory: cairn writes nothing there.
var ErrNotMemory = errors.New("is not a cairn memory; set CAIRN_USER_DIR to another folder, or move it away")

// Dir returns the user memory's folder from the environment:
// CAIRN_USER_DIR, else $XDG_DATA_HOME/cairn, else ~/.local/share/cairn;
// "" when none of these can be told (no HOME).
func Dir(getenv func(string) string) string {
	if d := getenv("CAIRN_USER_DIR"); d != "" {
		return absDir(d)
	}
	if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "cairn")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".local", "share", "cairn")
	}
	return ""
}

func absDir(d string) string {
	if a, err := filepath.Abs(d); err == nil {
		return a
	}
	return filepath.Clean(d)
}

// state tells what is at dir: nothing yet (absent, or an empty folder),
// a cairn memory, or something else (ErrNotMemory).
func state(dir string) (exists bool, err error) {
	fi, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("user memory %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return false, fmt.Errorf("user memory %s %w", dir, ErrNotMemory)
	}
	if isMemory(dir) {
		return true, nil
	}
	names, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("user memory %s: %w", dir, err)
	}
	if len(names) == 0 {
		return false, nil
	}
	return false, fmt.Errorf("user memory %s %w", dir, ErrNotMemory)
}

// isMemory reports whether dir is a cairn memory: a git repository
// (a .git folder) with cairn's cairn.yaml.
func isMemory(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, ".git"))
	if err != nil || !fi.IsDir() {
		return false
	}
	_, err = os.Stat(filepath.Join(dir, config.File))
	return err == nil
}

// Open opens the user memory at dir, creating it (memory.InitDir) when
// create is set and there is none yet. Without create and without a
// memory it returns memory.ErrNoMemory. A folder holding anything else
// is ErrNotMemory, and nothing is written to it.
func Open(ctx context.Context, dir string, opts memory.Options, create bool) (*memory.Memory, error) {
	if dir == "" {
		return nil, errors.New("no user memory folder: set CAIRN_USER_DIR or HOME")
	}
	exists, err := state(dir)
	if err != nil {
		return nil, err
	}
	opts.UserDir = "" // the user memory has no user memory under it
	if exists {
		return memory.Open(ctx, dir, opts)
	}
	if !create {
		return nil, fmt.Errorf("user memory %s: %w (cairn remember --user makes one)", dir, memory.ErrNoMemory)
	}
	m, _, err := memory.InitDir(ctx, dir, opts)
	return m, err
}
