package recall

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-mem/cairn/internal/config"
)

// TestMatchThreshold measures how well search.min_match separates
// queries about what the memory holds from queries about what it never
// stored, on the labelled set: for each threshold, the share of related
// queries with a wanted memory at or above it, and the share of
// unrelated queries with no hit at or above it. The default must keep
// at least 85% of the first and 90% of the second.
func TestMatchThreshold(t *testing.T) {
	m, related := evalSet(t)
	var unrelated []string
	loadJSON(t, "testdata/search/unrelated.json", &unrelated)
	x := mustOpenIndex(t, m)
	ctx := context.Background()
	// The best match of a wanted hit, and of any hit.
	wanted := make([]float64, len(related))
	for i, q := range related {
		res, err := x.Search(ctx, q.Q, SearchOptions{K: 10, All: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if has(q.Want, h.Path) {
				wanted[i] = max(wanted[i], h.Scores.Match)
			}
		}
	}
	stray := make([]float64, len(unrelated))
	for i, q := range unrelated {
		res, err := x.Search(ctx, q, SearchOptions{K: 10, All: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			stray[i] = max(stray[i], h.Scores.Match)
		}
		if testing.Verbose() && stray[i] >= config.DefaultMinMatch {
			t.Logf("unrelated %q reaches %.2f", q, stray[i])
		}
	}
	share := func(v []float64, keep func(float64) bool) float64 {
		n := 0
		for _, f := range v {
			if keep(f) {
				n++
			}
		}
		return float64(n) / float64(len(v))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d related, %d unrelated queries\nthreshold  related kept  unrelated silent\n", len(related), len(unrelated))
	for _, th := range []float64{0.2, 0.3, 0.4, 0.5, 0.6, 0.7} {
		fmt.Fprintf(&b, "%9.2f  %12.2f  %16.2f\n", th,
			share(wanted, func(f float64) bool { return f >= th }), share(stray, func(f float64) bool { return f < th }))
	}
	t.Log(b.String())
	if testing.Verbose() {
		for i, q := range related {
			if wanted[i] < config.DefaultMinMatch {
				t.Logf("related %q: wanted hit matches %.2f", q.Q, wanted[i])
			}
		}
	}
	th := config.DefaultMinMatch
	if r := share(wanted, func(f float64) bool { return f >= th }); r < 0.85 {
		t.Errorf("at min_match %.2f only %.2f of related queries keep a wanted hit", th, r)
	}
	if u := share(stray, func(f float64) bool { return f < th }); u < 0.9 {
		t.Errorf("at min_match %.2f only %.2f of unrelated queries find nothing", th, u)
	}
}
