package backlog

import "github.com/cairn-mem/cairn/internal/summarize"

// Turn is a turn captured but not yet summarised, kept in
// .state/capture/sessions/<id>.pending.jsonl until its segment is
// (memory.Sessions.LoadPending, SavePending).
type Turn struct {
	Key    string         `json:"key"`
	Tokens int            `json:"tokens"`
	Turn   summarize.Turn `json:"turn"`
	// Context marks the agent's last message of what was summarised
	// already, kept at the head of the list: the prompt that comes next
	// may answer it ("go with the table").
	Context bool `json:"context,omitempty"`
}

// DropThrough removes the turns up to and including the one keyed key,
// keeping the last agent message among them as the context turn.
func DropThrough(list []Turn, key string) []Turn {
	if key == "" {
		return list
	}
	for i := range list {
		if list[i].Key == key {
			rest := list[i+1:]
			for j := i; j >= 0; j-- {
				if t := list[j]; t.Turn.Says() {
					t.Context, t.Tokens = true, 0
					return append([]Turn{t}, rest...)
				}
			}
			return rest
		}
	}
	return list
}

// SplitContext returns the text of the context turn at the head of list,
// if any, and the turns after it.
func SplitContext(list []Turn) (before string, rest []Turn) {
	if len(list) > 0 && list[0].Context {
		return list[0].Turn.Text, list[1:]
	}
	return "", list
}

// Merge adds new turns to old ones, skipping those already there.
func Merge(old, add []Turn) []Turn {
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
