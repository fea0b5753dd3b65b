package metrics

import (
	"fmt"
	"html"
	"html/template"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// Plot is one chart of the viewer's Metrics page: its data, and the SVG
// the server draws of it.
type Plot struct {
	Name   string   `json:"name"` // stable: summary-tokens, pack-tokens, search-latency, repo-size, commits
	Title  string   `json:"title"`
	XLabel string   `json:"x_label"`
	YLabel string   `json:"y_label"`
	Series []Series `json:"series"`
	// SVG draws the plot in the page's colours: text and axes in
	// currentColor, each series in var(--cairn-plot-N), with a mid-tone
	// fallback that reads on light and dark backgrounds.
	SVG template.HTML `json:"-"`
}

// Series is one line of a plot, its points in time order.
type Series struct {
	Name   string  `json:"name"`
	Points []Point `json:"points"`
}

// Point is a value at a time.
type Point struct {
	T time.Time `json:"t"`
	V float64   `json:"v"`
}

// MaxPoints is the most points a series keeps: more are merged, in
// groups of consecutive points, into their largest value at the group's
// last time, so that a month of gauges draws as fast as a day.
const MaxPoints = 400

// Plots returns the Metrics page's plots of events (as Read returns
// them), days counted in loc: tokens spent summarising per day and
// provider, tokens injected per session start (and the budget), search
// latency p50 and p95 per day, and the memory's growth (repository size,
// commits) from the daemon's gauges.
func Plots(events []Event, loc *time.Location) []Plot {
	day := func(t time.Time) time.Time {
		y, m, d := t.In(loc).Date()
		return time.Date(y, m, d, 0, 0, 0, 0, loc)
	}
	var (
		spent   = map[string]map[time.Time]float64{} // provider -> day -> tokens
		used    []Point
		budget  []Point
		latency = map[time.Time][]float64{}
		size    []Point
		commits []Point
	)
	for _, e := range events {
		switch e.Kind {
		case KindSummary:
			p := nameOr(e.Provider)
			if spent[p] == nil {
				spent[p] = map[time.Time]float64{}
			}
			spent[p][day(e.Time)] += float64(e.TokensIn + e.TokensOut)
		case KindPack:
			if e.Name == "session-start" {
				used = append(used, Point{e.Time, float64(e.Tokens)})
				budget = append(budget, Point{e.Time, float64(e.Budget)})
			}
		case KindSearch:
			latency[day(e.Time)] = append(latency[day(e.Time)], e.MS)
		case KindGauge:
			if e.RepoBytes > 0 {
				size = append(size, Point{e.Time, float64(e.RepoBytes) / (1 << 20)})
			}
			if e.Commits > 0 {
				commits = append(commits, Point{e.Time, float64(e.Commits)})
			}
		}
	}
	tokens := Plot{Name: "summary-tokens", Title: "Tokens spent summarising, per day", XLabel: "day", YLabel: "tokens (in + out)"}
	for _, p := range slices.Sorted(maps.Keys(spent)) {
		var pts []Point
		for _, d := range slices.SortedFunc(maps.Keys(spent[p]), time.Time.Compare) {
			pts = append(pts, Point{d, spent[p][d]})
		}
		tokens.Series = append(tokens.Series, Series{Name: p, Points: pts})
	}
	lat := Plot{Name: "search-latency", Title: "Search latency, per day", XLabel: "day", YLabel: "milliseconds",
		Series: []Series{{Name: "p50"}, {Name: "p95"}}}
	for _, d := range slices.SortedFunc(maps.Keys(latency), time.Time.Compare) {
		ds := dist(latency[d])
		lat.Series[0].Points = append(lat.Series[0].Points, Point{d, ds.P50})
		lat.Series[1].Points = append(lat.Series[1].Points, Point{d, ds.P95})
	}
	plots := []Plot{
		tokens,
		{Name: "pack-tokens", Title: "Tokens injected per session start", XLabel: "session start", YLabel: "tokens",
			Series: []Series{{Name: "used", Points: used}, {Name: "budget", Points: budget}}},
		lat,
		{Name: "repo-size", Title: "Memory growth: repository size", XLabel: "time", YLabel: "MiB",
			Series: []Series{{Name: "repository", Points: size}}},
		{Name: "commits", Title: "Memory growth: checkpoints", XLabel: "time", YLabel: "commits",
			Series: []Series{{Name: "commits", Points: commits}}},
	}
	for i := range plots {
		p := &plots[i]
		for j := range p.Series {
			p.Series[j].Points = thin(p.Series[j].Points, MaxPoints)
			if p.Series[j].Points == nil {
				p.Series[j].Points = []Point{}
			}
		}
		if p.Series == nil {
			p.Series = []Series{}
		}
		p.SVG = p.draw(loc)
	}
	return plots
}

// thin merges pts into at most n points (see MaxPoints).
func thin(pts []Point, n int) []Point {
	if len(pts) <= n {
		return pts
	}
	out := make([]Point, 0, n)
	for g := range n {
		lo, hi := g*len(pts)/n, (g+1)*len(pts)/n
		p := pts[hi-1]
		for _, q := range pts[lo:hi] {
			p.V = max(p.V, q.V)
		}
		out = append(out, p)
	}
	return out
}

// The drawing's size and margins, in SVG user units.
const (
	svgW, svgH                     = 640, 260
	padL, padR, padTop, padBottom  = 64, 16, 40, 48
	plotW, plotH                   = svgW - padL - padR, svgH - padTop - padBottom
	yTicks, xTicks                 = 4, 5
	legendW                        = 96
	fallbackPalette, paletteLength = "#4e79a7 #f28e2b #59a14f #e15759 #b07aa1 #76b7b2", 6
)

// colour is series i's stroke: the page's --cairn-plot-N, else a
// mid-tone that reads on light and dark backgrounds alike.
func colour(i int) string {
	fb := strings.Fields(fallbackPalette)[i%paletteLength]
	return fmt.Sprintf("var(--cairn-plot-%d, %s)", i%paletteLength+1, fb)
}

func (p *Plot) draw(loc *time.Location) template.HTML {
	var b strings.Builder
	esc := html.EscapeString
	id := "cairn-plot-" + p.Name
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="cairn-plot" viewBox="0 0 %d %d" role="img" aria-labelledby="%s-title" font-family="system-ui, sans-serif" font-size="12" fill="currentColor">`+"\n", svgW, svgH, id)
	fmt.Fprintf(&b, `<title id="%s-title">%s</title>`+"\n", id, esc(p.Title))
	fmt.Fprintf(&b, `<text x="%d" y="20" font-size="14" font-weight="600">%s</text>`+"\n", padL, esc(p.Title))

	var t0, t1 time.Time
	vmax := 0.0
	n := 0
	for _, s := range p.Series {
		for _, pt := range s.Points {
			if n == 0 || pt.T.Before(t0) {
				t0 = pt.T
			}
			if n == 0 || pt.T.After(t1) {
				t1 = pt.T
			}
			vmax = max(vmax, pt.V)
			n++
		}
	}
	// Axes and their labels, drawn with or without data.
	fmt.Fprintf(&b, `<g stroke="currentColor" stroke-opacity="0.6"><line x1="%d" y1="%d" x2="%d" y2="%d"/><line x1="%d" y1="%d" x2="%d" y2="%d"/></g>`+"\n",
		padL, padTop, padL, padTop+plotH, padL, padTop+plotH, padL+plotW, padTop+plotH)
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", padL+plotW/2, svgH-8, esc(p.XLabel))
	fmt.Fprintf(&b, `<text transform="translate(14 %d) rotate(-90)" text-anchor="middle">%s</text>`+"\n", padTop+plotH/2, esc(p.YLabel))
	if n == 0 {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" fill-opacity="0.7">No data yet</text>`+"\n</svg>\n", padL+plotW/2, padTop+plotH/2)
		return template.HTML(b.String())
	}
	if !t1.After(t0) { // one instant: a day around it
		t0, t1 = t0.Add(-12*time.Hour), t1.Add(12*time.Hour)
	}
	step := niceStep(vmax / yTicks)
	top := step * yTicks
	x := func(t time.Time) float64 { return padL + float64(plotW)*float64(t.Sub(t0))/float64(t1.Sub(t0)) }
	y := func(v float64) float64 { return padTop + float64(plotH)*(1-v/top) }

	b.WriteString(`<g stroke="currentColor" stroke-opacity="0.15">`)
	for i := 1; i <= yTicks; i++ {
		fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f"/>`, padL, y(step*float64(i)), padL+plotW, y(step*float64(i)))
	}
	b.WriteString("</g>\n")
	for i := 0; i <= yTicks; i++ {
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`+"\n", padL-6, y(step*float64(i)), number(step*float64(i)))
	}
	for _, t := range timeTicks(t0, t1, loc) {
		tx, anchor := x(t), "middle"
		switch {
		case tx < padL+24:
			anchor = "start"
		case tx > padL+plotW-24:
			anchor = "end"
		}
		layout := "Jan 2 15:04"
		if t1.Sub(t0) >= 48*time.Hour {
			layout = "Jan 2"
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="%s">%s</text>`+"\n", tx, padTop+plotH+18, anchor, t.In(loc).Format(layout))
	}
	for i, s := range p.Series {
		c := colour(i)
		if len(s.Points) > 1 {
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="`, c)
			for j, pt := range s.Points {
				if j > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "%.1f,%.1f", x(pt.T), y(pt.V))
			}
			b.WriteString(`"/>` + "\n")
		}
		fmt.Fprintf(&b, `<g fill="%s">`, c)
		for _, pt := range s.Points {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5"><title>%s: %s</title></circle>`, x(pt.T), y(pt.V), esc(s.Name), number(pt.V))
		}
		b.WriteString("</g>\n")
		// The legend, top right, one row per series.
		lx, ly := svgW-padR-legendW, 12+14*i
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>`+"\n", lx, ly, c, lx+14, ly+9, esc(s.Name))
	}
	b.WriteString("</svg>\n")
	return template.HTML(b.String())
}

// timeTicks are where the time axis is labelled: at midnights (in loc)
// a whole number of days apart when the plot spans two days or more,
// else at even fractions of the span.
func timeTicks(t0, t1 time.Time, loc *time.Location) []time.Time {
	span := t1.Sub(t0)
	var out []time.Time
	if span < 48*time.Hour {
		for i := 0; i <= xTicks; i++ {
			out = append(out, t0.Add(span*time.Duration(i)/xTicks))
		}
		return out
	}
	step := int(math.Ceil(span.Hours() / 24 / xTicks))
	y, m, d := t0.In(loc).Date()
	t := time.Date(y, m, d, 0, 0, 0, 0, loc)
	if t.Before(t0) {
		t = t.AddDate(0, 0, 1)
	}
	for ; !t.After(t1); t = t.AddDate(0, 0, step) {
		out = append(out, t)
	}
	return out
}

// niceStep is the smallest of 1, 2 or 5 times a power of ten that is at
// least v (1 for v ≤ 0).
func niceStep(v float64) float64 {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

// number writes v short: 950, 12.5, 1.2k, 3.4M.
func number(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return trimZero(fmt.Sprintf("%.1f", v/1e6)) + "M"
	case a >= 1e3:
		return trimZero(fmt.Sprintf("%.1f", v/1e3)) + "k"
	case a >= 10 || a == math.Trunc(a):
		return fmt.Sprintf("%.0f", v)
	}
	return trimZero(fmt.Sprintf("%.2f", v))
}

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
