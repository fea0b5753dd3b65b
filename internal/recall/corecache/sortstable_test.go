package corecache

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// sortStable gives sort.SliceStable's order, ties and all, even for a
// less that is no strict weak order (NaN importances).
func TestSortStable(t *testing.T) {
	type item struct {
		imp float64
		pin bool
		id  int
	}
	less := func(a, b *item) bool {
		if a.pin != b.pin {
			return a.pin
		}
		if a.imp != b.imp {
			return a.imp > b.imp
		}
		return false
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 19, 20, 21, 57, 1000, 5003} {
		items := make([]item, n)
		for i := range items {
			items[i] = item{imp: float64(rng.IntN(7)) / 6, pin: rng.IntN(9) == 0, id: i}
			if rng.IntN(50) == 0 {
				items[i].imp = math.NaN()
			}
		}
		want := slices.Clone(items)
		sort.SliceStable(want, func(i, j int) bool { return less(&want[i], &want[j]) })
		got := sortStable(items, less)
		for i := range want {
			if got[i].id != want[i].id {
				t.Fatalf("n=%d: at %d item %d, want %d", n, i, got[i].id, want[i].id)
			}
		}
	}
}
