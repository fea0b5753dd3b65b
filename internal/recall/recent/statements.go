package recent

import (
	"context"
	"github.com/cairn-mem/cairn/internal/quote"
	"sort"

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
// made untrue (summarize.Request.Earlier): the bullets of the n latest
// sessions with substance and what each left open, the newest session
// first, then the titles of core facts, decisions and preferences, the
// latest first; each once, none a newer session already quoted as no
// longer true, within max bytes. Texts are as the pack reads them, so
// that a quote of one names the statement it quotes (quote.Key).
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
	rows, err := m.Catalog(ctx, string(model.LayerCore))
	if err != nil {
		// The sessions' statements are most of what a change makes
		// stale; a model is asked about those, and the pack warns of a
		// catalogue it cannot read.
		return out
	}
	core := make([]int, 0, len(rows))
	for i, r := range rows {
		switch model.Kind(r.Kind) {
		case model.Fact, model.Decision, model.Preference:
			if r.Title != "" {
				core = append(core, i)
			}
		}
	}
	sort.SliceStable(core, func(a, b int) bool { return rows[core[a]].Updated.After(rows[core[b]].Updated) })
	for _, i := range core {
		if !add(rows[i].Title) {
			break
		}
	}
	return out
}
