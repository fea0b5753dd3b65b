package digest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The retirer's cheaper paths give the same answers as the plain ones:
// a sentence's candidates, however many, sorted and unique; sameTopic
// through the keys of x counted once.
func TestRetirerSpeedPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("port api worker billing queue cache redis postgres deploy staging build test flaky timeout retry batch index search token budget pack core session title body listens runs keeps uses")
	sentence := func() string {
		n := 3 + rng.IntN(6)
		var ws []string
		for range n {
			ws = append(ws, words[rng.IntN(len(words))])
		}
		if rng.IntN(3) == 0 {
			ws = append(ws, fmt.Sprint(1000+rng.IntN(9000)))
		}
		return strings.Join(ws, " ") + "."
	}
	var stmts []Statement
	for i := range 600 {
		stmts = append(stmts, Statement{Text: sentence(), Rank: i % 12})
	}
	r := NewRetirer(stmts, nil)
	for range 300 {
		xk := topicKeys(sentence())
		got := slices.Clone(r.candidates(xk))
		var want []int
		for i, st := range r.stmts {
			in := slices.Contains(r.always, i)
			for k := range xk {
				in = in || st.keys[k]
			}
			if in {
				want = append(want, i)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("candidates(%v) = %v, want %v", xk, got, want)
		}
		keys := r.topicKeysOf(xk)
		for _, st := range r.stmts {
			if a, b := r.sameTopic(xk, st.keys), sameTopicOf(keys, st.keys); a != b {
				t.Fatalf("sameTopic(%v, %v) = %v, sameTopicOf = %v", xk, st.keys, a, b)
			}
		}
	}
}

func TestSpacedWords(t *testing.T) {
	plain := func(s string) string {
		return " " + strings.Join(strings.FieldsFunc(strings.ToLower(s), func(c rune) bool {
			return !unicode.IsLetter(c) && !unicode.IsDigit(c)
		}), " ") + " "
	}
	for _, s := range []string{"", " ", "a", "A", "..", "The API listens on :4100 now.", "  two  spaces ", "x-y_z/1.2.3", "Café au lait", "ÉTÉ 2024", "tab\tand\nline", "end."} {
		if got, want := spacedWords(s), plain(s); got != want {
			t.Errorf("spacedWords(%q) = %q, want %q", s, got, want)
		}
	}
}

// An answer carried over (Traced, then Carry.Stands) is the answer a
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
	summary := func() *Summary {
		d := &Summary{}
		for _, p := range []int{Request, Outcome, Decisions, Environment} {
			for range rng.IntN(4) {
				d.Parts[p] = append(d.Parts[p], body())
			}
		}
		if rng.IntN(2) == 0 {
			d.Parts[Commands] = append(d.Parts[Commands], fmt.Sprintf("sed -i 's/%s_%s: %s/%s_%s: %s/' conf", few(), few(), port(), few(), few(), port()))
		}
		if rng.IntN(2) == 0 {
			d.Parts[Files] = append(d.Parts[Files], fmt.Sprintf("%s.yaml (edited: `%s: %d` → `%s: %d`)", few(), w(), rng.IntN(9), w(), rng.IntN(9)))
		}
		return d
	}
	type question struct {
		kind, rank int
		text       string
	}
	ask := func(r *Retirer, q question) string {
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
	for round := range 30 {
		var core []Statement
		for range 150 + rng.IntN(150) {
			core = append(core, Statement{Text: sentence(), Rank: rng.IntN(6)})
		}
		var sums []*Summary
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
		old := NewRetirer(core, sums)
		answers, traces := make([]string, len(qs)), make([]Trace, len(qs))
		for i, q := range qs {
			traces[i] = old.Traced(func() { answers[i] = ask(old, q) })
		}
		// The changes a checkpoint makes: a core item added or gone,
		// one given another rank, a session's bullet or command more.
		core2 := slices.Clone(core)
		for range 1 + rng.IntN(3) {
			switch rng.IntN(4) {
			case 0:
				core2 = append(core2, Statement{Text: sentence(), Rank: rng.IntN(6)})
			case 1:
				core2 = slices.Delete(core2, 0, 1)
			case 2:
				core2[rng.IntN(len(core2))].Rank = rng.IntN(6)
			default:
				d := *sums[rng.IntN(len(sums))]
				d.Parts[Outcome] = append(slices.Clone(d.Parts[Outcome]), body())
				if rng.IntN(2) == 0 {
					d.Parts[Commands] = append(slices.Clone(d.Parts[Commands]), fmt.Sprintf("sed -i 's/%s_%s: %s/%s_%s: %s/' conf", few(), few(), port(), few(), few(), port()))
				}
				if rng.IntN(3) == 0 {
					d.Parts[Files] = append(slices.Clone(d.Parts[Files]), few()+".yaml (edited)")
				}
				sums = append(slices.Clone(sums[:len(sums)-1]), &d)
			}
		}
		if round%5 == 0 {
			core2 = core2[:len(core2)/2] // moves the statistics: keys change class
		}
		now := NewRetirer(core2, sums)
		carry := now.CarryFrom(old.Sources(), now.Sources(), old.ChangedID())
		for i, q := range qs {
			got := ask(now, q)
			if !carry.Stands(traces[i]) {
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
	if carried < 1000 || dropped < 500 || differ == 0 || retired < 100 {
		t.Errorf("carried %d answers (%d retiring something), dropped %d (%d changed): the test covers too little", carried, retired, dropped, differ)
	}
	t.Logf("carried %d answers (%d retiring something), dropped %d (%d changed)", carried, retired, dropped, differ)
}
