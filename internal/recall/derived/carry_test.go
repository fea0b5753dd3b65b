package derived

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/retire"
)

// An answer carried over (retire.Retirer.Traced, then carry.stands) is the answer a
// retirer built afresh gives: over random memories, each changed by
// statements and commands added, removed or moved to another rank, and
// questions of every kind.
func TestCarriedAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("api worker billing queue cache redis postgres deploy staging build flaky retry batch index search token pack session gateway mailer cron ledger reports invoices")
	names := strings.Fields("Redis Postgres Kafka Jenkins Docker Celery Sidekiq Nginx Vite Webpack")
	w := func() string { return words[rng.IntN(len(words))] }
	few := func() string { return words[rng.IntN(4)] } // settings and files that meet often
	name := func() string { return names[rng.IntN(len(names))] }
	port := func() string { return fmt.Sprint(3000 + rng.IntN(6)*100) }
	ver := func() string { return fmt.Sprintf("%d.%d", 1+rng.IntN(3), rng.IntN(4)) }
	templates := []func() string{
		func() string { return fmt.Sprintf("The %s %s listens on port %s.", w(), w(), port()) },
		func() string {
			return fmt.Sprintf("The %s %s moved to port %s instead of %s.", w(), w(), port(), port())
		},
		func() string { return fmt.Sprintf("The %s %s is %s now.", w(), w(), port()) },
		func() string { return fmt.Sprintf("We switched the %s %s from %s to %s.", w(), w(), name(), name()) },
		func() string { return fmt.Sprintf("`%s_%s: %s` is set for the %s.", few(), few(), port(), w()) },
		func() string { return fmt.Sprintf("%s is out of the %s %s.", name(), w(), w()) },
		func() string { return fmt.Sprintf("The %s %s still runs on %s %s.", w(), w(), name(), ver()) },
		func() string { return fmt.Sprintf("The %s %s uses %s %s now.", w(), w(), name(), ver()) },
		func() string { return fmt.Sprintf("The %s %s keeps %d %s backups.", w(), w(), 2+rng.IntN(20), w()) },
		func() string { return fmt.Sprintf("The %s binaries live in /opt/%s/%s/bin.", w(), w(), ver()) },
		func() string { return fmt.Sprintf("`%s.yaml`: %s %s", few(), w(), ver()) },
		func() string { return fmt.Sprintf("%s %s %s %s.", w(), w(), w(), w()) },
		func() string { return fmt.Sprintf("Should the %s %s move to %s?", w(), w(), name()) },
	}
	sentence := func() string { return templates[rng.IntN(len(templates))]() }
	body := func() string {
		n := 1 + rng.IntN(3)
		var ss []string
		for range n {
			ss = append(ss, sentence())
		}
		return strings.Join(ss, " ")
	}
	summary := func() *digest.Summary {
		d := &digest.Summary{}
		for _, p := range []int{digest.Request, digest.Outcome, digest.Decisions, digest.Environment} {
			for range rng.IntN(4) {
				d.Parts[p] = append(d.Parts[p], body())
			}
		}
		if rng.IntN(2) == 0 {
			d.Parts[digest.Commands] = append(d.Parts[digest.Commands], fmt.Sprintf("sed -i 's/%s_%s: %s/%s_%s: %s/' conf", few(), few(), port(), few(), few(), port()))
		}
		if rng.IntN(2) == 0 {
			d.Parts[digest.Files] = append(d.Parts[digest.Files], fmt.Sprintf("%s.yaml (edited: `%s: %d` → `%s: %d`)", few(), w(), rng.IntN(9), w(), rng.IntN(9)))
		}
		return d
	}
	type question struct {
		kind, rank int
		text       string
	}
	ask := func(r *retire.Retirer, q question) string {
		switch q.kind {
		case 0:
			return fmt.Sprint(r.Retired(q.text, q.rank))
		case 1:
			return r.DropRetired(q.text, q.rank)
		case 2:
			return r.DropRetiredAsked(q.text, q.rank)
		}
		return r.Title(q.text, q.rank)
	}
	carried, dropped, differ, retired := 0, 0, 0, 0
	rounds := 30
	if raceOn {
		rounds = 6
	}
	for round := range rounds {
		var core []retire.Statement
		for range 150 + rng.IntN(150) {
			core = append(core, retire.Statement{Text: sentence(), Rank: rng.IntN(6)})
		}
		var sums []*digest.Summary
		for range 2 + rng.IntN(3) {
			sums = append(sums, summary())
		}
		var qs []question
		for range 200 {
			q := question{kind: rng.IntN(4), rank: rng.IntN(6), text: body()}
			if rng.IntN(3) == 0 {
				q.text = core[rng.IntN(len(core))].Text
			}
			qs = append(qs, q)
		}
		old, sumsOld := retire.New(core, sums), slices.Clone(sums)
		answers, traces := make([]string, len(qs)), make([]traced, len(qs))
		for i, q := range qs {
			t := old.Traced(func() { answers[i] = ask(old, q) })
			traces[i] = traced{value: answers[i], trace: t, classes: classesOf(old, t)}
		}
		// The changes a checkpoint makes: a core item added or gone,
		// one given another rank, a session's bullet or command more.
		core2 := slices.Clone(core)
		for range 1 + rng.IntN(3) {
			switch rng.IntN(4) {
			case 0:
				core2 = append(core2, retire.Statement{Text: sentence(), Rank: rng.IntN(6)})
			case 1:
				core2 = slices.Delete(core2, 0, 1)
			case 2:
				core2[rng.IntN(len(core2))].Rank = rng.IntN(6)
			default:
				d := *sums[rng.IntN(len(sums))]
				d.Parts[digest.Outcome] = append(slices.Clone(d.Parts[digest.Outcome]), body())
				if rng.IntN(2) == 0 {
					d.Parts[digest.Commands] = append(slices.Clone(d.Parts[digest.Commands]), fmt.Sprintf("sed -i 's/%s_%s: %s/%s_%s: %s/' conf", few(), few(), port(), few(), few(), port()))
				}
				if rng.IntN(3) == 0 {
					d.Parts[digest.Files] = append(slices.Clone(d.Parts[digest.Files]), few()+".yaml (edited)")
				}
				sums = append(slices.Clone(sums[:len(sums)-1]), &d)
			}
		}
		if round%5 == 0 {
			core2 = core2[:len(core2)/2] // moves the statistics: keys change class
		}
		now := retire.New(core2, sums)
		carry := newCarry(now.Class, old.Sources(), now.Sources(), filesID(sumsOld) != filesID(sums))
		light := lightOf(t, old, core, sumsOld, traces, core2, sums, now)
		for i, q := range qs {
			got := ask(now, q)
			if light.stands(traces[i]) != carry.stands(traces[i]) {
				t.Fatalf("round %d: %+v: the carry without the retirer says %v", round, q, light.stands(traces[i]))
			}
			if !carry.stands(traces[i]) {
				dropped++
				if got != answers[i] {
					differ++
				}
				continue
			}
			carried++
			if got != answers[i] {
				t.Fatalf("round %d: %+v carried as %q, a new retirer says %q", round, q, answers[i], got)
			}
			if answers[i] != q.text && answers[i] != "false" {
				retired++
			}
		}
	}
	if carried < 30*rounds || dropped < 15*rounds || differ == 0 || retired < 3*rounds {
		t.Errorf("carried %d answers (%d retiring something), dropped %d (%d changed): the test covers too little", carried, retired, dropped, differ)
	}
	t.Logf("carried %d answers (%d retiring something), dropped %d (%d changed)", carried, retired, dropped, differ)
}

