package open

import (
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestPlansForADay: what someone wants or plans to do on a coming day,
// what to do then, someone coming on a day, and a cause guessed and not
// checked are work left; a schedule, a past weekend and a cause found
// are not.
func TestPlansForADay(t *testing.T) {
	checkReads(t, "IsTodo", IsTodo, []readCase{
		{"Tariq and I want to do a witness cone firing this weekend to check the calibration.", true},
		{"For the weekend: put cones 5, 6 and 7 on a middle shelf in view of the spy hole and fire the glaze schedule.", true},
		{"We plan to switch the DNS on Thursday.", true},
		{"Jonas comes Thursday with the ACE Service Installer to point the twelve chargers at our server.", true},
		{"Margaret is in tomorrow to try the new pistons.", true},
		{"The double peak on Y smells like loose belts tbh.", true},
		{"I suspect the PSU, it browns out when the pump starts.", true},
		{"We want to keep the backups on Sundays.", false},
		{"Over the weekend the disk filled up.", false},
		{"For the weekend rota, Sam is on call.", false},
		{"It comes Monday with the rest of the order.", false},
		{"The cron comes back on Thursdays.", false},
		{"The belts were loose: I retensioned both to 110 Hz.", false},
		{"Out of four runs it failed twice, always with the second delay a few milliseconds off (813 instead of 800), which smells like something reading real time inside a virtual-time test.", false},
	})
}

// A readCase is a sentence and whether a reading holds of it.
type readCase struct {
	in   string
	want bool
}

// checkReads checks reading read, called name, on each case.
func checkReads(t *testing.T, name string, read func(string) bool, cases []readCase) {
	t.Helper()
	for _, tc := range cases {
		if got := read(tc.in); got != tc.want {
			t.Errorf("%s(%q) = %v, want %v", name, tc.in, got, tc.want)
		}
	}
}

// TestPlanDoneLater: such a plan goes from an older session's bullet
// once a newer session tells what came of it; a newer session on
// something else leaves it.
func TestPlanDoneLater(t *testing.T) {
	checkDropped(t, "The kiln controller logs every 10 s.", digest.Request, []droppedCase{
		{"Safety changes get a native test first. Tariq and I want to do a witness cone firing this weekend to check the calibration.",
			"Witness cones: cone 6 was at half bend when the display said 1214 °C. So we read 8 degrees low?",
			"Safety changes get a native test first."},
		{"One thing: amps everywhere please. Jonas comes Thursday with the ACE Service Installer to point the twelve chargers at our server.",
			"Jonas set the URL on all twelve this morning. Eight are connected, four aren't.",
			"One thing: amps everywhere please."},
		{"The double peak on Y smells like loose belts tbh.",
			"The belts were it: with both belts at 110 Hz the second peak is gone and Y is a clean mzv at 48.8 Hz.",
			""},
		{"The double peak on Y smells like loose belts tbh.",
			"The nozzle is hardened steel now.",
			"The double peak on Y smells like loose belts tbh."},
	})
}

// TestPronounTodoDone: a to-do that names its work by a pronoun ("can
// you do that tomorrow") goes, with the clause before it that says the
// work, once a newer session dealt with that work; what the sentence
// before says besides stays.
func TestPronounTodoDone(t *testing.T) {
	checkDropped(t, "The pipeline calls variants with HaplotypeCaller.", digest.Outcome, []droppedCase{
		{"and the pilot is only 3 samples, so VQSR won't work; we need hard filters. can you do that tomorrow",
			"Hard filters are in: SelectVariants and VariantFiltration with QD < 2.0 and FS > 60.0 on the pilot's SNPs.",
			"and the pilot is only 3 samples, so VQSR won't work."},
		{"and the pilot is only 3 samples, so VQSR won't work; we need hard filters. can you do that tomorrow",
			"bwa runs with 16 threads now.",
			"and the pilot is only 3 samples, so VQSR won't work; we need hard filters. can you do that tomorrow"},
	})
}

// A droppedCase is an older session's bullet, what a newer session
// said, and what is left of the bullet after it.
type droppedCase struct{ bullet, later, want string }

// checkDropped drops from each case's bullet, of a session whose outcome
// is older, the to-dos a newer session that said later in part p dealt
// with.
func checkDropped(t *testing.T, older string, p int, cases []droppedCase) {
	t.Helper()
	o := summary(map[int][]string{digest.Outcome: {older}})
	for _, tc := range cases {
		sums := []*digest.Summary{summary(map[int][]string{p: {tc.later}}), o}
		v := NewVocab(sums)
		if got := v.DropDone(tc.bullet, v.DoneLater(sums, 1)); got != tc.want {
			t.Errorf("%q after %q = %q, want %q", tc.bullet, tc.later, got, tc.want)
		}
	}
}

// TestWaitsOnTheUser: what the agent waits for the user to hand over, a
// gap named in what was built, a list gathered for a next revision and a
// cause guessed from what a symptom "typically means" are work left; the
// same words telling what was done or found are not.
func TestWaitsOnTheUser(t *testing.T) {
	checkReads(t, "IsTodo", IsTodo, []readCase{
		{"Send me the Svalbard reports that throw when you have them; the year's corpus had no exceptions.", true},
		{"Paste me the output once you've run it on the Pi.", true},
		{"One gap in the walk-forward report: it has per-fold returns and Sharpe but not per-fold turnover.", true},
		{"Rev B list so far: separate 5.1k on CC1 and CC2, more output capacitance on 3V3.", true},
		{"The Y double peak typically means the two belts of the CoreXY aren't at the same tension.", true},
		{"Megan has a sheet with field availability per park, I'll get it from her.", true},
		{"There's an old ThinkPad in the office, I'll dig it out.", true},
		{"Send me a mail when the backup fails, never on success.", false},
		{"I'll get it from the cache if the API is down.", false},
		{"The gap between two frames is 25 ms at most.", false},
		{"The list so far has never been empty.", false},
		{"I sent you the Svalbard reports that threw.", false},
		{"The LED blinking twice means the battery is low.", false},
	})
}

// TestTodoClauseByPronoun: a clause that asks for work by a pronoun
// ("I'll nag him to send it over") goes with the clause before it, which
// says what the work is, once a newer session dealt with that.
func TestTodoClauseByPronoun(t *testing.T) {
	checkDropped(t, "Invoices come as PDFs by mail.", digest.Outcome, []droppedCase{
		{"Gareth, our transport planner, has the 2026 rate card as a PDF; I'll nag him to send it over.",
			"Gareth's rate card, typed out by me: five zones by postcode area, A is Yorkshire and the East Midlands.",
			""},
		{"Gareth, our transport planner, has the 2026 rate card as a PDF; I'll nag him to send it over.",
			"The fuel surcharge is 18.5% in April.",
			"Gareth, our transport planner, has the 2026 rate card as a PDF; I'll nag him to send it over."},
	})
}

// TestProblemToldAsEvent: a blackout or a freeze tells a problem as it
// stands; the same words told of a plan do not, nor does a lack "at
// all", which may be a gap or the reason to stay as things are.
func TestProblemToldAsEvent(t *testing.T) {
	checkReads(t, "problemMark", problemMark.MatchString, []readCase{
		{"Something else, weirder: twice tonight the whole rig blacked out for maybe half a second and came back.", true},
		{"The console freezes when a piston is set.", true},
		{"The app target has no third-party dependencies at all today.", false},
		{"The house lights fade to black over 5 seconds.", false},
	})
}

// TestDropFixedOnIt: a short sentence that names a fixed problem by a
// pronoun goes with it; one about something else stays.
func TestDropFixedOnIt(t *testing.T) {
	fixed := func(p string) bool {
		return strings.Contains(p, "blacked out") || strings.Contains(p, "export keeps failing")
	}
	for in, want := range map[string]string{
		"OK, I'll get the ladder out Saturday. Twice tonight the whole rig blacked out for half a second. Leave it with me, I have a suspicion.": "OK, I'll get the ladder out Saturday.",
		"The export keeps failing. It runs nightly at 02:00.": "It runs nightly at 02:00.",
	} {
		if got := DropFixed(in, fixed); got != want {
			t.Errorf("DropFixed(%q) = %q, want %q", in, got, want)
		}
	}
}
