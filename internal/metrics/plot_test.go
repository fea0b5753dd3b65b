package metrics

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// golden compares got with testdata/name, or writes it there under
// -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from what was drawn (go test -update rewrites it):\n%s", path, got)
	}
}

// plotEvents are a week of a small project's events.
func plotEvents() []Event {
	start := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	var evs []Event
	for d := range 7 {
		day := start.AddDate(0, 0, d)
		evs = append(evs,
			Event{Time: day, Kind: KindSummary, Provider: "anthropic", TokensIn: int64(4000 + 500*d), TokensOut: 800},
			Event{Time: day.Add(time.Hour), Kind: KindPack, Name: "session-start", Tokens: int64(1200 + 100*d), Budget: 2000},
			Event{Time: day.Add(2 * time.Hour), Kind: KindPack, Name: "cli", Tokens: 300, Budget: 2000},
			Event{Time: day.Add(3 * time.Hour), Kind: KindGauge, RepoBytes: int64(2<<20 + d*300<<10), Commits: 20 + 9*d},
		)
		if d%3 == 2 {
			evs = append(evs, Event{Time: day, Kind: KindSummary, Provider: "extractive", Fallback: true})
		}
		for i := range 5 {
			evs = append(evs, Event{Time: day.Add(time.Duration(i) * time.Minute), Kind: KindSearch, Mode: "hybrid", Hits: 5, MS: float64(2 + i*d)})
		}
	}
	return evs
}

func TestPlotsGolden(t *testing.T) {
	plots := Plots(plotEvents(), time.UTC)
	names := []string{"summary-tokens", "pack-tokens", "search-latency", "repo-size", "commits"}
	if len(plots) != len(names) {
		t.Fatalf("%d plots, want %d", len(plots), len(names))
	}
	data, err := json.MarshalIndent(plots, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "plots.json", append(data, '\n'))
	// Hard-coded black or white would vanish in one of the themes.
	bw := regexp.MustCompile(`(?i)black|white|#000\b|#000000|#fff\b|#ffffff|rgb\(0, ?0, ?0\)|rgb\(255`)
	for i, p := range plots {
		if p.Name != names[i] {
			t.Errorf("plot %d is %s, want %s", i, p.Name, names[i])
		}
		svg := string(p.SVG)
		golden(t, filepath.Join("plots", p.Name+".svg"), []byte(svg))
		if bw.MatchString(svg) {
			t.Errorf("%s: a hard-coded black or white: %s", p.Name, bw.FindString(svg))
		}
		for _, want := range []string{"<title", p.Title, p.XLabel, p.YLabel, "currentColor", "var(--cairn-plot-1"} {
			if !strings.Contains(svg, want) {
				t.Errorf("%s: no %q in its SVG", p.Name, want)
			}
		}
	}
}

func TestPlotsEmpty(t *testing.T) {
	for _, p := range Plots(nil, time.UTC) {
		if !strings.Contains(string(p.SVG), "No data yet") || !strings.HasSuffix(string(p.SVG), "</svg>\n") {
			t.Errorf("%s: empty plot drawn as\n%s", p.Name, p.SVG)
		}
		b, _ := json.Marshal(p)
		if strings.Contains(string(b), "null") {
			t.Errorf("%s: JSON has a null: %s", p.Name, b)
		}
	}
}

// Names in a plot are escaped, whatever a hand-edited log holds.
func TestPlotEscapes(t *testing.T) {
	p := Plot{Name: "x", Title: `<script>alert(1)</script>`, XLabel: "a&b", YLabel: `"q"`,
		Series: []Series{{Name: "<b>", Points: []Point{{time.Unix(0, 0), 1}}}}}
	svg := string(p.draw(time.UTC))
	if strings.Contains(svg, "<script") || strings.Contains(svg, "<b>") || strings.Contains(svg, "a&b") {
		t.Fatalf("unescaped text in\n%s", svg)
	}
}

func TestThin(t *testing.T) {
	var pts []Point
	for i := range 1000 {
		pts = append(pts, Point{time.Unix(int64(i), 0), float64(i % 7)})
	}
	got := thin(pts, 100)
	if len(got) != 100 || got[99].T != pts[999].T {
		t.Fatalf("thin: %d points, last %v", len(got), got[len(got)-1])
	}
	for _, p := range got {
		if p.V != 6 {
			t.Fatalf("a group of 10 lost its largest value: %v", p)
		}
	}
}

func TestNumber(t *testing.T) {
	for in, want := range map[float64]string{0: "0", 5: "5", 2.5: "2.5", 0.25: "0.25", 950: "950", 1200: "1.2k", 2000: "2k", 3.4e6: "3.4M"} {
		if got := number(in); got != want {
			t.Errorf("number(%v) = %q, want %q", in, got, want)
		}
	}
}
