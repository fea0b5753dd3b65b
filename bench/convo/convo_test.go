package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cairn-mem/cairn/indexer"
	"github.com/cairn-mem/cairn/internal/recall"
)

// The benchmark end to end on the small fixture: real ingest, Bleve and
// vectors.
func TestBench(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	c, err := load("testdata/ines-raf")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Sessions) != 4 || c.turns["S2:4"] != "Ha. My news: the cracked bowls were my fault, I was making the bases too thick." {
		t.Fatalf("sessions %d, S2:4 %q", len(c.Sessions), c.turns["S2:4"])
	}
	qs, st, err := runConv(context.Background(), c, options{k: 50, all: true, tmp: t.TempDir()}, func(s string) { t.Log(s) })
	if err != nil {
		t.Fatal(err)
	}
	if st.Sessions != 4 || st.Chunks == 0 || st.ChunkTurns == 0 {
		t.Errorf("stats %+v", st)
	}
	// q02's evidence is one distinctive turn: keyword search finds it in
	// its first five hits, and so does every baseline within 20.
	var q02 *qResult
	for _, q := range qs {
		if q.ID == "q02" {
			q02 = q
		}
	}
	if a := q02.By["keyword"]; a.AtK[0] != 1 || a.Ranks[0] > 5 || a.Budget[2] != 1 {
		t.Errorf("q02 keyword: %+v", a)
	}
	for _, sys := range []string{"bm25-turns", "bm25-sessions"} {
		if a := q02.By[sys]; a.AtK[2] != 1 {
			t.Errorf("q02 %s: %+v", sys, a)
		}
	}

	// The report: every figure a share, every kind counted.
	rep := &report{K: 50, Convs: []*convStats{st}}
	summarize(rep, qs)
	if rep.Count["all"] != 8 || rep.Count["inference"] != 2 {
		t.Errorf("counts %v", rep.Count)
	}
	for m, byKind := range rep.Recall {
		for kind, bySys := range byKind {
			for sys, v := range bySys {
				if v < 0 || v > 1 {
					t.Errorf("%s %s %s = %v", m, kind, sys, v)
				}
			}
		}
	}
	var out bytes.Buffer
	printReport(&out, rep)
	for _, want := range []string{"recall@5 hits", "recall within 1000 tokens", "bm25-sessions", "inference", "latency per query"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Error(err)
	}
}

func TestFound(t *testing.T) {
	t.Parallel()
	long := "Quick one before work: I might move to Coimbra. The university library offered me a curator post."
	tests := []struct {
		turn, text string
		want       bool
	}{
		{long, "**Ines:** Quick one before   work: I might move to\nCoimbra. The university", true}, // 60 characters are enough
		{long, "**Ines:** Quick one before work: I might move to Lisbon.", false},
		{"Ha. *Nice*!", "Tom: ha. nice! and more", true},
		{"Ha. Nice!", "ha. nic", false},
	}
	for _, tt := range tests {
		if got := share([]string{needle(tt.turn)}, tt.text) == 1; got != tt.want {
			t.Errorf("found %q in %q = %v, want %v", tt.turn, tt.text, got, tt.want)
		}
	}
}

func TestCutTokens(t *testing.T) {
	t.Parallel()
	a := strings.Repeat("alpha ", 100) // 100 tokens
	b := "beta gamma delta"
	for _, budget := range []int{0, 1, 50, 99, 100, 101, 102, 103, 500} {
		got := cutTokens([]string{a, b}, budget)
		if n := indexer.EstimateTokens(got); n > budget {
			t.Errorf("budget %d: cut holds %d tokens", budget, n)
		}
		if budget >= 103 && !strings.Contains(got, b) || budget < 101 && strings.Contains(got, "beta") {
			t.Errorf("budget %d: %q", budget, got[max(0, len(got)-30):])
		}
	}
	if got := cutTokens([]string{a, b}, 50); strings.Count(got, "alpha") != 50 {
		t.Errorf("50 tokens hold %d words", strings.Count(got, "alpha"))
	}
}

func TestBM25(t *testing.T) {
	t.Parallel()
	x := newBM25([]string{"Maya: the greyhound sleeps", "Tom: cycling to Vienne", "Maya: we adopted greyhounds and cats"})
	got := x.search("Which greyhound?", 10)
	if len(got) != 2 || !strings.Contains(got[0], "sleeps") {
		t.Errorf("ranked %q", got)
	}
	if s := stem("adopted"); s != "adopt" {
		t.Errorf("stem(adopted) = %q", s)
	}
}

// What the index holds of an ingested conversation: chunks of a few turns
// that name each turn's speaker, headed by their session's number, day
// and speakers, dated by their session (so that Since and Until see the
// conversation's dates).
func TestIndexedChunks(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	ctx := context.Background()
	c, err := load("testdata/ines-raf")
	if err != nil {
		t.Fatal(err)
	}
	x, _, done, err := prepare(ctx, c, options{k: 50, tmp: t.TempDir()}, func(s string) { t.Log(s) })
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	res, err := x.Search(ctx, "cracked bowls bases too thick", recall.SearchOptions{Mode: indexer.Keyword, K: 10, Kinds: []string{"transcript"}})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("%v, %+v", err, res)
	}
	h := res.Hits[0]
	s2 := time.Date(2025, 2, 3, 21, 5, 0, 0, time.UTC)
	if !strings.Contains(h.Text, "**Ines:** Ha. My news: the cracked bowls") || !strings.Contains(h.Text, "**Raf:** ") || h.Created == nil || !h.Created.Equal(s2) {
		t.Fatalf("hit %s created %v:\n%s", h.Path, h.Created, h.Text)
	}
	if !strings.HasPrefix(h.Text, "Session 2 · 2025-02-03 · Raf, Ines\n") || h.Tokens > 200 {
		t.Errorf("the session's chunk lacks its header line, or holds more than a few turns (%d tokens):\n%s", h.Tokens, h.Text)
	}
	// Dated search: session 2 only.
	res, err = x.Search(ctx, "bowls", recall.SearchOptions{Mode: indexer.Keyword, K: 20, All: true, Since: s2, Until: s2.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if h.Created == nil || !h.Created.Equal(s2) {
			t.Errorf("since/until kept %s created %v", h.Path, h.Created)
		}
	}
	if len(res.Hits) == 0 {
		t.Error("since/until found nothing of session 2")
	}
}
