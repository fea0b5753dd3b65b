package recall

import (
	"context"
	"strings"
	"testing"
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
	p, err := Context(context.Background(), m, ContextOptions{Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Text, "- "+mended) || strings.Contains(p.Text, "Root cause: `app_main.c`") {
		t.Errorf("the mending shows as a root cause, or not at all:\n%s", p.Text)
	}
	if !strings.Contains(p.Text, culprit) {
		t.Errorf("the pack lacks the cause:\n%s", p.Text)
	}
}
