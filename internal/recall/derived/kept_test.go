package derived

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/open"
	"github.com/cairn-mem/cairn/internal/digest/retire"
)

// A pack whose answers all stood keeps the trace file as it was
// (maxDrift): the packs after it carry from a file several checkpoints
// old, and each of their answers is still the one a retirer built
// afresh gives, over packs asking varied questions (as packs of other
// budgets do) after core items added anywhere, removed, given another
// rank, and sessions' bullets added.
func TestCarriedFromKeptFile(t *testing.T) {
	m, warned := warnedMemory(t)
	rng := rand.New(rand.NewPCG(7, 8))
	// Many words, as a memory has: most answers share none with a
	// checkpoint's item, and stand.
	var words []string
	syl := strings.Fields("ka lo mi ren tos vu dex sar pel qui bon far gil hux jor nib ost pry")
	for _, a := range syl {
		for _, b := range syl {
			words = append(words, a+b+"er")
		}
	}
	var other []string // words of the items most checkpoints add
	for _, a := range syl {
		other = append(other, a+"ing")
	}
	sentence := statementOf(rng, words, true)
	var core []retire.Statement
	for range 600 {
		core = append(core, retire.Statement{Text: sentence(), Rank: rng.IntN(4)})
	}
	sums := []*digest.Summary{{}, {}, {}}
	sums[0].Parts[digest.Outcome] = []string{sentence(), sentence()}
	sums[1].Parts[digest.Decisions] = []string{sentence()}
	var qs []string
	for range 40 {
		qs = append(qs, sentence())
	}
	var quiet []string
	for _, a := range syl[:12] {
		quiet = append(quiet, fmt.Sprintf("The %sed %sed listens on port 4100.", a, a))
	}
	qs = append(qs, quiet...)
	carried, kept, written := 0, 0, 0
	rounds := 60
	if raceOn {
		rounds = 12
	}
	for round := range rounds {
		before, _ := os.ReadFile(m.StatePath(TraceFile))
		c := New(m, core, sums, open.NewVocab(sums))
		fresh := retire.New(core, sums)
		// A pack asks every question, some of them (as one of another
		// budget does), or, most often, only those of words no
		// statement holds, whose answers stand whatever changed: the
		// trace file is then kept, and a later pack that asks them all
		// carries from it over several checkpoints.
		mode := rng.IntN(4)
		for i, q := range qs {
			if mode == 1 && rng.IntN(3) == 0 || mode >= 2 && i < len(qs)-len(quiet) {
				continue
			}
			rank := i % 4
			var got, want string
			switch i % 4 {
			case 0:
				got, want = fmt.Sprint(c.Retired(q, rank)), fmt.Sprint(fresh.Retired(q, rank))
			case 1:
				got, want = c.DropRetired(q, rank), fresh.DropRetired(q, rank)
			case 2:
				got, want = c.DropRetiredAsked(q, rank), fresh.DropRetiredAsked(q, rank)
			default:
				got, want = c.Title(q, rank), fresh.Title(q, rank)
			}
			if got != want {
				t.Fatalf("round %d: question %d (%q, rank %d): %q, a new retirer says %q", round, i, q, rank, got, want)
			}
		}
		carried += c.carried
		c.Save(m)
		if after, _ := os.ReadFile(m.StatePath(TraceFile)); before != nil && bytes.Equal(before, after) && c.carried > 0 {
			kept++
		} else {
			written++
		}
		// A checkpoint: mostly an item added anywhere, sometimes more.
		switch rng.IntN(8) {
		case 0:
			i := rng.IntN(len(core))
			core = slices.Delete(slices.Clone(core), i, min(len(core), i+1+rng.IntN(3)))
		case 1:
			core = slices.Clone(core)
			core[rng.IntN(len(core))].Rank = rng.IntN(4)
		case 2:
			sums[0].Parts[digest.Outcome] = append(slices.Clone(sums[0].Parts[digest.Outcome]), sentence())
		case 3:
			core = slices.Insert(slices.Clone(core), rng.IntN(len(core)+1), retire.Statement{Text: sentence(), Rank: rng.IntN(4)})
		default: // a plain fact of words of its own, as most are
			o := func() string { return other[rng.IntN(len(other))] }
			fact := fmt.Sprintf("The %s %s runs the %s %s.", o(), o(), o(), o())
			core = slices.Insert(slices.Clone(core), rng.IntN(len(core)+1), retire.Statement{Text: fact, Rank: rng.IntN(4)})
		}
		if len(core) < 50 {
			for range 100 {
				core = append(core, retire.Statement{Text: sentence(), Rank: rng.IntN(4)})
			}
		}
	}
	if kept < rounds/12 || written < rounds/12 || carried < 5*rounds {
		t.Errorf("trace file kept %d times, written %d, %d answers carried: the test covers too little", kept, written, carried)
	}
	t.Logf("trace file kept %d times, written %d; %d answers carried", kept, written, carried)
	if len(*warned) != 0 {
		t.Fatalf("warned %q", *warned)
	}
}
