package derived

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/digest"
	"github.com/cairn-mem/cairn/internal/digest/lex"
	"github.com/cairn-mem/cairn/internal/digest/open"
	"github.com/cairn-mem/cairn/internal/digest/retire"
	"github.com/cairn-mem/cairn/internal/memory"
)

func TestParseCache(t *testing.T) {
	key := sha256.Sum256([]byte("inputs"))
	c := &Retirer{key: key, memo: map[string]string{"R0\x00a title": "1", "D2\x00a body": "", "T1\x00x": "Session"}}
	var b bytes.Buffer
	b.WriteString(magic)
	b.Write(key[:])
	good := encodeCache(t, c)
	other := sha256.Sum256([]byte("other inputs"))
	for _, tc := range []struct {
		name    string
		data    []byte
		key     [sha256.Size]byte
		want    map[string]string
		damaged bool
	}{
		{"whole", good, key, c.memo, false},
		{"other inputs", good, other, nil, false},
		{"empty", nil, key, nil, true},
		{"another format", append([]byte("cairn-packcache 2\n"), good[len(magic):]...), key, nil, true},
		{"cut short", good[:len(good)-3], key, nil, true},
		{"header only", b.Bytes(), key, nil, true},
		{"flipped", append(slices.Clone(good[:len(good)-1]), good[len(good)-1]^1), key, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := parseCache(tc.data, tc.key)
			var got map[string]string
			if err == nil && body != nil {
				got, err = parseMemo(body)
			}
			if (err != nil) != tc.damaged {
				t.Fatalf("err %v, damaged %v", err, tc.damaged)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for k, v := range tc.want {
				if g, ok := got[k]; !ok || g != v {
					t.Errorf("%q: got %q, want %q", k, g, v)
				}
			}
		})
	}
}

