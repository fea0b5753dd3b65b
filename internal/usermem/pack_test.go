package usermem_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/model"
	"github.com/cairn-mem/cairn/internal/recall"
	"github.com/cairn-mem/cairn/internal/usermem"
)

// TestPackLayersUserMemory: the user memory's preferences and patterns
// are packed under the project's items, in the same budget, and leave
// the pack where a project item says the same (same title) or is about
// the same (same topic).
func TestPackLayersUserMemory(t *testing.T) {
	ctx := context.Background()
	proj, user := memories(t)
	projTitles := map[string]bool{}
	for _, it := range []struct {
		kind        model.Kind
		title, body string
	}{
		{model.Decision, "Use PostgreSQL for the job queue", "Enqueueing commits with the data it refers to."},
		{model.Fact, "The API listens on port 8081", "Moved from 8080 for the metrics exporter."},
		{model.Preference, "Never force-push", "Not even to your own branch here: CI caches by commit."},
		{model.Preference, "Commit messages imperative, with the issue number", "\"Fix retry cap (#12)\"."},
		{model.Pattern, "Handlers take a context first", "Every store method honours ctx's deadline."},
		{model.Fact, "Run the tests with make test", "It starts the test database first."},
	} {
		remember(t, proj, it.kind, it.title, it.body)
		projTitles[it.title] = true
	}
	userTitles := map[string]bool{}
	conflicts := map[string]bool{
		"never force-push.":                    true, // the same title but for case and punctuation
		"Commit messages imperative and short": true, // the same topic: "commit messages imperative"
	}
	for title := range conflicts {
		remember(t, user, model.Preference, title, "The user's own habit.")
	}
	remember(t, user, model.Decision, "Tabs, not spaces, everywhere", "A decision is no preference: never layered.")
	for i := range 30 {
		title := fmt.Sprintf("Habit %02d: keep functions short and named for what they do", i)
		kind := model.Preference
		if i%3 == 0 {
			kind = model.Pattern
		}
		remember(t, user, kind, title, "The user has asked for this in every project for years, and says so again when it is forgotten.")
		userTitles[title] = true
	}

	for _, budget := range []int{3000, 600, 250, 120} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			p, err := recall.Context(ctx, proj, recall.ContextOptions{Budget: budget})
			if err != nil {
				t.Fatal(err)
			}
			if p.UsedTokens > budget || indexer.EstimateTokens(p.Text) > budget {
				t.Fatalf("pack of %d tokens (%d estimated) over the budget of %d:\n%s", p.UsedTokens, indexer.EstimateTokens(p.Text), budget, p.Text)
			}
			for title := range conflicts {
				if strings.Contains(p.Text, title) {
					t.Errorf("the user item %q that a project item contradicts is in the pack:\n%s", title, p.Text)
				}
			}
			if strings.Contains(p.Text, "Tabs, not spaces") {
				t.Errorf("a user decision is in the pack")
			}
			var projShown, userShown int
			for title := range projTitles {
				if strings.Contains(p.Text, title) {
					projShown++
				}
			}
			for title := range userTitles {
				if strings.Contains(p.Text, title) {
					userShown++
				}
			}
			if userShown > 0 && projShown < len(projTitles) {
				t.Errorf("%d user items shown with %d of %d project items:\n%s", userShown, projShown, len(projTitles), p.Text)
			}
			if userShown > 0 && strings.Index(p.Text, "## You, all projects") < strings.Index(p.Text, "## Core memory") {
				t.Errorf("the user section is not under the project's:\n%s", p.Text)
			}
			switch budget {
			case 3000:
				if projShown != len(projTitles) || userShown != len(userTitles) {
					t.Errorf("a roomy pack shows %d of %d project and %d of %d user items:\n%s", projShown, len(projTitles), userShown, len(userTitles), p.Text)
				}
				if !strings.Contains(p.Text, "says so again when it is forgotten") {
					t.Errorf("a roomy pack shows no user item's body:\n%s", p.Text)
				}
			case 600:
				if projShown != len(projTitles) || userShown == 0 || userShown == len(userTitles) {
					t.Errorf("a 600-token pack shows %d of %d project and %d of %d user items; want every project item and some user items:\n%s",
						projShown, len(projTitles), userShown, len(userTitles), p.Text)
				}
			}
			t.Logf("budget %d: %d tokens, %d project and %d user items, %d left out", budget, p.UsedTokens, projShown, userShown, len(p.LeftOut))
		})
	}
}

// BenchmarkLayer is what the user memory adds to every pack: opening it
// and reading its preferences and patterns, 200 of them, against a
// project of 100 titles.
func BenchmarkLayer(b *testing.B) {
	ctx := context.Background()
	_, user := memories(b)
	for i := range 200 {
		it := model.NewItem(model.Preference, fmt.Sprintf("Habit %03d: keep functions short", i), user.Now())
		it.Body = "The user has asked for this in every project."
		data, err := it.Marshal()
		if err != nil {
			b.Fatal(err)
		}
		name := filepath.Join(user.Dir, filepath.FromSlash(it.Path()))
		os.MkdirAll(filepath.Dir(name), 0o755)
		if err := os.WriteFile(name, data, 0o644); err != nil {
			b.Fatal(err)
		}
		// Written an hour ago, as a user memory's files are: files as new
		// as the catalogue are read again each time (racily clean).
		old := time.Now().Add(-time.Hour)
		os.Chtimes(name, old, old)
	}
	if _, err := user.Checkpoint(ctx, memory.CheckpointOptions{Message: "200 habits"}); err != nil {
		b.Fatal(err)
	}
	titles := make([]string, 100)
	for i := range titles {
		titles[i] = fmt.Sprintf("Project fact %d about the job queue", i)
	}
	b.ResetTimer()
	for b.Loop() {
		items, warns := usermem.Layer(ctx, user.Dir, titles)
		if len(items) != 200 || len(warns) != 0 {
			b.Fatalf("Layer = %d items, %q", len(items), warns)
		}
	}
}
