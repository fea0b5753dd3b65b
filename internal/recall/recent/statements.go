package recent

import (
	"context"
	"github.com/cairn-mem/cairn/internal/quote"
	"github.com/cairn-mem/cairn/internal/recall/corecache"
	"slices"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
)

// statementParts are the parts of a session's summary whose bullets say
// what holds, and so may stop holding; in the order they are offered.
// Its files, commands and errors are what happened.
var statementParts = []int{digest.Decisions, digest.Environment, digest.Preferences, digest.Root,
	digest.Rejected, digest.Outcome, digest.Notes, digest.Details, digest.Request}

// Statements returns what the memory holds as current from before the
// session in folder skip, for a model to say which of them that session
// made untrue (summarize.Request.Earlier): the titles of core facts,
// decisions and preferences in the order a pack shows them (pinned, then
// by importance, then the latest), up to a quarter of limit; the bullets
// of the n latest sessions with substance and what each left open, the
// newest session first, none a newer session already quoted as no longer
// true; then the other core titles. Each once, within limit bytes.
// Texts are as the pack reads them, so that a quote of one names the
// statement it quotes (quote.Key).
func Statements(ctx context.Context, m *memory.Memory, skip string, n, limit int) []string {
	var out []string
	seen := make(map[string]bool)
	size := 0
	// One statement too long for what is left does not end the list:
	// shorter ones after it may fit.
	add := func(s string) bool {
		k := quote.Key(s)
		if k == "" || seen[k] || size+len(s) > limit {
			return size < limit
		}
		seen[k] = true
		size += len(s) + 1
		out = append(out, s)
		return size < limit
	}
	// A pack of a few thousand tokens shows a few dozen core items
	// first, whatever their age: those are the ones a model must see
	// first in a large core (thousands of items), not the newest.
	titles := coreTitles(ctx, m)
	shown := 0
	for ; shown < len(titles) && size+len(titles[shown]) <= limit/4; shown++ {
		add(titles[shown])
	}
	sessions := Latest(m, skip, n)
	quoted := digest.Untrue(Digests(sessions))
	// taken back by the i-th session's own quotes or a newer one's
	takenBack := func(s string, i int) bool {
		at, ok := quoted.At(s)
		return ok && at <= i
	}
	for i, s := range sessions {
		for _, p := range statementParts {
			for _, b := range s.Digest.Parts[p] {
				if takenBack(b, i) {
					continue
				}
				if !add(b) {
					return out
				}
			}
		}
		for _, o := range s.Digest.Open {
			if !takenBack(o, i) && !add(o) {
				return out
			}
		}
	}
	for _, t := range titles[shown:] {
		if !add(t) {
			break
		}
	}
	return out
}

// coreTitles are the titles of the current core facts, decisions and
// preferences (none a newer item superseded) in the order a pack without
// a query shows them (corecache.Before). None when the catalogue cannot
// be read: the sessions' statements are most of what a change makes
// stale, and the pack warns of a catalogue it cannot read.
func coreTitles(ctx context.Context, m *memory.Memory) []string {
	items, err := corecache.Candidates(ctx, m)
	if err != nil {
		return nil
	}
	items, _ = corecache.Current(items)
	items = slices.DeleteFunc(items, func(c corecache.Item) bool {
		switch model.Kind(c.Kind) {
		case model.Fact, model.Decision, model.Preference:
			return c.Title == ""
		}
		return true
	})
	slices.SortStableFunc(items, func(a, b corecache.Item) int {
		switch {
		case corecache.Before(&a, &b, nil):
			return -1
		case corecache.Before(&b, &a, nil):
			return 1
		}
		return 0
	})
	out := make([]string, len(items))
	for i, c := range items {
		out[i] = c.Title
	}
	return out
}
