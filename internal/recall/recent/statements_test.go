package recent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/memory/memorytest"
	"github.com/cairn-mem/cairn/internal/model"
)

// Statements offers a model what the memory holds as current: core titles
// in the order a pack shows them (pinned, important, newest) up to a
// quarter of the bound, the sessions' statements newest first (not their
// files or commands, not what a newer one quoted as no longer true, not
// the session being summarised), then the other core titles, each once,
// within the bound.
func TestStatements(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	at := time.Now().Add(-time.Hour)
	for i, s := range []struct{ id, summary string }{
		{"s-old", "## Segment 1\n\n**Request**\n- Set up the deploys.\n\n**Environment**\n- Deploys go out every Monday.\n- The API listens on 8080.\n\n**Commands** (1)\n- `make deploy`\n\n**Open**\n- Ask Priya about the refund SLA.\n"},
		{"s-new", "## Segment 1\n\n**Request**\n- Move the deploy day.\n\n**Decisions**\n- Deploys go out on Fridays — Mondays collide with planning.\n\n**No longer true**\n- Deploys go out every Monday.\n\n**Files changed** (1)\n- deploy.yml\n"},
		{"s-now", "## Segment 1\n\n**Decisions**\n- The API listens on 9090.\n"},
	} {
		dir := filepath.Join(m.Dir, "sessions", s.id)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "summary.md"), []byte("# Summary of session "+s.id+"\n\n"+s.summary), 0o600); err != nil {
			t.Fatal(err)
		}
		when := at.Add(time.Duration(i) * time.Minute)
		os.Chtimes(dir, when, when)
	}
	for i, c := range []struct {
		title  string
		pinned bool
		imp    float64
	}{
		{"Releases are signed with the team key", true, 0.5},
		{"Invoices are kept for ten years", false, 0.9},
		{"The API listens on 8080", false, 0.5},
		{"Tests run with make test", false, 0.5},
	} {
		it := model.NewItem(model.Fact, c.title, at.Add(time.Duration(i)*time.Second))
		it.Pinned, it.Importance = c.pinned, c.imp
		if _, err := m.Remember(ctx, it); err != nil {
			t.Fatal(err)
		}
	}
	got := Statements(ctx, m, "sessions/s-now", 10, 6000)
	want := []string{
		"Releases are signed with the team key", "Invoices are kept for ten years",
		"Tests run with make test", "The API listens on 8080",
		"Deploys go out on Fridays — Mondays collide with planning.",
		"Move the deploy day.", "Set up the deploys.", "Ask Priya about the refund SLA.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Statements:\n got %q\nwant %q", got, want)
	}
	// Past a quarter of the bound, core titles wait for the sessions'
	// statements.
	if got, want := Statements(ctx, m, "sessions/s-now", 10, 160), []string{want[0], want[4], want[5], "The API listens on 8080."}; !slices.Equal(got, want) {
		t.Errorf("within 160 bytes:\n got %q\nwant %q", got, want)
	}
}

// A core item a newer one superseded is no statement the memory holds as
// current: a pack never shows it, and a model is not offered it.
func TestStatementsSuperseded(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	old := model.NewItem(model.Fact, "The API listens on port 8080", time.Now().Add(-time.Hour))
	if _, err := m.Remember(ctx, old); err != nil {
		t.Fatal(err)
	}
	newer := model.NewItem(model.Fact, "The API listens on port 9090", time.Now())
	data, err := newer.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(m.Dir, newer.Path()), model.WithKeys(data, model.KeySupersedes, old.ID), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := Statements(ctx, m, "", 10, 6000); !slices.Equal(got, []string{"The API listens on port 9090"}) {
		t.Errorf("Statements = %q", got)
	}
}