// encodeCache is what save writes for c.
func encodeCache(t *testing.T, c *Retirer) []byte {
	t.Helper()
	m, _, err := memory.Init(context.Background(), t.TempDir(), memory.Options{Identity: memory.Identity{Name: "Test", Email: "test@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	c.added = 1
	c.Save(m)
	data, err := os.ReadFile(m.StatePath(File))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// Overlapping finds exactly the titles lex.Overlap would.
func TestOverlapping(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("queue worker retry backoff postgres rows handler error status migration deploy port api cache report")
	set := func(n int) map[string]bool {
		s := map[string]bool{}
		for range n {
			s[words[rng.IntN(len(words))]] = true
		}
		return s
	}
	var c Titles[int]
	var titles []map[string]bool
	for i := range 500 {
		titles = append(titles, set(1+rng.IntN(6)))
		if j := c.Add(titles[i], -i); c.Value(j) != -i {
			t.Fatalf("title %d: value %d, want %d", j, c.Value(j), -i)
		}
	}
	for range 200 {
		w := set(rng.IntN(8))
		var want []int
		if len(w) >= 2 {
			for j, t := range titles {
				if lex.Overlap(t, w) >= 0.75 {
					want = append(want, j)
				}
			}
		}
		if got := c.Overlapping(w, 0.75); !slices.Equal(got, want) {
			t.Fatalf("overlapping(%v) = %v, want %v", w, got, want)
		}
	}
}

// The readings of statement texts are kept for the next pack, which
// takes them; a damaged file is said once and made again.
func TestReadingsFile(t *testing.T) {
	m, warned := warnedMemory(t)
	older, newer := "The billing worker listens on port 7070 behind the proxy.", "The billing worker now listens on port 7171 instead of 7070."
	run := func(extra string) bool {
		t.Helper()
		stmts := []retire.Statement{{Text: newer, Rank: 0}, {Text: older, Rank: 1}, {Text: extra, Rank: 2}}
		c := New(m, stmts, nil, open.NewVocab(nil))
		retired := c.Retired(older, 1)
		c.Save(m)
		return retired
	}
	if !run("The nightly report is mailed at six.") {
		t.Fatal("the older port not retired")
	}
	data, err := os.ReadFile(m.StatePath(ReadingsFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(m.StatePath(ReadingsFile)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("readings file: %v, mode %v", err, fi.Mode())
	}
	if _, err := retire.ParseReadings(data[len(magic)+sha256.Size+4:]); err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 1
	if err := os.WriteFile(m.StatePath(ReadingsFile), data, 0o600); err != nil {
		t.Fatal(err)
	}
	// Without the traces the answer is computed, by a retirer built
	// from the readings: one carried over never reads them.
	if err := os.Remove(m.StatePath(TraceFile)); err != nil {
		t.Fatal(err)
	}
	if !run("Invoices are rendered to PDF.") {
		t.Fatal("the older port not retired after a damaged cache")
	}
	if len(*warned) != 1 || !strings.Contains((*warned)[0], ReadingsFile) {
		t.Fatalf("warned %q, want one line naming %s", *warned, ReadingsFile)
	}
	if !run("Uploads larger than 20 MB are refused.") || len(*warned) != 1 {
		t.Fatalf("after the rebuild: warned %q", *warned)
	}
}

// A pack whose inputs changed takes the old answers that stand
// (TraceFile) and gives, for each question, what a retirer built afresh
// gives; a damaged trace file is said once and made again.
func TestCarriedAcrossPacks(t *testing.T) {
	m, warned := warnedMemory(t)
	rng := rand.New(rand.NewPCG(5, 6))
	words := strings.Fields("api worker billing queue cache redis deploy staging retry batch ledger gateway mailer cron")
	sentence := statementOf(rng, words, false)
	var core []retire.Statement
	for range 120 {
		core = append(core, retire.Statement{Text: sentence(), Rank: rng.IntN(4)})
	}
	sums := []*digest.Summary{{}, {}}
	sums[0].Parts[digest.Outcome] = []string{sentence(), sentence()}
	var qs []string
	for range 150 {
		qs = append(qs, sentence()+" "+sentence())
	}
	carried := 0
	for round := range 6 {
		c := New(m, core, sums, open.NewVocab(sums))
		fresh := retire.New(core, sums)
		for i, q := range qs {
			rank := i % 4
			if got, want := c.DropRetired(q, rank), fresh.DropRetired(q, rank); got != want {
				t.Fatalf("round %d: DropRetired(%q, %d) = %q, want %q", round, q, rank, got, want)
			}
			if got, want := c.Title(q, rank), fresh.Title(q, rank); got != want {
				t.Fatalf("round %d: Title(%q, %d) = %q, want %q", round, q, rank, got, want)
			}
		}
		carried += c.carried
		c.Save(m)
		if round == 3 {
			data, err := os.ReadFile(m.StatePath(TraceFile))
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)-1] ^= 1
			if err := os.WriteFile(m.StatePath(TraceFile), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		// A checkpoint: a core item added, one gone, a bullet more.
		core = append(slices.Clone(core[1:]), retire.Statement{Text: sentence(), Rank: 0})
		sums[0].Parts[digest.Outcome] = append(slices.Clone(sums[0].Parts[digest.Outcome]), sentence())
	}
	if carried < 100 {
		t.Errorf("%d answers carried over", carried)
	}
	t.Logf("%d answers carried over", carried)
	if len(*warned) != 1 || !strings.Contains((*warned)[0], TraceFile) {
		t.Fatalf("warned %q, want one line naming %s", *warned, TraceFile)
	}
}

// The index of titles added by their text is kept for the next pack of
// the same titles, which reads it and finds what the words themselves
// find; a damaged file is said once and made again.
func TestTitlesFile(t *testing.T) {
	m, warned := warnedMemory(t)
	rng := rand.New(rand.NewPCG(7, 8))
	words := strings.Fields("queue worker retries backoff postgres rows handler error status migration deploy port api cache report")
	text := func(n int) string {
		var ws []string
		for range n {
			ws = append(ws, words[rng.IntN(len(words))])
		}
		return strings.Join(ws, " ")
	}
	var titles []string
	for range 300 {
		titles = append(titles, text(1+rng.IntN(6)))
	}
	var bullets []map[string]bool
	for range 100 {
		bullets = append(bullets, lex.ContentWords(text(rng.IntN(8))))
	}
	pack := func(titles []string) (made bool) {
		t.Helper()
		var want Titles[int]
		for i, ti := range titles {
			if w := lex.ContentWords(ti); len(w) >= 2 {
				want.Add(w, i)
			}
		}
		c := NewTitles[int](m)
		for i, ti := range titles {
			c.AddTitle(ti, i)
		}
		for _, b := range bullets {
			var got, exp []int
			for _, j := range c.Overlapping(b, 0.75) {
				got = append(got, c.Value(j))
			}
			for _, j := range want.Overlapping(b, 0.75) {
				exp = append(exp, want.Value(j))
			}
			if !slices.Equal(got, exp) {
				t.Fatalf("overlapping(%v) = %v, want %v", b, got, exp)
			}
		}
		fresh := NewTitles[int](nil) // made from the words alone
		for i, ti := range titles {
			fresh.AddTitle(ti, i)
		}
		fresh.build()
		if !reflect.DeepEqual(c.byWord, fresh.byWord) || !slices.Equal(c.size, fresh.size) {
			t.Fatal("the index differs from one made afresh")
		}
		made = c.made
		c.Save()
		return made
	}
	if !pack(titles) || pack(titles) {
		t.Fatal("the index was not made, then read")
	}
	data, err := os.ReadFile(m.StatePath(TitlesFile))
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 1
	if err := os.WriteFile(m.StatePath(TitlesFile), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if !pack(titles) || pack(titles) || len(*warned) != 1 || !strings.Contains((*warned)[0], TitlesFile) {
		t.Fatalf("after a damaged file: warned %q", *warned)
	}
	if !pack(append(slices.Clone(titles[:299]), "worker port")) {
		t.Fatal("an index read for other titles")
	}
	// Titles added, removed, said twice, and in one round in three two
	// swapped: the index of the last titles renumbered, or made again.
	for round := range 30 {
		for range rng.IntN(4) {
			i := rng.IntN(len(titles) + 1)
			titles = slices.Insert(slices.Clone(titles), i, text(1+rng.IntN(6)))
		}
		for range rng.IntN(3) {
			i := rng.IntN(len(titles))
			titles = slices.Delete(slices.Clone(titles), i, i+1)
		}
		if rng.IntN(4) == 0 {
			titles = append(titles, titles[rng.IntN(len(titles))])
		}
		if round%3 == 0 {
			i, j := rng.IntN(len(titles)), rng.IntN(len(titles))
			titles[i], titles[j] = titles[j], titles[i]
		}
		pack(titles)
	}
}

// warnedMemory is a new memory in a temporary folder whose warnings are
// collected, closed when the test ends.
func warnedMemory(t *testing.T) (*memory.Memory, *[]string) {
	t.Helper()
	var warned []string
	m, _, err := memory.Init(context.Background(), t.TempDir(), memory.Options{
		Identity: memory.Identity{Name: "Test", Email: "test@example.com"},
		Warn:     func(s string) { warned = append(warned, s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m, &warned
}

// statementOf returns a maker of random statements over words: a port, a
// port moved, a setting, a plain statement; with more, also a version
// said to be now and a thing taken out, as a memory's checkpoints add.
func statementOf(rng *rand.Rand, words []string, more bool) func() string {
	w := func() string { return words[rng.IntN(len(words))] }
	kinds := 4
	if more {
		kinds = 6
	}
	return func() string {
		switch k := rng.IntN(kinds); {
		case k == 0:
			return fmt.Sprintf("The %s %s listens on port %d.", w(), w(), 3000+rng.IntN(5)*100)
		case k == 1:
			return fmt.Sprintf("The %s %s moved to port %d instead of %d.", w(), w(), 3000+rng.IntN(5)*100, 3000+rng.IntN(5)*100)
		case k == 2:
			return fmt.Sprintf("`%s_%s: %d` is set.", words[rng.IntN(3)], words[rng.IntN(3)], rng.IntN(9))
		case more && k == 3:
			return fmt.Sprintf("The %s %s uses Redis %d.%d now.", w(), w(), 1+rng.IntN(3), rng.IntN(4))
		case more && k == 4:
			return fmt.Sprintf("Kafka is out of the %s %s.", w(), w())
		}
		return fmt.Sprintf("The %s %s runs the %s %s.", w(), w(), w(), w())
	}
}
