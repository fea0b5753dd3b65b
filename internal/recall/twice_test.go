package recall

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/model"
)

// A sentence filed as two core items of two kinds (a decision and a fact
// of one title) is shown once, as the more important of the two.
func TestCoreTitleOnce(t *testing.T) {
	const title = "Separately, the controller_manager loop runs at update_rate 100, i.e. 10 ms"
	m, _ := newTestMemory(t)
	writeSessions(t, m, map[string]string{}, []testSession{
		{"0ld00000-0001", "01", "", "**Request**\n- Why does the arm stutter?\n\n**Outcome**\n- The EtherCAT bus cycles at 1 ms.\n"},
	})
	for _, k := range []model.Kind{model.Decision, model.Fact} {
		it := model.NewItem(k, title, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
		it.Importance = 0.5
		if k == model.Fact {
			it.Importance = 0.6
		}
		if _, err := m.Remember(context.Background(), it); err != nil {
			t.Fatal(err)
		}
	}
	pack := packText(t, m)
	if n := strings.Count(pack, title); n != 1 {
		t.Errorf("the title is shown %d times, want once:\n%s", n, pack)
	}
	if !strings.Contains(pack, title+"** (fact,") {
		t.Errorf("the pack does not show the more important item, the fact:\n%s", pack)
	}
}
