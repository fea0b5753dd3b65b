package capture

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/recall"
)

// The live session's turns that no summary covers yet are the pack's
// active layer: shown newest last, the oldest left out first when room
// is short, gone once a summary covers them.
func TestContextRecentTurns(t *testing.T) {
	m := testMemory(t)
	ctx := context.Background()
	id := basicID
	tp := followedTranscript(t, m, basicFixture(t))
	if r, err := CatchUpTranscript(ctx, m, tp, false); err != nil || r.Segments != 0 {
		t.Fatalf("busy catch-up: %+v, %v", r, err)
	}

	p, err := recall.Context(ctx, m, recall.ContextOptions{Session: id})
	if err != nil {
		t.Fatal(err)
	}
	const turn = "- user: Thanks. Commit it"
	if !strings.Contains(p.Text, turn) {
		t.Fatalf("pack without the session's latest turns:\n%s", p.Text)
	}
	all := p.Text

	small, err := recall.Context(ctx, m, recall.ContextOptions{Session: id, Budget: 120})
	if err != nil {
		t.Fatal(err)
	}
	if small.UsedTokens > 120 {
		t.Errorf("used %d tokens of 120", small.UsedTokens)
	}
	i := strings.LastIndex(all, "\n- ")
	last := all[i+1 : i+1+strings.IndexByte(all[i+1:], '\n')]
	if !strings.Contains(small.Text, last) {
		t.Errorf("a short pack should keep the newest turn %q:\n%s", last, small.Text)
	}

	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(tp, old, old); err != nil {
		t.Fatal(err)
	}
	if n, err := CatchUpEnded(ctx, m, "next-session"); err != nil || n != 1 {
		t.Fatalf("the session's end: %d, %v", n, err)
	}
	p, err = recall.Context(ctx, m, recall.ContextOptions{Session: id})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Text, turn) {
		t.Errorf("turns a summary covers are still shown as latest:\n%s", p.Text)
	}
}