// lightOf is the carry from old (of core and sums) to now (of core2 and
// sums2) as a pack makes it without building now (Retirer.lightCarry),
// from a trace file of old's answers traces; it checks that the
// statements and the classes of the traces' keys it finds are now's.
func lightOf(t *testing.T, old *retire.Retirer, core []retire.Statement, sums []*digest.Summary, traces []traced, core2 []retire.Statement, sums2 []*digest.Summary, now *retire.Retirer) *carry {
	t.Helper()
	src := old.Sources()
	f := &carried{todoKey: todoKey(sums), changed: filesID(sums), sources: src, ncore: len(core), counted: retire.Counted(src), distinct: old.Distinct(), df: map[string]int{}}
	f.key[0] = 1                   // other inputs than the pack's
	f.inputs = inputsOf(core, src) // as saveTraces writes them
	f.answers = map[string]traced{}
	for i, a := range traces {
		f.answers[fmt.Sprint(i)] = a
		for _, k := range a.trace.Keys {
			f.df[k] = old.DF(k)
		}
	}
	f, err := parseCarried(string(encodeCarried(f))) // as a pack reads it
	if err != nil {
		t.Fatal(err)
	}
	c := &Retirer{core: core2, sums: sums2, todoKey: todoKey(sums2), old: f}
	light := c.lightCarry()
	if light == nil {
		t.Fatal("no carry without the retirer")
	}
	if !reflect.DeepEqual(c.sources, now.Sources()) {
		t.Fatal("the statements found without the retirer are not its")
	}
	for _, a := range traces {
		for _, k := range a.trace.Keys {
			if c.counts.class(k) != now.Class(k) {
				t.Fatalf("key %q: class %d without the retirer, %d with it (df %d, %d)", k, c.counts.class(k), now.Class(k), c.counts.df(k), now.DF(k))
			}
		}
	}
	return light
}

// BenchmarkEncodeCarried encodes a trace file of 5,000 core sources, as
// a cold pack at 100,000 files writes.
func BenchmarkEncodeCarried(b *testing.B) {
	var core []retire.Statement
	for i := range 5000 {
		core = append(core, retire.Statement{Text: fmt.Sprintf("The billing worker %d listens on port %d behind the proxy.", i, 3000+i), Rank: i % 7})
	}
	src := retire.New(core, nil).Sources()
	f := &carried{sources: src, ncore: len(core), inputs: make([]string, len(core)), counted: retire.Counted(src), answers: map[string]traced{}}
	b.ResetTimer()
	for range b.N {
		encodeCarried(f)
	}
}

// BenchmarkLightCarry tells which answers stand after a checkpoint added
// one core item to 5,000, as a cold pack at 100,000 files does.
func BenchmarkLightCarry(b *testing.B) {
	var core []retire.Statement
	for i := range 5000 {
		core = append(core, retire.Statement{Text: fmt.Sprintf("The billing worker %d listens on port %d behind the proxy.", i, 3000+i), Rank: i % 7})
	}
	sums := []*digest.Summary{{}}
	sums[0].Parts[digest.Outcome] = []string{"The api gateway moved to port 4101."}
	old := retire.New(core, sums)
	src := old.Sources()
	f := &carried{todoKey: todoKey(sums), changed: filesID(sums), sources: src, ncore: len(core), inputs: make([]string, len(core)), counted: retire.Counted(src), distinct: old.Distinct(), df: map[string]int{}}
	f.key[0] = 1
	core2 := slices.Insert(slices.Clone(core), 2500, retire.Statement{Text: "The API server moved to port 4101 instead of 8080.", Rank: 3})
	b.ResetTimer()
	for range b.N {
		c := &Retirer{core: core2, sums: sums, todoKey: todoKey(sums), old: f}
		if c.lightCarry() == nil {
			b.Fatal("no carry")
		}
	}
}
