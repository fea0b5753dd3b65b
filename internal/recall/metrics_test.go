package recall

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/metrics"
	"github.com/cairn-mem/cairn/internal/model"
)

// A search and a session start's pack leave one event each in the
// metrics log, with their numbers and none of the memory's words.
func TestMetricsRecorded(t *testing.T) {
	ctx := context.Background()
	m, _ := newTestMemory(t)
	remember(t, m, model.Decision, "Zanzibarquokka ships on Fridays", "Releases of zanzibarquokka go out on Friday mornings.")
	x := mustOpenIndex(t, m)
	res, err := x.Search(ctx, "zanzibarquokka releases", SearchOptions{})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("search: %v, %v", res, err)
	}
	if _, err := StartPack(ctx, m, nil, StartOptions{Source: "startup"}); err != nil {
		t.Fatal(err)
	}
	evs, err := metrics.Read(ctx, m.StatePath(""), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var search, pack int
	for _, e := range evs {
		switch e.Kind {
		case metrics.KindSearch:
			search++
			if e.Hits != len(res.Hits) || e.Mode == "" {
				t.Errorf("search event %+v", e)
			}
		case metrics.KindPack:
			pack++
			if e.Name != "session-start" || e.Items == 0 || e.Tokens == 0 || e.Budget != DefaultContextBudget {
				t.Errorf("pack event %+v", e)
			}
		}
	}
	if search != 1 || pack != 1 {
		t.Fatalf("%d search and %d pack events, want 1 each: %+v", search, pack, evs)
	}
	if ev := PromptMetric("Memories ...:\n\n- A (fact, a1): x\n\n- B (fact, b2): y\n", time.Millisecond); ev.Items != 2 || ev.Name != "prompt" || ev.Tokens == 0 {
		t.Errorf("prompt metric %+v", ev)
	}
	for _, e := range evs {
		if strings.Contains(strings.ToLower(e.Name+e.Mode+e.Provider+e.Model), "zanzibar") {
			t.Errorf("memory text in %+v", e)
		}
	}
}
