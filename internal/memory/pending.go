package memory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/memory/backlog"
	"github.com/cairn-mem/cairn/internal/safefile"
)

func (s Sessions) PendingPath(id string) string {
	m := s.m
	return m.store.StatePath(filepath.Join("capture", "sessions", id+".pending.jsonl"))
}

// LoadPending reads a session's pending turns, without those up to and
// including the one keyed through (summarised already).
func (s Sessions) LoadPending(id, through string) ([]backlog.Turn, error) {
	m := s.m
	f, err := os.Open(m.Sessions().PendingPath(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pending turns of session %s: %w", id, err)
	}
	defer f.Close()
	var out []backlog.Turn
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var t backlog.Turn
		if json.Unmarshal(sc.Bytes(), &t) == nil && t.Key != "" {
			out = append(out, t)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("pending turns of session %s: %w", id, err)
	}
	return backlog.DropThrough(out, through), nil
}

func (s Sessions) SavePending(id string, list []backlog.Turn) error {
	m := s.m
	name := m.Sessions().PendingPath(id)
	if len(list) == 0 {
		if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, t := range list {
		if err := enc.Encode(t); err != nil {
			return err
		}
	}
	return safefile.Write(name, b.Bytes(), 0o600)
}
