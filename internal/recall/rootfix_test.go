package recall

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/internal/model"
)

// A root cause whose cause a bullet shown says already shows what is
// left of it, how it was mended, without the label: "Root cause:
// `app_main.c` now drives GPIO10 low" names no cause.
func TestRootCauseMendedOnly(t *testing.T) {
	m, _ := newTestMemory(t)
	const (
		culprit = "The culprit was the amplifier: SD_MODE floated in deep sleep and R7 pulled it high, so the MAX98357A never shut down."
		mended  = "`app_main.c` now drives GPIO10 low and holds it through deep sleep."
	)
	writeSessions(t, m, map[string]string{}, []testSession{
		{"0ld00000-0001", "01", "", "**Request**\n- The board draws 2.6 mA in deep sleep; find out why.\n\n**Outcome**\n- " + culprit + "\n\n**Root causes**\n- " + culprit + " " + mended + "\n"},
	})
	checkShows(t, packText(t, m), []string{"Root cause: `app_main.c`"}, []string{"- " + mended, culprit})
}

// A core item that tells a problem a newer session dealt with is history, as
// a to-do done is (the session's bullet that told it goes too); one
// whose problem a newer session only talked about stays, as the item or
// as the bullet that says the same.
func TestCoreProblemFixed(t *testing.T) {
	const problem = "The `shots` table has no index on `account_id`, so `GET /v1/shots` scans the whole table for every call"
	for _, tc := range []struct {
		name, later string
		shown       bool
	}{
		{"dealt with", "**Request**\n- Before staging, the two leftovers: the index on `shots` and the limiter cleanup.\n\n**Outcome**\n- `migrations/0003_shots_account_idx.sql` creates `shots_account_created` on (`account_id`, created_at DESC); `GET /v1/shots` went from 2.3 s to 40 ms.\n\n**Files changed** (1)\n- migrations/0003_shots_account_idx.sql (created)\n", false},
		{"talked about", "**Request**\n- Add the upload limit.\n\n**Outcome**\n- Uploads over 10 MB get a 413.\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := newTestMemory(t)
			writeSessions(t, m, map[string]string{}, []testSession{
				{"0ld00000-0001", "01", "", "**Request**\n- Review the shots API.\n\n**Outcome**\n- " + problem + ".\n"},
				{"new00000-0002", "03", "", tc.later},
			})
			it := model.NewItem(model.Fact, problem, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
			it.Session = "0ld00000-0001"
			if _, err := m.Remember(context.Background(), it); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(packText(t, m), problem); got != tc.shown {
				t.Errorf("the core item shown: %v, want %v:\n%s", got, tc.shown, packText(t, m))
			}
		})
	}
}

// A core item said as an aside alone is no work done: DropDone leaves
// nothing of an aside, done or not, and the item stays.
func TestCoreAsideStays(t *testing.T) {
	const aside = "(The switch is on OCaml 5.1.1 with eio 1.1, so this isn't the Eio timeout change either.)"
	m, _ := newTestMemory(t)
	writeSessions(t, m, map[string]string{}, []testSession{
		{"0ld00000-0001", "01", "", "**Request**\n- Why do lookups hang?\n\n**Outcome**\n- The resolver waited on a closed socket.\n"},
		{"new00000-0002", "03", "", "**Request**\n- Add DNSSEC validation.\n\n**Outcome**\n- Validation runs for every answer.\n"},
	})
	it := model.NewItem(model.Fact, aside, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	it.Session = "0ld00000-0001"
	if _, err := m.Remember(context.Background(), it); err != nil {
		t.Fatal(err)
	}
	checkShows(t, packText(t, m), nil, []string{"The switch is on OCaml 5.1.1"})
}
