package recall

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/recall/recent"
	"github.com/cairn-mem/cairn/internal/recall/still"
)

// TestRejectionKeepsReasons: what was turned down, and why, stays whole
// when a newer session changes a value its reason names; a rule said as
// a rejection goes once the user allows what it forbade.
func TestRejectionKeepsReasons(t *testing.T) {
	m, _ := newTestMemory(t)
	warmer := `A scheduled "warmer" (an EventBridge rule pinging the function every 5 minutes) doesn't fit: it keeps one environment warm, and the 06:00 burst needs a dozen at once.`
	rule := "I won't add any frontend packages without checking with you."
	newest := sess("b2", map[int][]string{
		digest.Outcome: {"Instead a scalable target carries two scheduled actions: 10 provisioned environments from 05:30, back to zero at 09:30.",
			"Feel free to add frontend packages whenever you need them."},
	})
	older := sess("a1", map[int][]string{digest.Rejected: {warmer, rule}})
	_, _, r := retirerFor(m, []*recent.Session{newest, older})
	if got := still.Says(r, digest.Rejected, 1, warmer, nil, false); got != warmer {
		t.Errorf("rejection left as %q", got)
	}
	if got := still.Says(r, digest.Rejected, 1, rule, nil, false); got != "" {
		t.Errorf("a rule the user took back left as %q", got)
	}
}
