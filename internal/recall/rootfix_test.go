package recall

import "testing"

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
