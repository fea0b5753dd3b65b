package memory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-mem/cairn/internal/safefile"
	"github.com/cairn-mem/cairn/internal/summarize"
)

// PendingTurn is a turn captured but not yet summarised, kept in
// .state/capture/sessions/<id>.pending.jsonl until its segment is.
type PendingTurn struct {
	Key    string         `json:"key"`
	Tokens int            `json:"tokens"`
	Turn   summarize.Turn `json:"turn"`
	// Context marks the agent's last message of what was summarised
	// already, kept at the head of the list: the prompt that comes next
	// may answer it ("go with the table").
	Context bool `json:"context,omitempty"`
}

func (s Sessions) PendingPath(id string) string {
	m := s.m
	return m.store.StatePath(filepath.Join("capture", "sessions", id+".pending.jsonl"))
}

// LoadPending reads a session's pending turns, without those up to and
// including the one keyed through (summarised already).
func (s Sessions) LoadPending(id, through string) ([]PendingTurn, error) {
	m := s.m
	f, err := os.Open(m.Sessions().PendingPath(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pending turns of session %s: %w", id, err)
	}
	defer f.Close()
	var out []PendingTurn
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var t PendingTurn
		if json.Unmarshal(sc.Bytes(), &t) == nil && t.Key != "" {
			out = append(out, t)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("pending turns of session %s: %w", id, err)
	}
	return DropThrough(out, through), nil
}

func (s Sessions) SavePending(id string, list []PendingTurn) error {
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

// DropThrough removes the turns up to and including the one keyed key,
// keeping the last agent message among them as the context turn.
func DropThrough(list []PendingTurn, key string) []PendingTurn {
	if key == "" {
		return list
	}
	for i := range list {
		if list[i].Key == key {
			rest := list[i+1:]
			for j := i; j >= 0; j-- {
				if t := list[j]; t.Turn.Says() {
					t.Context, t.Tokens = true, 0
					return append([]PendingTurn{t}, rest...)
				}
			}
			return rest
		}
	}
	return list
}

// SplitContext returns the text of the context turn at the head of list,
// if any, and the turns after it.
func SplitContext(list []PendingTurn) (before string, rest []PendingTurn) {
	if len(list) > 0 && list[0].Context {
		return list[0].Turn.Text, list[1:]
	}
	return "", list
}

// MergePending adds new turns to old ones, skipping those already there.
func MergePending(old, add []PendingTurn) []PendingTurn {
	if len(add) == 0 {
		return old
	}
	seen := make(map[string]bool, len(old))
	for _, t := range old {
		seen[t.Key] = true
	}
	out := old
	for _, t := range add {
		if !seen[t.Key] {
			seen[t.Key] = true
			out = append(out, t)
		}
	}
	return out
}
