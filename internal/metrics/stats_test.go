package metrics

import (
	"testing"
	"time"
)

func TestDist(t *testing.T) {
	tests := []struct {
		in   []float64
		want Dist
	}{
		{nil, Dist{}},
		{[]float64{5}, Dist{5, 5, 5}},
		{[]float64{3, 1, 2}, Dist{2, 3, 3}},
		{[]float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, Dist{5, 10, 10}},
		{seq(100), Dist{50, 95, 100}},
		{[]float64{0.12345, 0.5}, Dist{0.123, 0.5, 0.5}},
	}
	for _, tt := range tests {
		if got := dist(tt.in); got != tt.want {
			t.Errorf("dist(%v) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func seq(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(n - i)
	}
	return v
}

func TestSummarize(t *testing.T) {
	at := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	evs := []Event{
		{Time: at.Add(-time.Hour), Kind: KindSearch, Hits: 99, MS: 999}, // before the window
		{Time: at, Kind: KindSummary, Provider: "anthropic", Model: "claude-haiku-4-5", TokensIn: 1000, TokensOut: 200, MS: 800},
		{Time: at, Kind: KindSummary, Provider: "anthropic", Model: "claude-haiku-4-5", TokensIn: 500, TokensOut: 100, MS: 400},
		{Time: at, Kind: KindSummary, Provider: "extractive", Fallback: true, MS: 2},
		{Time: at, Kind: KindPack, Name: "session-start", Tokens: 1500, Budget: 2000, Items: 10, LeftOut: 2, MS: 5},
		{Time: at, Kind: KindPack, Name: "cli", Tokens: 500, Budget: 1000, Items: 3, MS: 3},
		{Time: at, Kind: KindSearch, Mode: "hybrid", Hits: 8, MS: 4},
		{Time: at, Kind: KindSearch, Mode: "keyword", Hits: 2, MS: 2},
		{Time: at, Kind: KindCapture, Name: "hook", Events: 3, Bytes: 1000, MS: 700},
		{Time: at.Add(time.Minute), Kind: KindGauge, Queue: 1, Commits: 40},
		{Time: at, Kind: KindGauge, Queue: 5, Commits: 39},
	}
	st := Summarize(evs, at, at.Add(time.Hour))
	if st.Events != 10 {
		t.Errorf("events %d, want 10", st.Events)
	}
	s := st.Summaries
	if s.Count != 3 || s.TokensIn != 1500 || s.TokensOut != 300 || s.Fallbacks != 1 || s.MS != (Dist{400, 800, 800}) {
		t.Errorf("summaries %+v", s)
	}
	if len(s.Providers) != 2 || s.Providers[0].Provider != "anthropic" || s.Providers[0].Count != 2 || s.Providers[1].Provider != "extractive" {
		t.Errorf("providers %+v", s.Providers)
	}
	p := st.Packs
	if p.Count != 2 || p.Tokens != 2000 || p.Items != 13 || p.LeftOut != 2 || p.Fill != (Dist{0.5, 0.75, 0.75}) || p.ByEvent["session-start"] != 1 || p.ByEvent["cli"] != 1 {
		t.Errorf("packs %+v", p)
	}
	if q := st.Searches; q.Count != 2 || q.Hits != (Dist{2, 8, 8}) || q.ByMode["hybrid"] != 1 {
		t.Errorf("searches %+v", q)
	}
	if c := st.Captures; c.Count != 1 || c.Events != 3 || c.Bytes != 1000 || c.MS.Max != 700 {
		t.Errorf("captures %+v", c)
	}
	if g := st.Gauge; g == nil || g.Commits != 40 || g.Queue != 1 {
		t.Errorf("gauge %+v, want the latest", g)
	}
}
