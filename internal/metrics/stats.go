package metrics

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"
)

// Stats are the totals and percentiles of a window of events, in the
// shape `cairn stats --json` prints (README documents it; keep it
// stable: add fields, do not rename them).
type Stats struct {
	Since     time.Time    `json:"since,omitzero"` // zero: all the log keeps
	Until     time.Time    `json:"until"`
	Events    int          `json:"events"`
	Summaries SummaryStats `json:"summaries"`
	Packs     PackStats    `json:"packs"`
	Searches  SearchStats  `json:"searches"`
	Captures  CaptureStats `json:"captures"`
	// Gauge is the latest sample in the window, nil when there is none.
	Gauge *GaugeStats `json:"gauge"`
}

// Dist is a distribution: its median, 95th percentile (nearest rank) and
// maximum; all zero when it has no values.
type Dist struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	Max float64 `json:"max"`
}

// SummaryStats are the summaries': tokens in and out in all, by provider
// and model, how many fell back, and how long they took.
type SummaryStats struct {
	Count     int             `json:"count"`
	TokensIn  int64           `json:"tokens_in"`
	TokensOut int64           `json:"tokens_out"`
	Fallbacks int             `json:"fallbacks"`
	MS        Dist            `json:"ms"`
	Providers []ProviderStats `json:"providers"`
}

// ProviderStats are one provider and model's summaries.
type ProviderStats struct {
	Provider  string `json:"provider"`
	Model     string `json:"model,omitempty"`
	Count     int    `json:"count"`
	TokensIn  int64  `json:"tokens_in"`
	TokensOut int64  `json:"tokens_out"`
}

// PackStats are the context packs': tokens used (all, and per pack), how
// full the budget was, items in and left out, time, and how many each
// event (session-start, prompt, cli, mcp) asked for.
type PackStats struct {
	Count   int            `json:"count"`
	Tokens  int64          `json:"tokens"`
	PerPack Dist           `json:"tokens_per_pack"`
	Fill    Dist           `json:"budget_fill"` // used/budget, 0 to 1
	Items   int            `json:"items"`
	LeftOut int            `json:"left_out"`
	MS      Dist           `json:"ms"`
	ByEvent map[string]int `json:"by_event"`
}

// SearchStats are the searches': hits and latency, and the count of each
// mode.
type SearchStats struct {
	Count  int            `json:"count"`
	Hits   Dist           `json:"hits"`
	MS     Dist           `json:"ms"`
	ByMode map[string]int `json:"by_mode"`
}

// CaptureStats are the capture jobs': events and bytes in all, and the
// time from the hook to the commit.
type CaptureStats struct {
	Count  int   `json:"count"`
	Events int64 `json:"events"`
	Bytes  int64 `json:"bytes"`
	MS     Dist  `json:"ms"`
}

// GaugeStats is one sample of the daemon's gauges.
type GaugeStats struct {
	Time       time.Time `json:"time"`
	Queue      int       `json:"queue"`
	IndexBytes int64     `json:"index_bytes"`
	RepoBytes  int64     `json:"repo_bytes"`
	Commits    int       `json:"commits"`
}

// Summarize computes the stats of events (as Read returns them) for the
// window from since to until.
func Summarize(events []Event, since, until time.Time) Stats {
	st := Stats{Since: since, Until: until,
		Summaries: SummaryStats{Providers: []ProviderStats{}},
		Packs:     PackStats{ByEvent: map[string]int{}},
		Searches:  SearchStats{ByMode: map[string]int{}},
	}
	var (
		sumMS, packMS, packTok, fill, searchMS, hits, capMS []float64
		prov                                                = map[[2]string]*ProviderStats{}
	)
	for _, e := range events {
		if e.Time.Before(since) || !until.IsZero() && e.Time.After(until) {
			continue
		}
		st.Events++
		switch e.Kind {
		case KindSummary:
			s := &st.Summaries
			s.Count++
			s.TokensIn += e.TokensIn
			s.TokensOut += e.TokensOut
			if e.Fallback {
				s.Fallbacks++
			}
			sumMS = append(sumMS, e.MS)
			k := [2]string{e.Provider, e.Model}
			p := prov[k]
			if p == nil {
				p = &ProviderStats{Provider: e.Provider, Model: e.Model}
				prov[k] = p
			}
			p.Count++
			p.TokensIn += e.TokensIn
			p.TokensOut += e.TokensOut
		case KindPack:
			p := &st.Packs
			p.Count++
			p.Tokens += e.Tokens
			p.Items += e.Items
			p.LeftOut += e.LeftOut
			p.ByEvent[nameOr(e.Name)]++
			packTok = append(packTok, float64(e.Tokens))
			packMS = append(packMS, e.MS)
			if e.Budget > 0 {
				fill = append(fill, float64(e.Tokens)/float64(e.Budget))
			}
		case KindSearch:
			st.Searches.Count++
			st.Searches.ByMode[nameOr(e.Mode)]++
			hits = append(hits, float64(e.Hits))
			searchMS = append(searchMS, e.MS)
		case KindCapture:
			c := &st.Captures
			c.Count++
			c.Events += int64(e.Events)
			c.Bytes += e.Bytes
			capMS = append(capMS, e.MS)
		case KindGauge:
			if st.Gauge == nil || !e.Time.Before(st.Gauge.Time) {
				st.Gauge = &GaugeStats{Time: e.Time, Queue: e.Queue, IndexBytes: e.IndexBytes, RepoBytes: e.RepoBytes, Commits: e.Commits}
			}
		}
	}
	for _, p := range prov {
		st.Summaries.Providers = append(st.Summaries.Providers, *p)
	}
	slices.SortFunc(st.Summaries.Providers, func(a, b ProviderStats) int {
		return cmp.Or(cmp.Compare(b.TokensIn+b.TokensOut, a.TokensIn+a.TokensOut), cmp.Compare(a.Provider, b.Provider), cmp.Compare(a.Model, b.Model))
	})
	st.Summaries.MS = dist(sumMS)
	st.Packs.MS, st.Packs.PerPack, st.Packs.Fill = dist(packMS), dist(packTok), dist(fill)
	st.Searches.MS, st.Searches.Hits = dist(searchMS), dist(hits)
	st.Captures.MS = dist(capMS)
	return st
}

// nameOr is the name an event was counted under: "" is "other".
func nameOr(s string) string {
	if s == "" {
		return "other"
	}
	return s
}

// dist sorts v and reads its percentiles by nearest rank.
func dist(v []float64) Dist {
	if len(v) == 0 {
		return Dist{}
	}
	slices.Sort(v)
	r := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	return Dist{P50: r(rank(v, 0.50)), P95: r(rank(v, 0.95)), Max: r(v[len(v)-1])}
}

// rank is the nearest-rank percentile p of the sorted v.
func rank(v []float64, p float64) float64 {
	i := int(math.Ceil(p*float64(len(v)))) - 1
	return v[min(max(i, 0), len(v)-1)]
}

// Load reads the log in stateDir and summarizes the window from since
// (zero: all it keeps) to until.
func Load(ctx context.Context, stateDir string, since, until time.Time) (Stats, error) {
	evs, err := Read(ctx, stateDir, since)
	if err != nil {
		return Stats{}, err
	}
	return Summarize(evs, since, until), nil
}
