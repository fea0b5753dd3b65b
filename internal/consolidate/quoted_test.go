package consolidate

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/memory"
	"github.com/cairn-mem/cairn/internal/memory/memorytest"
	"github.com/cairn-mem/cairn/internal/model"
)

// A quoted statement retires the core fact, decision or preference it
// titles, or whose title is its first five words or more; not a pinned
// one, not one of another kind, not one this batch wrote.
func TestRetireQuoted(t *testing.T) {
	ctx := context.Background()
	m := memorytest.New(t)
	paths := map[string]string{}
	for _, c := range []struct {
		kind   model.Kind
		title  string
		pinned bool
	}{
		{model.Fact, "Deploys go out every Monday", false},
		{model.Decision, "The test slept a fixed 10ms and raced with the worker goroutine", false},
		{model.Preference, "Ask before adding a dependency", true},
		{model.Pattern, "Tests run with make test", false},
		{model.Fact, "The API listens on 8080", false},
		{model.Fact, "The API listens", false}, // four words: no beginning of a quote
	} {
		it := model.NewItem(c.kind, c.title, time.Now())
		it.Pinned = c.pinned
		if _, err := m.Remember(ctx, it); err != nil {
			t.Fatal(err)
		}
		e, err := m.Get(ctx, it.ID)
		if err != nil {
			t.Fatal(err)
		}
		paths[c.title] = e.Path
	}
	var b memory.Writes
	b.Put(paths["The API listens on 8080"], []byte("written by this batch"))
	changes, err := RetireQuoted(ctx, m, []string{
		"Deploys go out every Monday.",
		"The test slept a fixed 10ms and raced with the worker goroutine; it now waits on `q.Done()` with a 5s timeout.",
		"Ask before adding a dependency.",
		"Tests run with make test.",
		"The API listens on 8080.",
	}, &b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, c.Title)
		if c.Action != "retired" {
			t.Errorf("%q: %s", c.Title, c.Action)
		}
	}
	want := []string{"Deploys go out every Monday", "The test slept a fixed 10ms and raced with the worker goroutine"}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("retired %q, want %q", got, want)
	}
	removed := 0
	for _, w := range b.Changes() {
		if w.Remove {
			removed++
		}
	}
	if removed != 2 {
		t.Errorf("%d removals in the batch", removed)
	}
}
