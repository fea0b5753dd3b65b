package open

import (
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
)

// TestOpen40Promised: work someone is to do on a coming day, work that
// waits on what has not come ("we have none yet"), and what someone
// needs before a month or a day, are left open; a schedule ("on
// Sundays"), a thing that is no person, and a rule for every month are
// not.
func TestOpen40Promised(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"Don't know the coil current, Alan will measure one on Thursday.", true},
		{"Priya's going to send the export next week.", true},
		{"I'll ask the bank about the limit by Friday.", true},
		{"Julien will send us some files from his Hammerhead Karoo, we have none yet.", true},
		{"Ute needs signed paper mandates from Julia Nowak (1187) and Henrik Albers (1203) before March; once the dates are in VereinsPlaner they're picked up automatically.", true},
		{"He's sending me his list of 48 referees with birth years and grades next week.", true},
		{"Gareth has the 2026 rate card as a PDF; I'll nag him to send it over.", true},
		{"Once 1.0.0 is out we submit it to the catalog.", true},
		{"We're going with matrix-nio: I looked at mautrix-python over the weekend.", false},
		{"Once Julien's Karoo files arrive they go into tests/fixtures/.", true},
		{"When the packets arrive they are queued per van.", false},
		{"I'll prepare 0.3.0: version in Cargo.toml, changelog from the conventional commits.", true},
		{"I'd like to tag 0.3.0 this week.", true},
		{"0.3.0 is the version Pau pins.", false},
		{"The cron will run on Sundays at 02:00.", false},
		{"The backup will run on Sunday.", false},
		{"It will run on Sunday at 02:00.", false},
		{"Each run needs the holiday rows before the end of the month.", false},
		{"The parser returns none when the field is invalid.", false},
	} {
		if got := IsTodo(tc.in); got != tc.want {
			t.Errorf("IsTodo(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestOpen40PromiseKept: such an item goes once a newer session tells
// it done in its own words ("Alan measured: 95 mA", "he sent 14 of
// them"); a newer session on something else leaves it.
func TestOpen40PromiseKept(t *testing.T) {
	older := summary(map[int][]string{digest.Outcome: {"core1 scans the 74HC165 chain every 1 ms."}})
	for _, tc := range []struct {
		todo, later string
		want        bool
	}{
		{"Don't know the coil current, Alan will measure one on Thursday.",
			"Alan measured: 95 mA per pallet magnet at 12 V, so the coil current is fine for the TPIC6B595.", true},
		{"Julien will send us some files from his Hammerhead Karoo, we have none yet.",
			"Julien's Karoo files are in tests/fixtures/karoo, he sent 14 of them.", true},
		{"I'll prepare 0.3.0: version in Cargo.toml, changelog from the conventional commits.",
			"0.3.0 is tagged and Pau is on it.", true},
		{"Don't know the coil current, Alan will measure one on Thursday.",
			"The Swell shoe goes on ADC0 as CC11.", false},
	} {
		newer := summary(map[int][]string{digest.Request: {tc.later}})
		sums := []*digest.Summary{newer, older}
		v := NewVocab(sums)
		if got := NewVocab(nil).DropDone(tc.todo, v.DoneLater(sums, 1)) == ""; got != tc.want {
			t.Errorf("%q after %q: dropped = %v, want %v", tc.todo, tc.later, got, tc.want)
		}
	}
}
