package server

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
)

// SearchFlags are a search's options as cairn search's flags give them:
// a list flag takes "a,b" as well as being repeated, and times are what
// model.ParseSince reads.
type SearchFlags struct {
	K                   int
	Mode                string
	Kinds, Layers, Tags []string
	Session             string
	Since, Until        string
	All                 bool
}

// Options checks f and turns it into the search's options (the error
// is the caller's mistake).
func (f SearchFlags) Options(now time.Time) (recall.SearchOptions, error) {
	so := recall.SearchOptions{
		Mode: indexer.Mode(f.Mode), K: f.K, Kinds: splitList(f.Kinds), Layers: splitList(f.Layers),
		Session: f.Session, Tags: splitList(f.Tags), All: f.All,
	}
	if f.K < 1 || f.K > MaxK {
		return so, fmt.Errorf("-k %d: want a number from 1 to %d", f.K, MaxK)
	}
	var err error
	if f.Since != "" {
		if so.Since, err = model.ParseSince(f.Since, now); err != nil {
			return so, fmt.Errorf("--since: %v", err)
		}
	}
	if f.Until != "" {
		if so.Until, err = model.ParseSince(f.Until, now); err != nil {
			return so, fmt.Errorf("--until: %v", err)
		}
	}
	return so, recall.CheckSearchOptions(so)
}

// splitList accepts "a,b" as well as a repeated flag.
func splitList(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}
